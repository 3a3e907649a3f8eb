export * from './model.ts';
export { outEdges, edgeTarget, withEdge, type Edge } from './graph.ts';
export * from './rules.ts';
export * from './postback.ts';
export * from './validate.ts';
export { jsonEqual } from './json.ts';
