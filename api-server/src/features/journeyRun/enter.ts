/**
 * How people enter launched versions (never a draft: entries always name a journey_versions row).
 *
 * - sourceEvents: the trigger inbox (migration 031) rows of consumer 'journeys' are taken FOR UPDATE
 *   SKIP LOCKED, acted on and deleted in one transaction (a crash puts them back). An event whose
 *   name is one of a live version's source event ids enters the person into that (live) version.
 *   The same transaction applies exit events (open entries entered at or before the event exit,
 *   their queued sends cancelled), goal events (conversion), and wakes waiting entries that may be
 *   waiting for the event (flowEvent) or for an interaction with their journey's messages.
 * - sourceAudience: journey_enrolments rows, a page of people per transaction ordered by person id
 *   with the cursor committed with the page's entries (like delivery/resolve.ts): at launch the
 *   audience's members then (or the step's own segment's people then); after a refresh or an
 *   import, the members added since the previous enrolment of that step (`added_at` in
 *   (added_after, added_until]). An enrolment of a version that is no longer the live one stops:
 *   new entries go to the new version.
 * - Re-entry and the entry key: repository.createEntries (per journey, person and key, across
 *   versions). The entry key's value is the event property settings.entryKey names (text; absent:
 *   ''), so one person may have one open entry per value; audience entries have no key.
 * - Goal: settings of the journey's live version; the event within windowSeconds after an entry
 *   began (the entry open or ended) converts it once, credited to its last message step.
 */
import type { Segment } from '@gd/shared';
import type { Logger } from 'pino';
import { tx, type Db, type DbClient, type Queryable } from '../../db/pool.ts';
import { cancelQueued } from '../delivery/enqueue.ts';
import { isValid, versionKey, type RunVersion, type VersionCache } from './definitions.ts';
import type { SegmentCache } from './facts.ts';
import * as repo from './repository.ts';

export const INBOX_BATCH = 500;
export const ENROL_PAGE = 5000;
const ENTRY_KEY_MAX = 200;

interface InboxRow {
  id: string; app_id: string; person_id: string; kind: 'event' | 'interaction'; name: string; at: Date;
  properties: Record<string, unknown>; journey_id: string | null; step_id: string | null; message_id: string | null;
}

export interface EnterContext { db: Db; log: Logger; now: () => Date; versions: VersionCache; segments: SegmentCache; appIds: readonly string[] | null }

interface AppJourney { id: string; accountId: string; live: RunVersion | null; running: RunVersion[] }

/** The live journeys of these apps with their live version and the earlier versions whose people may still be inside. */
export async function appJourneys(db: Queryable, versions: VersionCache, appIds: readonly string[]): Promise<Map<string, AppJourney[]>> {
  const live = await repo.liveJourneys(db, appIds);
  const open = await repo.earlierVersions(db, live);
  const keys = [...live.map((j) => ({ journeyId: j.id, version: j.live_version })), ...open.map((o) => ({ journeyId: o.journey_id, version: o.version }))];
  const loaded = await versions.load(db, keys);
  const byApp = new Map<string, AppJourney[]>();
  for (const j of live) {
    const liveVersion = loaded.get(versionKey(j.id, j.live_version));
    const running = [...new Set([j.live_version, ...open.filter((o) => o.journey_id === j.id).map((o) => o.version)])]
      .map((n) => loaded.get(versionKey(j.id, n))).filter(isValid);
    const list = byApp.get(j.app_id) ?? [];
    list.push({ id: j.id, accountId: j.account_id, live: isValid(liveVersion) ? liveVersion : null, running });
    byApp.set(j.app_id, list);
  }
  return byApp;
}

function entryKeyOf(v: RunVersion, properties: Record<string, unknown>): string {
  const key = v.settings.entryKey;
  if (!key) return '';
  const value = properties[key];
  if (value === null || value === undefined) return '';
  return (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, ENTRY_KEY_MAX);
}

/** One batch of the inbox; answers how many rows it took. */
const sendsMessage = (v: RunVersion, messageId: string) => v.journey.steps.some((st) => 'messageId' in st && st.messageId === messageId);

export async function processInbox(ctx: EnterContext, limit = INBOX_BATCH): Promise<number> {
  const now = ctx.now();
  return tx(ctx.db, async (client) => {
    const { rows } = await client.query<InboxRow>(
      `DELETE FROM trigger_inbox WHERE id IN (SELECT id FROM trigger_inbox WHERE consumer = 'journeys' AND ($2::uuid[] IS NULL OR app_id = ANY($2))
                                                ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id::text, app_id, person_id::text, kind, name, at, properties, journey_id, step_id, message_id`, [limit, ctx.appIds]);
    if (rows.length === 0) return 0;
    rows.sort((a, b) => Number(a.id) - Number(b.id));
    const byApp = await appJourneys(client, ctx.versions, [...new Set(rows.map((r) => r.app_id))]);
    const tally = new repo.Tally();
    const passages: repo.PassageRow[] = [];
    const exited: string[] = [];
    const wake = new Map<string, Set<string>>();
    const toWake = (journeyId: string, personId: string) => wake.set(journeyId, (wake.get(journeyId) ?? new Set()).add(personId));
    // What changes existing entries first (exits, conversions, wakes), then new entries.
    for (const r of rows) {
      const journeys = byApp.get(r.app_id) ?? [];
      if (r.kind === 'interaction') {
        // The journey it names, or (reported with only its message, as push and in-app SDKs do) the
        // journeys whose running versions send that message (facts.ts matches it to the step).
        const answered = r.journey_id ? journeys.filter((x) => x.id === r.journey_id)
          : journeys.filter((x) => r.message_id !== null && x.running.some((v) => sendsMessage(v, r.message_id ?? '')));
        for (const j of answered) toWake(j.id, r.person_id);
        continue;
      }
      for (const j of journeys) {
        const exitVersions = j.running.filter((v) => v.settings.exit.eventIds.includes(r.name)).map((v) => v.version);
        if (exitVersions.length > 0) {
          const open = await client.query<{ id: string; step_id: string; version: number }>(
            `UPDATE journey_entries SET status = 'exited', end_reason = 'exit_event', ended_at = $4, wake_at = NULL, waiting_for = NULL
              WHERE journey_id = $1 AND person_id = $2 AND version = ANY($3::int[]) AND status IN ${repo.OPEN} AND entered_at <= $5
              RETURNING id::text, step_id, version`,
            [j.id, r.person_id, exitVersions, now, r.at]);
          for (const e of open.rows) {
            exited.push(e.id);
            tally.add(j.id, e.version, repo.TOTAL_EXITED, 'cumulative');
            passages.push({ entryId: e.id, stepId: e.step_id, pathId: null, at: now, reason: 'exit_event', detail: r.name, effectKind: null, effectStatus: null, effectReason: null });
          }
        }
        const goal = j.live?.settings.goal;
        if (goal?.eventId === r.name) {
          for (const c of await repo.convert(client, j.id, r.person_id, r.at, goal.windowSeconds)) {
            tally.add(j.id, c.version, repo.TOTAL_CONVERTED, 'cumulative');
            if (c.conversion_step_id) tally.add(j.id, c.version, c.conversion_step_id, 'conversions');
          }
        }
        if (j.running.some((v) => v.flowEventIds.includes(r.name))) toWake(j.id, r.person_id);
      }
    }
    for (const [journeyId, people] of wake) await repo.wakeEntries(client, [journeyId], [...people], now);
    // New entries, per journey (a person once per key and batch: the first event wins).
    const candidates = new Map<string, { app: string; v: RunVersion; list: Map<string, repo.Candidate> }>();
    for (const r of rows) {
      if (r.kind !== 'event') continue;
      for (const j of byApp.get(r.app_id) ?? []) {
        const v = j.live;
        if (v?.entry?.type !== 'sourceEvents' || !v.entry.eventIds.includes(r.name)) continue;
        const c = candidates.get(j.id) ?? { app: r.app_id, v, list: new Map<string, repo.Candidate>() };
        const key = entryKeyOf(v, r.properties);
        if (!c.list.has(`${r.person_id}\u0000${key}`)) c.list.set(`${r.person_id}\u0000${key}`, { personId: r.person_id, entryKey: key });
        candidates.set(j.id, c);
      }
    }
    for (const { app, v, list } of candidates.values()) {
      if (!v.entry) continue;
      const made = await repo.createEntries(client, {
        appId: app, journeyId: v.journeyId, version: v.version, sourceStepId: v.entry.id, mode: v.settings.reentry.mode,
        periodSeconds: v.settings.reentry.periodSeconds, now, candidates: [...list.values()],
      });
      if (made.length > 0) tally.add(v.journeyId, v.version, v.entry.id, 'cumulative', made.length);
    }
    await repo.insertPassages(client, passages);
    await repo.addCounts(client, tally.map);
    if (exited.length > 0) await cancelQueued(client, exited, 'journey_exit');
    return rows.length;
  });
}

interface EnrolmentRow {
  id: string; app_id: string; journey_id: string; version: number; step_id: string; audience_id: string | null;
  /** Text, not Date: a JavaScript Date would drop the microseconds the members' added_at are compared with. */
  added_after: string | null; added_until: string | null; cursor: string; entered: number;
}

/** One page of the oldest open enrolment; false when there was none. */
export async function enrolNextPage(ctx: EnterContext, pageSize = ENROL_PAGE): Promise<boolean> {
  const now = ctx.now();
  return tx(ctx.db, async (client) => {
    const { rows } = await client.query<EnrolmentRow>(
      `SELECT id::text, app_id, journey_id, version, step_id, audience_id, added_after::text, added_until::text, cursor::text, entered
         FROM journey_enrolments WHERE done_at IS NULL AND ($1::uuid[] IS NULL OR app_id = ANY($1)) ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`, [ctx.appIds]);
    const en = rows[0];
    if (!en) return false;
    const finish = (error: string | null, cursor = en.cursor, entered = 0) => client.query(
      `UPDATE journey_enrolments SET done_at = $2, error = $3, cursor = $4, entered = entered + $5 WHERE id = $1`, [en.id, now, error, cursor, entered]);
    const journey = (await repo.journeysOf(client, [en.journey_id])).get(en.journey_id);
    if (!journey || !repo.versionRuns(journey, en.version) || journey.live_version !== en.version) {
      await finish('superseded');
      return true;
    }
    const v = (await ctx.versions.load(client, [{ journeyId: en.journey_id, version: en.version }])).get(versionKey(en.journey_id, en.version));
    const step = isValid(v) ? v.steps.get(en.step_id) : undefined;
    if (!isValid(v) || step?.type !== 'sourceAudience') {
      await finish('not_an_audience_source');
      return true;
    }
    const people = await pageOf(client, ctx, en, step.segment, now, pageSize);
    if (people === null) {
      await finish('segment_invalid');
      return true;
    }
    const made = await repo.createEntries(client, {
      appId: en.app_id, journeyId: en.journey_id, version: en.version, sourceStepId: en.step_id, mode: v.settings.reentry.mode,
      periodSeconds: v.settings.reentry.periodSeconds, now, candidates: people.map((personId) => ({ personId, entryKey: '' })),
    });
    const tally = new repo.Tally();
    if (made.length > 0) tally.add(en.journey_id, en.version, en.step_id, 'cumulative', made.length);
    await repo.addCounts(client, tally.map);
    const cursor = people.at(-1) ?? en.cursor;
    if (people.length < pageSize) await finish(null, cursor, made.length);
    else await client.query(`UPDATE journey_enrolments SET cursor = $2, entered = entered + $3 WHERE id = $1`, [en.id, cursor, made.length]);
    return true;
  });
}

/** The next page of person ids of an enrolment (null: its segment does not compile). */
async function pageOf(client: DbClient, ctx: EnterContext, en: EnrolmentRow, segment: Segment | null, now: Date, size: number): Promise<string[] | null> {
  if (en.audience_id) {
    const { rows } = await client.query<{ id: string }>(
      `SELECT m.person_id::text AS id FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id
        WHERE m.app_id = $1 AND m.audience_id = $2 AND m.person_id > $3::bigint AND ($4::timestamptz IS NULL OR m.added_at > $4)
          AND ($5::timestamptz IS NULL OR m.added_at <= $5) AND p.merged_into IS NULL
        ORDER BY m.person_id LIMIT $6`,
      [en.app_id, en.audience_id, en.cursor, en.added_after, en.added_until, size]);
    return rows.map((r) => r.id);
  }
  if (!segment) return [];
  const compiled = await ctx.segments.compiled(ctx.db, ctx.log, en.app_id, `enrol:${en.id}`, segment, now);
  if (!compiled) return null;
  const n = compiled.params.length;
  const { rows } = await client.query<{ id: string }>(
    `SELECT p.id::text AS id FROM people p WHERE (${compiled.where}) AND p.id > $${n + 1}::bigint ORDER BY p.id LIMIT $${n + 2}`,
    [...compiled.params, en.cursor, size]);
  return rows.map((r) => r.id);
}

/**
 * Tells live journeys entered from `audienceId` (every audience when null) that it was refreshed:
 * an enrolment of the members added since the step's last enrolment, when the audience's last
 * refresh is newer. Idempotent (the same range is never enrolled twice); the engine also calls it
 * periodically, so a notification that failed is made up for. Answers how many enrolments it added.
 */
export async function notifyAudienceJourneys(db: Queryable, audienceId: string | null): Promise<number> {
  const { rowCount } = await db.query(
    `WITH latest AS (
       SELECT DISTINCT ON (e.journey_id, e.version, e.step_id) e.app_id, e.journey_id, e.version, e.step_id, e.audience_id, e.added_until
         FROM journey_enrolments e JOIN journeys j ON j.id = e.journey_id AND j.status = 'live' AND j.deleted_at IS NULL AND j.live_version = e.version
        WHERE e.audience_id IS NOT NULL AND ($1::uuid IS NULL OR e.audience_id = $1)
        ORDER BY e.journey_id, e.version, e.step_id, e.added_until DESC)
     INSERT INTO journey_enrolments (app_id, journey_id, version, step_id, audience_id, added_after, added_until)
     SELECT l.app_id, l.journey_id, l.version, l.step_id, l.audience_id, l.added_until, a.refreshed_at
       FROM latest l JOIN audiences a ON a.id = l.audience_id AND a.deleted_at IS NULL
      WHERE a.refreshed_at > l.added_until
     ON CONFLICT (journey_id, version, step_id, added_after) WHERE added_after IS NOT NULL DO NOTHING`,
    [audienceId]);
  return rowCount ?? 0;
}
