/**
 * What the engine's endpoints read (schemas/journeyRun.ts): step counts of a version, a person's
 * entries with their passages, and people of a journey found by customer id, e-mail or person id.
 *
 * - Counts: `cumulativeUsers` and `conversions` are kept by the transitions (journey_step_counts);
 *   `users` is counted from the open entries by step (index journey_entries_step); totals come from
 *   the same counters (pseudo steps `$ended`, `$exited`, `$converted`), so a poll never scans the
 *   version's entries. Steps are listed in the version's order, every step once (zeros included).
 * - Traces: at most 100 entries, 500 passages each, oldest passage first. A postback's effect is
 *   its call's current result (pending, ok, failed with the reason), read from journey_postbacks.
 */
import type { JourneyEntryTrace, JourneyPassage, JourneyRunTotals, JourneyStepCount } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { isValid, processVersions, versionKey } from './definitions.ts';
import { OPEN, TOTAL_CONVERTED, TOTAL_ENDED, TOTAL_EXITED } from './repository.ts';

export async function lastVersion(db: Queryable, journeyId: string): Promise<number | null> {
  const { rows } = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM journey_versions WHERE journey_id = $1', [journeyId]);
  return rows[0]?.v ?? null;
}

export async function stepCounts(db: Queryable, journeyId: string, version: number): Promise<{ counts: JourneyStepCount[]; totals: JourneyRunTotals }> {
  const [kept, now, loaded] = await Promise.all([
    db.query<{ step_id: string; cumulative: number; conversions: number }>(
      'SELECT step_id, cumulative, conversions FROM journey_step_counts WHERE journey_id = $1 AND version = $2', [journeyId, version]),
    db.query<{ step_id: string; n: number }>(
      `SELECT step_id, count(*) AS n FROM journey_entries WHERE journey_id = $1 AND version = $2 AND status IN ${OPEN} GROUP BY step_id`, [journeyId, version]),
    processVersions.load(db, [{ journeyId, version }]),
  ]);
  const byStep = new Map(kept.rows.map((r) => [r.step_id, r]));
  const users = new Map(now.rows.map((r) => [r.step_id, r.n]));
  const v = loaded.get(versionKey(journeyId, version));
  const stepIds = isValid(v) ? v.journey.steps.map((s) => s.id) : [...new Set([...byStep.keys(), ...users.keys()])].filter((s) => !s.startsWith('$'));
  const counts = stepIds.map((id) => ({
    currentStepId: id, users: users.get(id) ?? 0, cumulativeUsers: byStep.get(id)?.cumulative ?? 0, conversions: byStep.get(id)?.conversions ?? 0,
  }));
  const entryStep = isValid(v) ? v.journey.entryId : null;
  const inside = [...users.values()].reduce((a, b) => a + b, 0);
  return {
    counts,
    totals: {
      entered: entryStep ? (byStep.get(entryStep)?.cumulative ?? 0) : 0,
      inside,
      ended: byStep.get(TOTAL_ENDED)?.cumulative ?? 0,
      exited: byStep.get(TOTAL_EXITED)?.cumulative ?? 0,
      converted: byStep.get(TOTAL_CONVERTED)?.cumulative ?? 0,
    },
  };
}

interface EntryTraceRow {
  id: string; journey_id: string; journey_name: string; version: number; person_id: string; entry_key: string; status: JourneyEntryTrace['status'];
  step_id: string; entered_at: Date; wake_at: Date | null; waiting_for: 'interaction' | 'segment' | null; ended_at: Date | null; end_reason: string | null;
  converted_at: Date | null; conversion_step_id: string | null;
}

interface PassageTraceRow {
  entry_id: string; step_id: string; path_id: string | null; at: Date; reason: string; detail: string | null;
  effect_kind: string | null; effect_status: string | null; effect_reason: string | null; postback_status: string | null; postback_error: string | null;
}

const ENTRY_COLUMNS = `e.id::text, e.journey_id, j.name AS journey_name, e.version, e.person_id::text, e.entry_key, e.status, e.step_id, e.entered_at, e.wake_at,
  e.waiting_for, e.ended_at, e.end_reason, e.converted_at, e.conversion_step_id`;

async function withPassages(db: Queryable, entries: readonly EntryTraceRow[]): Promise<JourneyEntryTrace[]> {
  if (entries.length === 0) return [];
  const [{ rows }, versions] = await Promise.all([
    db.query<PassageTraceRow>(
      `SELECT x.entry_id::text, x.step_id, x.path_id, x.at, x.reason, x.detail, x.effect_kind, x.effect_status, x.effect_reason,
              pb.status AS postback_status, pb.error AS postback_error
         FROM unnest($1::bigint[]) AS q(entry_id)
         CROSS JOIN LATERAL (SELECT * FROM journey_passages p WHERE p.entry_id = q.entry_id ORDER BY p.id LIMIT 500) x
         LEFT JOIN journey_postbacks pb ON pb.entry_id = x.entry_id AND pb.step_id = x.step_id AND x.effect_kind = 'postback'
        ORDER BY x.entry_id, x.id`,
      [entries.map((e) => e.id)]),
    processVersions.load(db, entries.map((e) => ({ journeyId: e.journey_id, version: e.version }))),
  ]);
  const byEntry = new Map<string, JourneyPassage[]>();
  const entryById = new Map(entries.map((e) => [e.id, e]));
  for (const r of rows) {
    const entry = entryById.get(r.entry_id);
    const v = entry ? versions.get(versionKey(entry.journey_id, entry.version)) : undefined;
    const effect: JourneyPassage['effect'] = r.effect_kind === 'postback'
      ? { kind: 'postback', status: r.postback_status ?? r.effect_status ?? 'pending', reason: r.postback_error }
      : r.effect_kind === 'send' ? { kind: 'send', status: r.effect_status ?? '', reason: r.effect_reason }
        : r.effect_kind === 'tag' ? { kind: 'tag', status: r.effect_status ?? '', reason: r.effect_reason } : null;
    const list = byEntry.get(r.entry_id) ?? [];
    list.push({ stepId: r.step_id, stepType: isValid(v) ? (v.steps.get(r.step_id)?.type ?? null) : null, pathId: r.path_id, at: r.at.toISOString(), reason: r.reason, detail: r.detail, effect });
    byEntry.set(r.entry_id, list);
  }
  return entries.map((e) => ({
    entryId: e.id, journeyId: e.journey_id, journeyName: e.journey_name, version: e.version, personId: e.person_id, entryKey: e.entry_key === '' ? null : e.entry_key,
    status: e.status, stepId: e.step_id, enteredAt: e.entered_at.toISOString(), wakeAt: e.wake_at?.toISOString() ?? null, waitingFor: e.waiting_for,
    endedAt: e.ended_at?.toISOString() ?? null, endReason: e.end_reason, convertedAt: e.converted_at?.toISOString() ?? null, conversionStepId: e.conversion_step_id,
    passages: byEntry.get(e.id) ?? [],
  }));
}

/** A person's entries (every journey of the app), newest first. */
export async function personEntries(db: Queryable, appId: string, personId: string): Promise<JourneyEntryTrace[]> {
  const { rows } = await db.query<EntryTraceRow>(
    `SELECT ${ENTRY_COLUMNS} FROM journey_entries e JOIN journeys j ON j.id = e.journey_id AND j.app_id = e.app_id
      WHERE e.app_id = $1 AND e.person_id = $2 ORDER BY e.entered_at DESC, e.id DESC LIMIT 100`, [appId, personId]);
  return withPassages(db, rows);
}

/** People of the app matching `q` exactly (customer id, e-mail, person id), with their entries into the journey. */
export async function searchJourneyPeople(db: Queryable, appId: string, journeyId: string, q: string): Promise<{ personId: string; customerId: string | null; email: string | null; entries: JourneyEntryTrace[] }[]> {
  const asId = /^[1-9][0-9]{0,17}$/.test(q) ? q : null;
  const { rows: people } = await db.query<{ id: string; customer_id: string | null; email: string | null }>(
    `SELECT p.id::text, p.customer_id, p.email FROM people p
      WHERE p.app_id = $1 AND p.merged_into IS NULL AND (p.customer_id = $2 OR lower(p.email) = lower($2) OR p.id = $3::bigint)
      ORDER BY p.id LIMIT 20`, [appId, q, asId]);
  if (people.length === 0) return [];
  const { rows } = await db.query<EntryTraceRow>(
    `SELECT ${ENTRY_COLUMNS} FROM journey_entries e JOIN journeys j ON j.id = e.journey_id
      WHERE e.journey_id = $1 AND e.person_id = ANY($2::bigint[]) ORDER BY e.entered_at DESC, e.id DESC LIMIT 100`, [journeyId, people.map((p) => p.id)]);
  const traces = await withPassages(db, rows);
  return people.map((p) => ({ personId: p.id, customerId: p.customer_id, email: p.email, entries: traces.filter((t) => t.personId === p.id) }));
}
