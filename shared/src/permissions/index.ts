export * from './keys.ts';
export * from './roles.ts';
export * from './can.ts';
export * from './docs.ts';
