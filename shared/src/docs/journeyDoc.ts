/**
 * Journey ⇄ Yjs. `journeyFromDoc` reads whatever merged state the document holds (leniently: see
 * lenientParse) and returns it unnormalized, with steps sorted by id; the editor normalizes it and
 * writes the repair back with `applyJourneyToDoc`, which sets only what changed, in one
 * transaction, so concurrent edits to different steps (or different fields of one step) merge.
 *
 * Settings (journey/settings.ts) live in the root map `settings`, one plain value per group
 * (reentry, entryKey, exit, goal): concurrent edits of different groups merge, edits of one group
 * are last-writer-wins. A document without them reads as a journey without `settings` (the
 * defaults), so documents made before settings existed read, normalize and fingerprint as before.
 * `applyJourneyToDoc` writes them when the journey has them (never deletes them: a journey
 * without settings leaves the document's alone); the settings panel writes them with
 * `writeJourneySettings`.
 */
import * as Y from 'yjs';
import { z } from 'zod';
import {
  JourneyPath,
  JourneyStep,
  StepType,
  createStep,
  type Journey,
} from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { DEFAULT_JOURNEY_SETTINGS, JourneySettings } from '../journey/settings.ts';
import { parseDocName } from './names.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { childArray, childMap, isRecord, lenientParse, patchMap, plain } from './ymap.ts';

export const LayoutPosition = z.object({ x: z.number().finite(), y: z.number().finite() });
export type LayoutPosition = z.infer<typeof LayoutPosition>;

function readPath(value: unknown, index: number): JourneyPath | null {
  const raw = plain(value);
  if (!isRecord(raw)) return null;
  const id = typeof raw.id === 'string' && raw.id !== '' ? raw.id : `p${index + 1}`;
  return lenientParse(JourneyPath, { id, name: '', next: null }, { ...raw, id });
}

function readStep(id: string, value: unknown): JourneyStep | null {
  if (!(value instanceof Y.Map)) return null;
  const map = value as Y.Map<unknown>;
  const type = StepType.safeParse(map.get('type'));
  if (!type.success) return null;
  const raw: Record<string, unknown> = {};
  for (const [key, v] of map.entries()) {
    raw[key] = key === 'paths' && v instanceof Y.Array ? v.toArray().flatMap((p, i) => readPath(p, i) ?? []) : plain(v);
  }
  return lenientParse(JourneyStep, createStep(type.data, id), { ...raw, id });
}

/** The settings the document holds, each group read leniently over the defaults; undefined when it holds none. */
export function readJourneySettings(doc: Y.Doc): JourneySettings | undefined {
  const map = doc.getMap<unknown>('settings');
  if (map.size === 0) return undefined;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_JOURNEY_SETTINGS)) if (map.has(key)) raw[key] = plain(map.get(key));
  return lenientParse(JourneySettings, structuredClone(DEFAULT_JOURNEY_SETTINGS), raw);
}

export function journeyFromDoc(doc: Y.Doc): Journey {
  const entry = doc.getMap('meta').get('entryId');
  const steps = [...doc.getMap('steps').entries()]
    .flatMap(([id, value]) => readStep(id, value) ?? [])
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const settings = readJourneySettings(doc);
  const journey: Journey = { entryId: typeof entry === 'string' ? entry : null, steps };
  return settings ? { ...journey, settings } : journey;
}

/** Writes the settings as a minimal diff (only the groups that changed), in one transaction. */
export function writeJourneySettings(doc: Y.Doc, settings: JourneySettings, origin?: unknown) {
  doc.transact(() => patchMap(doc.getMap<unknown>('settings'), { ...settings }), origin);
}

function writePaths(stepMap: Y.Map<unknown>, paths: readonly JourneyPath[]) {
  const arr = childArray<unknown>(stepMap, 'paths');
  const wanted = paths.map((p) => p.id);
  const idAt = (i: number) => {
    const m = arr.get(i);
    return m instanceof Y.Map ? (m as Y.Map<unknown>).get('id') : undefined;
  };
  const kept: string[] = [];
  for (let i = arr.length - 1; i >= 0; i--) {
    const id = idAt(i);
    const duplicate = typeof id === 'string' && arr.toArray().slice(0, i).some((_, j) => idAt(j) === id);
    if (typeof id !== 'string' || !wanted.includes(id) || duplicate) arr.delete(i, 1);
    else kept.unshift(id);
  }
  // Reordered paths: rebuild (rare; reordering is not an editing operation).
  if (kept.join('\u0000') !== wanted.filter((id) => kept.includes(id)).join('\u0000')) arr.delete(0, arr.length);
  paths.forEach((path, i) => {
    if (idAt(i) !== path.id) arr.insert(i, [new Y.Map<unknown>()]);
    patchMap(arr.get(i) as Y.Map<unknown>, path);
  });
}

function writeStep(map: Y.Map<unknown>, step: JourneyStep) {
  const { id: _id, ...fields } = step;
  patchMap(map, fields, ['paths']);
  if ('paths' in step) writePaths(map, step.paths);
  else if (map.has('paths')) map.delete('paths');
}

/** Writes `journey` into the document as a minimal diff, in one transaction. */
export function applyJourneyToDoc(doc: Y.Doc, journey: Journey, origin?: unknown) {
  doc.transact(() => {
    const meta = doc.getMap('meta');
    if (meta.get('entryId') !== journey.entryId) meta.set('entryId', journey.entryId);
    const steps = doc.getMap<unknown>('steps');
    const ids = new Set(journey.steps.map((s) => s.id));
    for (const key of [...steps.keys()]) if (!ids.has(key)) steps.delete(key);
    for (const step of journey.steps) writeStep(childMap(steps, step.id), step);
    const layout = doc.getMap('layout');
    for (const key of [...layout.keys()]) if (!ids.has(key)) layout.delete(key);
    if (journey.settings) writeJourneySettings(doc, journey.settings);
  }, origin);
}

/** What a new journey document holds: an events source followed by an (automatic) end. */
export const initialJourney = (): Journey =>
  normalizeJourney({ entryId: 'source', steps: [createStep('sourceEvents', 'source')] });

/**
 * Server side only (a client that seeds content duplicates it). Writes meta and the initial
 * journey unless the document already has a kind; returns whether it wrote anything.
 */
export function initJourneyDoc(doc: Y.Doc, name: string): boolean {
  if (parseDocName(name)?.kind !== 'journey') throw new Error(`not a journey document name: ${name}`);
  const meta = doc.getMap('meta');
  if (meta.has('kind')) return false;
  doc.transact(() => {
    meta.set('schemaVersion', SCHEMA_VERSION.journey);
    meta.set('kind', 'journey');
    applyJourneyToDoc(doc, initialJourney());
  });
  return true;
}

export function readLayout(doc: Y.Doc): Record<string, LayoutPosition> {
  const out: Record<string, LayoutPosition> = {};
  for (const [id, value] of doc.getMap('layout').entries()) {
    const pos = LayoutPosition.safeParse(value);
    if (pos.success) out[id] = pos.data;
  }
  return out;
}

/** Call when a drag ends (never per mouse move). Writes nothing when the position is unchanged. */
export function writeLayoutPosition(doc: Y.Doc, stepId: string, pos: LayoutPosition, origin?: unknown): boolean {
  const layout = doc.getMap('layout');
  const current = LayoutPosition.safeParse(layout.get(stepId));
  if (current.success && current.data.x === pos.x && current.data.y === pos.y) return false;
  doc.transact(() => layout.set(stepId, { x: pos.x, y: pos.y }), origin);
  return true;
}
