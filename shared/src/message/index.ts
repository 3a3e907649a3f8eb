export * from './model.ts';
export * from './draft.ts';
export * from './validate.ts';
export * from './lifecycle.ts';
export * from './diff.ts';
