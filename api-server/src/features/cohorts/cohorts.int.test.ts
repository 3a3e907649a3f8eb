/**
 * Cohorts against real Postgres through the real server: the retention the API answers (from the
 * person-month bitmaps, or from the events table with filters and property breakdowns) equals the
 * reference computation of shared/src/analytics/retention.ts over the same events, read back and
 * turned into local days in JavaScript; a time zone edge with a known answer; saving a cell as an
 * audience (its members are the cell's people); refusals.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CohortQuery, ErrorCode, computeRetention, matchesStep, type CohortAnswer, type CohortQueryInput, type PersonActivity, type PersonAttribute,
} from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { runCohort } from './compute.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000' });
});
afterAll(async () => {
  await api.stop();
});

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TODAY_UTC = Math.floor(Date.now() / DAY) * DAY;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Seeded { appId: string; timezone: string; client: TestClient; appKey: string }

/** 60 people, events over the last 100 days (hours spread so some fall across local midnight). */
async function seed(timezone: string, seedValue: number): Promise<Seeded> {
  const { client } = await registerAccount(api);
  const app = await createTestApp(client, { timezone });
  const rnd = random(seedValue);
  const countries = ['ES', 'FR', 'MX', undefined];
  const plans = ['a', 'b', '', undefined];
  for (let person = 0; person < 60; person += 1) {
    const country = countries[person % countries.length];
    const device = { id: randomUUID(), os: 'Android', appVersion: '1.0', ...(country ? { country } : {}) };
    const startDay = Math.floor(rnd() * 100);
    const events = [];
    for (let i = 0; i < 8; i += 1) {
      const daysAgo = Math.max(0, 100 - startDay - Math.floor(rnd() * rnd() * 100));
      const time = TODAY_UTC - daysAgo * DAY + Math.floor(rnd() * 24) * HOUR + Math.floor(rnd() * 60) * 60_000;
      if (time > Date.now()) continue;
      const name = i === 0 || rnd() < 0.3 ? 'open' : rnd() < 0.5 ? 'buy' : 'view';
      const plan = plans[Math.floor(rnd() * plans.length)];
      events.push({ id: randomUUID(), name, time: new Date(time).toISOString(), properties: { ...(plan === undefined ? {} : { plan }), amount: Math.floor(rnd() * 100) } });
    }
    const answer = await ingest(api, app.appKey, 'ingestBatch', { device, events });
    expect(answer.body.status).toBe('OK');
  }
  return { appId: app.id, timezone, client, appKey: app.appKey };
}

interface EventRow { person_id: string; event_time: Date; name: string; properties: Record<string, unknown> }

/** The reference answer: events read back, local days computed in JavaScript, the pure rules. */
async function reference(s: Seeded, q: CohortQueryInput & { startDay: string; endDay: string }, today: string) {
  const { rows } = await api.deps.db.query<EventRow>(`SELECT person_id::text, event_time, name, properties FROM events WHERE app_id = $1 ORDER BY event_time`, [s.appId]);
  const people = await api.deps.db.query<Record<PersonAttribute | 'id', string | null>>(`SELECT id::text, country FROM people WHERE app_id = $1`, [s.appId]);
  const country = new Map(people.rows.map((r) => [r.id, r.country]));
  const local = new Intl.DateTimeFormat('en-CA', { timeZone: s.timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const start = { event: q.start.event, filters: q.start.filters ?? [] };
  const ret = q.return ? { event: q.return.event, filters: q.return.filters ?? [] } : null;
  const byPerson = new Map<string, { starts: { day: string; key: string | null }[]; returns: string[] }>();
  for (const e of rows) {
    let person = byPerson.get(e.person_id);
    if (!person) {
      person = { starts: [], returns: [] };
      byPerson.set(e.person_id, person);
    }
    const day = local.format(e.event_time);
    if (matchesStep(e.name, e.properties, start)) {
      const key = q.breakdown?.kind === 'property' ? (e.properties[q.breakdown.property] as string | undefined) ?? null
        : q.breakdown?.kind === 'attribute' ? country.get(e.person_id) ?? null : null;
      person.starts.push({ day, key });
    }
    if (ret === null || matchesStep(e.name, e.properties, ret)) person.returns.push(day);
  }
  return computeRetention([...byPerson.values()] as PersonActivity[], {
    range: { startDay: q.startDay, endDay: q.endDay }, period: q.period ?? 'week', periods: q.periods, mode: q.mode ?? 'first',
    returnOn: q.returnOn ?? 'on', breakdown: q.breakdown !== undefined, today,
  });
}

const run = async (s: Seeded, q: CohortQueryInput) => (await s.client.ok<CohortAnswer & { status: string }>('cohort', q, { appId: s.appId }));

describe('retention from the API equals the reference', () => {
  let ny: Seeded;
  beforeAll(async () => {
    ny = await seed('America/New_York', 7);
  });

  const range = () => ({ startDay: dayOf(TODAY_UTC - 90 * DAY), endDay: dayOf(TODAY_UTC) });
  const cases: [string, Omit<CohortQueryInput, 'startDay' | 'endDay'>][] = [
    ['weeks, first, on, any event (bitmaps)', { start: { event: 'open' }, return: null, period: 'week', periods: 8 }],
    ['weeks, first, on or after', { start: { event: 'open' }, return: { event: 'buy' }, period: 'week', returnOn: 'onOrAfter', periods: 10 }],
    ['days, recurring, on', { start: { event: 'open' }, return: { event: 'view' }, period: 'day', mode: 'recurring', periods: 20 }],
    ['months, recurring, on or after', { start: { event: 'buy' }, return: null, period: 'month', mode: 'recurring', returnOn: 'onOrAfter', periods: 3 }],
    ['a country breakdown', { start: { event: 'open' }, return: null, period: 'week', breakdown: { kind: 'attribute', field: 'country' } }],
    ['start filters and a property breakdown (events)', {
      start: { event: 'open', filters: [{ property: 'amount', op: 'gt', value: 30 }] }, return: { event: 'buy', filters: [{ property: 'plan', op: 'neq', value: 'a' }] },
      period: 'week', mode: 'recurring', breakdown: { kind: 'property', property: 'plan' },
    }],
    ['first time with a filter, on or after (events)', {
      start: { event: 'open', filters: [{ property: 'plan', op: 'set' }] }, return: null, period: 'day', returnOn: 'onOrAfter', periods: 30,
    }],
  ];
  it.each(cases)('%s', async (_label, q) => {
    const query = { ...q, ...range() };
    const answer = await run(ny, query);
    const expected = await reference(ny, query, answer.today);
    expect(answer.size).toBeGreaterThan(0);
    expect(answer.source).toBe(q.breakdown?.kind === 'property' || (q.start.filters?.length ?? 0) > 0 || (q.return?.filters?.length ?? 0) > 0 ? 'events' : 'bitmaps');
    expect(answer.rows).toEqual(expected.rows);
    expect(answer.curve).toEqual(expected.curve);
    expect(answer.segments).toEqual(expected.segments);
  });

  it.each(cases.filter(([label]) => label.includes('bitmaps') || !label.includes('events')))('%s, its people counted in slices side by side', async (_label, q) => {
    // A large app's bitmap pass runs in slices of people ids in parallel workers; here a 60-person
    // app is sliced too, and answers the same as one pass and the reference.
    const query = CohortQuery.parse({ ...q, ...range() });
    const sliced = await runCohort(api.deps.db, { id: ny.appId, timezone: ny.timezone }, query, { sliceFrom: 0 });
    const whole = await runCohort(api.deps.db, { id: ny.appId, timezone: ny.timezone }, query, { sliceFrom: Number.MAX_SAFE_INTEGER });
    const expected = await reference(ny, { ...q, ...range() }, sliced.today);
    expect(sliced.source).toBe('bitmaps');
    expect(sliced.size).toBeGreaterThan(0);
    expect(sliced).toEqual(whole);
    expect(sliced.rows).toEqual(expected.rows);
    expect(sliced.segments).toEqual(expected.segments);
  });

  it('saves a cell as an audience of exactly its people', async () => {
    const query = { start: { event: 'open' }, return: null, period: 'week' as const, periods: 8, ...range() };
    const answer = await run(ny, query);
    const rowIndex = answer.rows.findIndex((r) => (r.counts[1] ?? 0) > 0);
    const row = answer.rows[rowIndex]!;
    const saved = await ny.client.ok<{ audience: { id: string; personCount: number; status: string } }>('saveCohortAudience', { name: `Week ${row.cohort}`, query, cohort: row.cohort, period: 1 }, { appId: ny.appId });
    expect(saved.audience.personCount).toBe(row.counts[1]);
    expect(saved.audience.status).toBe('ready');
    const whole = await ny.client.ok<{ audience: { personCount: number } }>('saveCohortAudience', { name: `Cohort ${row.cohort}`, query, cohort: row.cohort, period: 0 }, { appId: ny.appId });
    expect(whole.audience.personCount).toBe(row.size);
    const stored = await api.deps.db.query(`SELECT source_config FROM audiences WHERE app_id = $1 AND id = $2`, [ny.appId, saved.audience.id]);
    expect(stored.rows[0]).toMatchObject({ source_config: { from: 'cohort', cohort: row.cohort, period: 1 } });
    // On or after, every time, by day: the cell's count again (the bitmap path's members query).
    const daily = { start: { event: 'open' }, return: null, period: 'day' as const, periods: 10, mode: 'recurring' as const, returnOn: 'onOrAfter' as const, ...range() };
    const dailyAnswer = await run(ny, daily);
    const cell = dailyAnswer.rows.find((r) => (r.counts[3] ?? 0) > 0)!;
    const later = await ny.client.ok<{ audience: { personCount: number } }>('saveCohortAudience', { name: `Daily ${cell.cohort}`, query: daily, cohort: cell.cohort, period: 3 }, { appId: ny.appId });
    expect(later.audience.personCount).toBe(cell.counts[3]);
    // With a filter (the events path's members query).
    const filtered = { ...query, start: { event: 'open', filters: [{ property: 'amount', op: 'lt' as const, value: 70 }] } };
    const filteredRow = (await run(ny, filtered)).rows.find((r) => (r.counts[1] ?? 0) > 0)!;
    const viaEvents = await ny.client.ok<{ audience: { personCount: number } }>('saveCohortAudience', { name: `Filtered ${filteredRow.cohort}`, query: filtered, cohort: filteredRow.cohort, period: 1 }, { appId: ny.appId });
    expect(viaEvents.audience.personCount).toBe(filteredRow.counts[1]);
    // The same name again: refused, nothing written.
    const again = await ny.client.call('saveCohortAudience', { name: `Week ${row.cohort}`, query, cohort: row.cohort, period: 1 }, { appId: ny.appId });
    expect(again.body.code).toBe(ErrorCode.NAME_DUPLICATED);
  });

  it('refuses bad queries and cells outside the table with 10001, and another account\'s app like an unknown one', async () => {
    const query = { start: { event: 'open' }, return: null, period: 'week' as const, periods: 4, ...range() };
    const p = { appId: ny.appId };
    expect((await ny.client.call('cohort', { ...query, periods: 99 }, p)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await ny.client.call('cohort', { ...query, period: 'year' }, p)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await ny.client.call('cohort', { ...query, startDay: query.endDay, endDay: query.startDay }, p)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await ny.client.call('cohort', { ...query, start: { event: 'open', filters: [{ property: 'x', op: 'gt', value: 'abc' }] } }, p)).body.code).toBe(ErrorCode.MANDATORY);
    const answer = await run(ny, query);
    const last = answer.rows.at(-1)!;
    const before = await api.deps.db.query(`SELECT count(*)::int AS n FROM audiences WHERE app_id = $1`, [ny.appId]);
    const notACohort = await ny.client.call('saveCohortAudience', { name: 'x1', query, cohort: query.startDay === answer.range.startDay ? dayOf(Date.parse(query.startDay) + DAY) : query.startDay, period: 1 }, p);
    expect(notACohort.body.code).toBe(ErrorCode.MANDATORY);
    const future = await ny.client.call('saveCohortAudience', { name: 'x2', query, cohort: last.cohort, period: 2 }, p);
    expect(future.body.code).toBe(ErrorCode.MANDATORY);
    const after = await api.deps.db.query(`SELECT count(*)::int AS n FROM audiences WHERE app_id = $1`, [ny.appId]);
    expect(after.rows[0]).toEqual(before.rows[0]);
    const stranger = await registerAccount(api);
    expect((await stranger.client.call('cohort', query, p)).body.code).toBe(ErrorCode.NO_PERMISSION);
  });
});

describe('time zone edge', () => {
  it('counts a late-evening UTC event on the next local day in Tokyo', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client, { timezone: 'Asia/Tokyo' });
    // 20:00 UTC is 05:00 the next day in Tokyo. Start 10 UTC days ago at 20:00, return the next UTC day at 10:00 (19:00 Tokyo, the same local day).
    const start = TODAY_UTC - 10 * DAY + 20 * HOUR;
    const sameLocalDay = TODAY_UTC - 9 * DAY + 10 * HOUR;
    const nextLocalDay = TODAY_UTC - 9 * DAY + 16 * HOUR; // 01:00 Tokyo, the local day after
    const device = { id: randomUUID(), os: 'Android', appVersion: '1.0' };
    const ev = (name: string, t: number) => ({ id: randomUUID(), name, time: new Date(t).toISOString(), properties: {} });
    expect((await ingest(api, app.appKey, 'ingestBatch', { device, events: [ev('open', start), ev('buy', sameLocalDay), ev('buy', nextLocalDay)] })).body.status).toBe('OK');
    const localStart = dayOf(start + 9 * HOUR);
    const answer = await client.ok<CohortAnswer>('cohort', {
      start: { event: 'open' }, return: { event: 'buy' }, period: 'day', periods: 3, startDay: localStart, endDay: localStart,
    }, { appId: app.id });
    expect(answer.rows).toHaveLength(1);
    expect(answer.rows[0]).toMatchObject({ cohort: localStart, size: 1, counts: [1, 1, 0, 0] });
  });
});
