export * from './model.ts';
export { outEdges, edgeTarget, withEdge, type Edge } from './graph.ts';
export * from './rules.ts';
export * from './postback.ts';
export * from './validate.ts';
export { jsonEqual, canonicalJson } from './json.ts';
export { diffJourneys, diffIsEmpty, journeyFingerprint, type JourneyDiff, type StepChange } from './review.ts';
export { journeyReferences, referenceViolations, type JourneyReferences, type ReferenceLookup } from './references.ts';
