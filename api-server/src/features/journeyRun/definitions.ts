/**
 * What the engine needs to know of a launched version, worked out once per version: versions are
 * immutable (journey_versions), so a process keeps them (a bounded cache) and never re-reads one.
 *
 * - The definition is parsed with the shared Journey schema (settings included: absent means the
 *   defaults, settingsOf). A stored definition that no longer parses is `invalid`: its people exit
 *   with `journey_invalid` rather than stay stuck.
 * - `triggerNames`: what the engine registers in trigger_interests for consumer 'journeys' — the
 *   entry step's source events, the exit events, the goal event, every flowEvent path's event, and
 *   `$interaction` when the version has flowInteraction or flowWaitInteraction steps.
 */
import { Journey, type JourneyStep } from '@gd/shared';
import { settingsOf, type JourneySettings } from '@gd/shared/journey/settings';
import type { Queryable } from '../../db/pool.ts';
import { ANY_INTERACTION } from '../ingest/triggers.ts';

export interface RunVersion {
  journeyId: string;
  version: number;
  journey: Journey;
  settings: JourneySettings;
  steps: ReadonlyMap<string, JourneyStep>;
  entry: JourneyStep | null;
  /** flowEvent path events (preloaded from `events` for a batch). */
  flowEventIds: string[];
  hasInteractionSteps: boolean;
  /** flowSplit paths with a segment: [stepId, pathId]. */
  splitPaths: { stepId: string; pathId: string }[];
}

export type VersionLookup = RunVersion | { invalid: true; journeyId: string; version: number };

export function runVersionOf(journeyId: string, version: number, definition: unknown): VersionLookup {
  const parsed = Journey.safeParse(definition);
  if (!parsed.success) return { invalid: true, journeyId, version };
  const journey = parsed.data;
  const steps = new Map(journey.steps.map((s) => [s.id, s]));
  const flowEventIds = new Set<string>();
  const splitPaths: RunVersion['splitPaths'] = [];
  let hasInteractionSteps = false;
  for (const s of journey.steps) {
    if (s.type === 'flowEvent') for (const p of s.paths) if (p.eventId) flowEventIds.add(p.eventId);
    if (s.type === 'flowInteraction' || s.type === 'flowWaitInteraction') hasInteractionSteps = true;
    if (s.type === 'flowSplit') for (const p of s.paths) if (p.segment) splitPaths.push({ stepId: s.id, pathId: p.id });
  }
  return {
    journeyId, version, journey, settings: settingsOf(journey), steps,
    entry: journey.entryId ? (steps.get(journey.entryId) ?? null) : null,
    flowEventIds: [...flowEventIds], hasInteractionSteps, splitPaths,
  };
}

export const isValid = (v: VersionLookup | undefined): v is RunVersion => v !== undefined && !('invalid' in v);

/** The names a version wants to hear about (see the module doc). */
export function triggerNames(v: RunVersion): string[] {
  const names = new Set<string>();
  if (v.entry?.type === 'sourceEvents') for (const id of v.entry.eventIds) names.add(id);
  for (const id of v.settings.exit.eventIds) names.add(id);
  if (v.settings.goal.eventId) names.add(v.settings.goal.eventId);
  for (const id of v.flowEventIds) names.add(id);
  if (v.hasInteractionSteps) names.add(ANY_INTERACTION);
  return [...names];
}

const MAX_CACHED = 2000;

/** Launched versions by `journeyId:version`, read from the database once per process. */
export class VersionCache {
  private readonly cache = new Map<string, VersionLookup>();

  async load(db: Queryable, keys: readonly { journeyId: string; version: number }[]): Promise<Map<string, VersionLookup>> {
    const out = new Map<string, VersionLookup>();
    const missing: { journeyId: string; version: number }[] = [];
    for (const k of keys) {
      const key = versionKey(k.journeyId, k.version);
      const hit = this.cache.get(key);
      if (hit) out.set(key, hit);
      else if (!missing.some((m) => m.journeyId === k.journeyId && m.version === k.version)) missing.push(k);
    }
    if (missing.length > 0) {
      const { rows } = await db.query<{ journey_id: string; version: number; definition: unknown }>(
        `SELECT v.journey_id, v.version, v.definition FROM journey_versions v
           JOIN unnest($1::uuid[], $2::int[]) AS k(journey_id, version) ON k.journey_id = v.journey_id AND k.version = v.version`,
        [missing.map((m) => m.journeyId), missing.map((m) => m.version)]);
      for (const r of rows) {
        const found = runVersionOf(r.journey_id, r.version, r.definition);
        const key = versionKey(r.journey_id, r.version);
        if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(key, found);
        out.set(key, found);
      }
    }
    return out;
  }
}

/** The shared version cache of a process (versions are immutable). */
export const processVersions = new VersionCache();

export const versionKey = (journeyId: string, version: number) => `${journeyId}:${version}`;
