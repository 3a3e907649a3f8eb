/**
 * The journey editing rules of SPEC.md section 4: `normalizeJourney` (normalize.ts) and the editing
 * operations built on it (edit.ts). Every operation is pure and returns a normalized journey.
 */
export { normalizeJourney, precedingChannels, allowedInteractions } from './normalize.ts';
export { addStepAfter, removeStep, connect, updateStep, addPath, removePath, canAddAfter, relinkOrphan, putBackStep, linksInto, type LostLink, type NamedLink } from './edit.ts';
export { journeyInvariantIssues, type InvariantIssue, type InvariantCode } from './invariants.ts';
