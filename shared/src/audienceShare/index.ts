export * from './model.ts';
export * from './identifiers.ts';
export * from './platforms.ts';
