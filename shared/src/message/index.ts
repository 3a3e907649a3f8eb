export * from './model.ts';
export * from './draft.ts';
export * from './conversion.ts';
export * from './abTest.ts';
export * from './abStats.ts';
export * from './validate.ts';
export * from './lifecycle.ts';
export * from './diff.ts';
