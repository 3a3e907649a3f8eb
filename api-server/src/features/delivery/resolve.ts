/**
 * Runs of a message version and their resolution into the outbox (migration 020).
 *
 * `play` starts the live run of the approved version (once per version: playing again after a
 * pause continues it), `test` a run to the app's test devices. A resolver (any worker process)
 * leases one run at a time and turns its target into outbox rows a page of people at a time,
 * ordered by person id: the page's rows and the run's cursor commit together, so a crash resumes
 * after the last committed page, a page resolved twice writes nothing twice (the rows' unique
 * idempotency keys), and the audience is never in memory. Sending starts as soon as the first page
 * is in; when the last page is written the message moves Processing → Ready → Sending.
 */
import { abTestOf, holdsBack, type MessageDraft, type MessageOrigin } from '@gd/shared';
import { RESOLVING_STATUSES, afterSystemEvent, type CommunicationStatus, type SystemEvent } from '@gd/shared/message/lifecycle';
import { tx, type Db, type DbClient, type Queryable } from '../../db/pool.ts';
import { isUuid } from '../../http/validate.ts';
import type { LiveDocReader } from '../documents/liveDocs.ts';
import { recordEvent, setStatus } from '../messages/repository.ts';
import { audienceTarget, segmentTarget, testDevicesTarget, type TargetSql } from '../messageWhatIf/whatIf.ts';
import { compileFor, readSegmentDocument } from '../segments/definition.ts';
import * as segments from '../segments/repository.ts';
import { IN_APP_ADDRESS, bucketOf, channelOfVariant, idempotencyKey, inAppExpiry, inTestPortion, languageFor, standingKey, variantFor } from './plan.ts';
import { earliestSendAt, scheduleOfRun, sendTimeFor, zoneOf } from './timing.ts';

/** People per page: large enough that per-statement costs fade (5,000: 16% faster than 1,000), small enough to stay a short transaction. */
export const RESOLVE_PAGE = 5000;
/** How long a resolver holds a run between pages (DELIVERY_LEASE_SECONDS). */
export const RESOLVE_LEASE_SECONDS = 30;

export interface SendRun {
  id: string; account_id: string; app_id: string; message_id: string; version: number | null; kind: 'live' | 'test' | 'winner' | 'journey' | 'rule';
  /** A winner run's live run (migration 024), whose draw decides who was held back. */
  parent_id: string | null;
  origin: MessageOrigin; state: 'resolving' | 'sending' | 'finished'; cursor: string; resolved: number; definition: MessageDraft;
  /** A recurring schedule's occurrence this run sends (0: the first, and every other schedule's one run). */
  occurrence: number;
}

/**
 * The live run of the approved version (play): created once; playing a paused message again finds
 * it and the pipeline continues where it stopped. `notBefore`: the schedule's first send anywhere.
 */
export async function startLiveRun(db: Queryable, m: { accountId: string; appId: string; messageId: string; version: number; origin: MessageOrigin; userId: string; appTimeZone: string; now?: Date }): Promise<void> {
  const { rows } = await db.query<{ definition: MessageDraft }>('SELECT definition FROM message_versions WHERE message_id = $1 AND version = $2', [m.messageId, m.version]);
  const definition = rows[0]?.definition;
  if (!definition) throw new Error(`message ${m.messageId} has no version ${m.version}`);
  const notBefore = earliestSendAt(definition.schedule, m.appTimeZone, m.now ?? new Date());
  await db.query(
    `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, not_before, created_by)
     VALUES ($1, $2, $3, $4, $5, 'live', $6, $7, $8) ON CONFLICT (message_id, version, occurrence) WHERE kind = 'live' DO NOTHING`,
    [m.accountId, m.appId, m.messageId, m.version, definition, m.origin, notBefore, m.userId]);
}

/** A test run to the app's test devices, now, of `definition` (the approved version, or the draft being tested). */
export async function startTestRun(db: Queryable, m: { accountId: string; appId: string; messageId: string; version: number | null; definition: MessageDraft; origin: MessageOrigin; userId: string }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, created_by) VALUES ($1, $2, $3, $4, $5, 'test', $6, $7) RETURNING id`,
    [m.accountId, m.appId, m.messageId, m.version, m.definition, m.origin, m.userId]);
  const row = rows[0];
  if (!row) throw new Error('test run not created');
  return row.id;
}

/** Moves the message by a pipeline event when the lifecycle allows it from where it is (history: no actor). */
export async function applySystemEvent(db: Queryable, messageId: string, events: readonly SystemEvent[], ctx: { staysLive?: boolean } = {}): Promise<void> {
  const { rows } = await db.query<{ status: CommunicationStatus }>('SELECT status FROM messages WHERE id = $1 FOR UPDATE', [messageId]);
  const from = rows[0]?.status;
  if (!from) return;
  let status = from;
  for (const event of events) {
    const to = afterSystemEvent(status, event, ctx);
    if (!to || to === status) continue;
    // Each move in the history (Processing → Ready → Sending), without an actor: the pipeline made it.
    await recordEvent(db, { messageId, kind: 'status', actorId: null, from: status, to });
    status = to;
  }
  if (status !== from) await setStatus(db, messageId, status);
}

/** The run's target as SQL over `people p` ($1 the app), or null when it names nobody any more. */
async function targetOf(db: Queryable, liveDocs: LiveDocReader | undefined, run: SendRun, definition: MessageDraft): Promise<TargetSql | null> {
  if (run.kind === 'test') return testDevicesTarget(run.app_id);
  const target = definition.target;
  switch (target.kind) {
    case 'none':
      return null;
    case 'testDevices':
      return testDevicesTarget(run.app_id);
    case 'audience': {
      const row = isUuid(target.id) ? await segments.findAudience(db, run.app_id, target.id) : undefined;
      return row ? audienceTarget(run.app_id, row.id) : null;
    }
    case 'segment': {
      const row = isUuid(target.id) ? await segments.findSegment(db, run.app_id, target.id) : undefined;
      if (!row) return null;
      const compiled = await compileFor(db, await readSegmentDocument(db, liveDocs, row.doc_name), { appId: run.app_id, requireConditions: false });
      return compiled.ok ? segmentTarget(compiled.value) : null;
    }
  }
}

export interface PagePerson { id: string; email: string | null; time_zone: string | null; language: string | null }

/** Leases the oldest run that has people left to resolve (its time reached, its message running). */
async function claimRun(db: Queryable, workerId: string, now: Date, leaseSeconds: number): Promise<SendRun | undefined> {
  const { rows } = await db.query<SendRun>(
    `UPDATE message_sends SET locked_by = $1, locked_until = now() + make_interval(secs => $2)
      WHERE id = (SELECT s.id FROM message_sends s JOIN messages m ON m.id = s.message_id
                   WHERE s.state = 'resolving' AND s.not_before <= $3 AND (s.locked_until IS NULL OR s.locked_until < now())
                     AND (s.kind = 'test' OR m.status = ANY($4::text[]))
                   ORDER BY s.created_at LIMIT 1 FOR UPDATE OF s SKIP LOCKED)
      RETURNING id, account_id, app_id, message_id, version, kind, origin, state, cursor::text, resolved, definition, parent_id, occurrence`,
    [workerId, leaseSeconds, now, RESOLVING_STATUSES]);
  return rows[0];
}

/**
 * One page of one run: leases a run, writes its next page of people into the outbox with the
 * cursor, and finishes the resolution after the last page. False when no run had work.
 */
export async function resolveNextPage(deps: { db: Db; liveDocs?: LiveDocReader | undefined }, workerId: string, opts: { pageSize?: number; now?: () => Date; leaseSeconds?: number } = {}): Promise<boolean> {
  const now = opts.now?.() ?? new Date();
  const leaseSeconds = opts.leaseSeconds ?? RESOLVE_LEASE_SECONDS;
  const run = await claimRun(deps.db, workerId, now, leaseSeconds);
  if (!run) return false;
  const definition = run.definition;
  const { appZone, target } = await runTarget(deps, run);
  const pageSize = opts.pageSize ?? RESOLVE_PAGE;
  await tx(deps.db, async (client) => {
    // The message reached its time (first page only: later pages leave the message row alone, so a
    // pause never waits for a page): Scheduled → Processing, or a recurring message's next occurrence: Active → Processing.
    if (run.kind !== 'test' && run.cursor === '0') await applySystemEvent(client, run.message_id, ['scheduleReached', 'nextOccurrence']);
    const people = target ? await pageOf(client, target, run.cursor, pageSize) : [];
    const { included, heldBack } = testPortionOf(run, definition, people);
    const { written } = await writePage(client, run, definition, included, appZone, now);
    const last = people.at(-1)?.id ?? run.cursor;
    const done = people.length < pageSize;
    // The lease ends with the page: the next page goes to whichever worker claims the run next.
    const { rowCount } = await client.query(
      `UPDATE message_sends SET cursor = $3, resolved = resolved + $4, held_back = held_back + $6, state = CASE WHEN $5 THEN 'sending' ELSE state END,
              resolved_at = CASE WHEN $5 THEN now() ELSE resolved_at END, locked_by = NULL, locked_until = NULL
        WHERE id = $1 AND locked_by = $2 AND state = 'resolving'`,
      [run.id, workerId, last, written, done, heldBack]);
    // Another worker took the run over (this one stalled past its lease): its page wins.
    if (rowCount !== 1) throw new LeaseLost();
    if (done && run.kind !== 'test') await applySystemEvent(client, run.message_id, ['processed', 'sendStarted']);
  }).catch((error: unknown) => {
    if (!(error instanceof LeaseLost)) throw error;
  });
  return true;
}

class LeaseLost extends Error {}

/**
 * The run's target and app zone, worked out once per run in this process (a segment's compilation
 * reads its document and the app's catalogue: once, not for each of a million-person run's 200
 * pages). A worker that takes a run over works them out again, from the segment as it is then.
 */
const targets = new Map<string, Promise<{ appZone: string; target: TargetSql | null }>>();
function runTarget(deps: { db: Db; liveDocs?: LiveDocReader | undefined }, run: SendRun): Promise<{ appZone: string; target: TargetSql | null }> {
  let found = targets.get(run.id);
  if (!found) {
    found = (async () => ({
      appZone: (await deps.db.query<{ timezone: string }>('SELECT timezone FROM apps WHERE id = $1', [run.app_id])).rows[0]?.timezone ?? 'UTC',
      target: await targetOf(deps.db, deps.liveDocs, run, run.definition),
    }))();
    found.catch(() => targets.delete(run.id));
    if (targets.size >= 100) targets.delete(targets.keys().next().value as string);
    targets.set(run.id, found);
  }
  return found;
}

/**
 * An A/B test's hold-out (shared message/abTest.ts): a live run writes only the people of its test
 * portion and counts the others; a winner run writes only those others (its definition holds only
 * the winning variant). Every other run writes everyone.
 */
function testPortionOf<P extends { id: string }>(run: Pick<SendRun, 'id' | 'kind' | 'parent_id'>, definition: MessageDraft, people: readonly P[]): { included: readonly P[]; heldBack: number } {
  if (!holdsBack(definition) || run.kind === 'test') return { included: people, heldBack: 0 };
  const { testPercent } = abTestOf(definition);
  const liveRunId = run.kind === 'winner' ? run.parent_id : run.id;
  if (!liveRunId) throw new Error(`winner run ${run.id} has no live run`);
  const inPortion = people.filter((p) => inTestPortion(liveRunId, p.id, testPercent) === (run.kind === 'live'));
  return { included: inPortion, heldBack: run.kind === 'live' ? people.length - inPortion.length : 0 };
}

async function pageOf(db: DbClient, target: TargetSql, cursor: string, size: number): Promise<PagePerson[]> {
  if (target.audienceId) {
    // An audience's members in person-id order from the cursor: a range of its primary key, so a
    // page costs the same at the millionth member as at the first (the generic `p.id IN (members)`
    // would hash every member for each page).
    const { rows } = await db.query<PagePerson>(
      `SELECT p.id::text, p.email, p.time_zone, p.attributes->>'language' AS language
         FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id
        WHERE m.app_id = $1::uuid AND m.audience_id = $2::uuid AND m.person_id > $3::bigint AND p.merged_into IS NULL
        ORDER BY m.person_id LIMIT $4`,
      [target.params[0], target.audienceId, cursor, size]);
    return rows;
  }
  const n = target.params.length;
  const { rows } = await db.query<PagePerson>(
    `SELECT p.id::text, p.email, p.time_zone, p.attributes->>'language' AS language
       FROM people p WHERE ${target.where} AND p.id > $${n + 1}::bigint ORDER BY p.id LIMIT $${n + 2}`,
    [...target.params, cursor, size]);
  return rows;
}

/**
 * What a standing run (journeys and rules, enqueue.ts) adds to each person's rows: its own
 * idempotency key (an address's rows get `<key>:<channel>:<address hash>`) and the journey entry,
 * journey and step the rows answer.
 */
export interface PageExtras {
  keyOf(personId: string): string;
  journeyOf?(personId: string): { entryId: string | null; journeyId: string | null; stepId: string | null };
}

/**
 * The page's outbox rows (one per person, channel address and variant); answers how many were new,
 * and (for standing runs) which people had an address and which got a new row.
 */
export async function writePage(db: DbClient, run: Pick<SendRun, 'id' | 'app_id' | 'message_id' | 'kind' | 'occurrence'>, definition: MessageDraft, people: readonly PagePerson[], appZone: string, now: Date, extras?: PageExtras): Promise<{ written: number; addressed: Set<string>; inserted: Set<string> }> {
  const none = { written: 0, addressed: new Set<string>(), inserted: new Set<string>() };
  if (people.length === 0) return none;
  // Only the addresses the message's channels use are read.
  const channels = new Set(definition.variants.map((v) => channelOfVariant(definition, v)));
  const suppressed = new Set(channels.has('email') ? (await db.query<{ email: string }>(
    `SELECT email FROM email_suppressions WHERE app_id = $1 AND email = ANY($2::text[])`,
    [run.app_id, people.map((p) => (p.email ?? '').toLowerCase()).filter(Boolean)])).rows.map((r) => r.email) : []);
  const tokens = new Map<string, { token: string; os: string | null }[]>();
  const devices = channels.has('push') ? (await db.query<{ person_id: string; push_token: string; os: string | null }>(
    // A browser's subscription (migration 025) goes out as web push: platform 'web'.
    `SELECT person_id::text, push_token, CASE WHEN web_push->>'endpoint' = push_token THEN 'web' ELSE os END AS os FROM devices WHERE app_id = $1 AND person_id = ANY($2::bigint[]) AND push_token <> '' AND push_enabled IS TRUE ORDER BY id`,
    [run.app_id, people.map((p) => p.id)])).rows : [];
  for (const d of devices) tokens.set(d.person_id, [...(tokens.get(d.person_id) ?? []), { token: d.push_token, os: d.os }]);
  const zones = new Map<string | null, { zone: string; runAt: Date }>();
  const cols = { person: [] as string[], channel: [] as string[], address: [] as string[], platform: [] as (string | null)[], variant: [] as string[], language: [] as string[], zone: [] as string[], key: [] as string[], runAt: [] as Date[], expires: [] as (Date | null)[],
    entry: [] as (string | null)[], journey: [] as (string | null)[], step: [] as (string | null)[] };
  const addressed = new Set<string>();
  for (const p of people) {
    const variant = variantFor(definition.variants, bucketOf(run.id, p.id));
    const channel = channelOfVariant(definition, variant);
    if (!channel) continue;
    const email = (p.email ?? '').trim().toLowerCase();
    const addresses = channel === 'email' ? (email && !suppressed.has(email) ? [{ token: email, os: null }] : [])
      // In-app rows wait for the person's SDK to fetch them (sdkMessages/eligibility.ts): one per person.
      : channel === 'inApp' ? [{ token: IN_APP_ADDRESS, os: null }]
        : (tokens.get(p.id) ?? []);
    // The zone and the send time depend on the person's zone only: worked out once per zone of the page.
    let timing = zones.get(p.time_zone);
    if (!timing) {
      timing = {
        zone: zoneOf(p.time_zone, appZone),
        // Test sends go at once and are not held by quiet hours.
        runAt: run.kind === 'test' ? now : sendTimeFor({ schedule: scheduleOfRun(definition.schedule, run.occurrence), delivery: definition.delivery, personZone: p.time_zone, appZone, now }),
      };
      zones.set(p.time_zone, timing);
    }
    const { zone, runAt } = timing;
    const journey = extras?.journeyOf?.(p.id);
    for (const { token: address, os } of addresses) {
      addressed.add(p.id);
      cols.person.push(p.id); cols.channel.push(channel); cols.address.push(address); cols.platform.push(os); cols.variant.push(variant.id);
      cols.language.push(languageFor(definition, p.language)); cols.zone.push(zone); cols.runAt.push(runAt);
      cols.key.push(extras ? standingKey(extras.keyOf(p.id), channel, address) : idempotencyKey(run.id, p.id, channel, address));
      cols.expires.push(channel === 'inApp' ? inAppExpiry(variant, runAt, run.kind === 'test') : null);
      cols.entry.push(journey?.entryId ?? null); cols.journey.push(journey?.journeyId ?? null); cols.step.push(journey?.stepId ?? null);
    }
  }
  if (cols.person.length === 0) return { ...none, addressed };
  const { rows: inserted } = await db.query<{ person_id: string }>(
    `INSERT INTO message_outbox (send_id, app_id, message_id, person_id, channel, address, platform, variant_id, language, time_zone, test, idempotency_key, run_at, expires_at,
                                 journey_entry_id, journey_id, step_id)
     SELECT $1, $2, $3, x.person, x.channel, x.address, x.platform, x.variant, x.language, x.zone, $4, x.key, x.run_at, x.expires_at, x.entry, x.journey, x.step
       FROM unnest($5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[], $14::timestamptz[],
                   $15::bigint[], $16::uuid[], $17::text[])
            AS x(person, channel, address, platform, variant, language, zone, key, run_at, expires_at, entry, journey, step)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING person_id::text`,
    [run.id, run.app_id, run.message_id, run.kind === 'test', cols.person, cols.channel, cols.address, cols.platform, cols.variant, cols.language, cols.zone, cols.key, cols.runAt, cols.expires,
      cols.entry, cols.journey, cols.step]);
  return { written: inserted.length, addressed, inserted: new Set(inserted.map((r) => r.person_id)) };
}
