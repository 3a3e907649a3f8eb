export * from './model.ts';
export * from './validate.ts';
export * from './edit.ts';
