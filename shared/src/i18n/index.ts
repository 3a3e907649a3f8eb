export { en, type Catalogue } from './en.ts';
export { es } from './es.ts';
export { to } from './to.ts';
