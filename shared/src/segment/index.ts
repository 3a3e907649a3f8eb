export * from './model.ts';
export * from './validate.ts';
export * from './edit.ts';
export * from './semantics.ts';
export * from './audience.ts';
export * from './countries.ts';
export * from './valueSuggestions.ts';
export * from './evaluate.ts';
