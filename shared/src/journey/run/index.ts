export * from './types.ts';
export { advance, startEntry, MAX_PASSAGES_PER_ADVANCE } from './advance.ts';
export { entryDraw } from './draw.ts';
export * from './simulate.ts';
