export { enCore, type Catalogue, type English } from './en.ts';
export { en } from './all.ts';
export { es } from './es.ts';
export { to } from './to.ts';
