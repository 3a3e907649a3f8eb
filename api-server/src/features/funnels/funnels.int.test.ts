/**
 * Funnels through the real API on real Postgres: the SQL (repository.ts, migration 035) answers
 * what the reference (shared analytics/funnel.ts) answers on generated data fed through ingestion,
 * for random steps with filters, orders, windows, exclusions, breakdowns and attributions, in a
 * time zone where the range's days are not UTC days and people straddle both range edges; the
 * drill-down and the saved audience hold exactly the people the reference selects; refusals.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMPTY_SENTINEL, ErrorCode, FunnelQuery, OTHER_SENTINEL, conversions, evaluateFunnel, foldBreakdown, histogramBin, histogramEdges, lowerMedian, stepCounts,
  type FunnelAnswer, type FunnelEvent, type FunnelQueryInput, type FunnelSpec, type PersonOutcome,
} from '@gd/shared';
import { arbEvents, arbSpec } from '@gd/shared/analytics/funnelArbitraries';
import { setBasedApplies } from './repository.ts';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string; timezone: string };
let events: FunnelEvent[] = [];
/** person id of the reference (device index) -> the API's person id */
const personIds = new Map<string, string>();
const countries = ['ES', 'MX', 'AR'];

const TZ = 'America/New_York';
const DAY_MS = 86_400_000;
/** 2026-03-10 in New York: [04:00Z, 2026-03-11 04:00Z). */
const RANGE = { startDay: '2026-03-10', endDay: '2026-03-10' };
const FROM = Date.parse('2026-03-10T04:00:00Z'), TO = Date.parse('2026-03-11T04:00:00Z');

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: TZ });
  const generated = fc.sample(arbEvents(24, 40, 30), { seed: 1507, numRuns: 1 })[0]!;
  // Even people around the range start (02:30Z..05:30Z), odd ones around its end a day later.
  events = generated.map((e) => ({ ...e, time: e.time + 2.5 * 3_600_000 + (Number(e.personId) % 2 === 1 ? DAY_MS : 0) }));
  const byPerson = new Map<string, FunnelEvent[]>();
  for (const e of events) byPerson.set(e.personId, [...(byPerson.get(e.personId) ?? []), e]);
  for (const [person, list] of byPerson) {
    const device = `device-${person}-${randomUUID()}`;
    for (let i = 0; i < list.length; i += 50) {
      const answer = await ingest(api, app.appKey, 'ingestBatch', {
        device: { id: device, os: 'Android', country: countries[Number(person) % 3] },
        events: list.slice(i, i + 50).map((e) => ({ id: randomUUID(), name: e.name, time: new Date(e.time).toISOString(), properties: e.properties })),
      });
      expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
    }
    const { rows } = await api.deps.db.query<{ id: string }>('SELECT id::text FROM people WHERE app_id = $1 AND device_id = $2', [app.id, device]);
    personIds.set(person, rows[0]!.id);
  }
  const stored = await api.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE app_id = $1', [app.id]);
  expect(stored.rows[0]!.n).toBe(events.length);
}, 120_000);

afterAll(async () => {
  await api.stop();
});

const call = async (name: 'queryFunnel' | 'funnelPeople' | 'saveFunnelAudience', body: unknown, appId = app.id) => owner.client.call(name, body, { appId });

/** The API query of a generated spec, over the New York day. */
function queryOf(spec: FunnelSpec, extra: Partial<FunnelQueryInput> = {}): FunnelQueryInput {
  return {
    ...RANGE, timeGroup: 'hour', steps: [...spec.steps], order: spec.order, window: { value: spec.windowMs / 60_000, unit: 'minute' },
    exclusions: spec.exclusions.map((x) => ({ event: x.event, afterStep: x.afterStep })), attribution: 'first', compare: false, ...extra,
  };
}

/** The reference's answer figures for outcomes. */
function expected(outcomes: PersonOutcome[], n: number, windowSeconds: number) {
  const counts = stepCounts(outcomes, n);
  const done = outcomes.filter((o) => o.reached === n).map((o) => (o.end - o.start) / 1000);
  const edges = histogramEdges(windowSeconds);
  const histogram = edges.map((upTo, i) => ({ upTo, people: done.filter((d) => histogramBin(d, edges) === i).length }));
  return { counts, ...conversions(counts), median: lowerMedian(done), avg: done.length ? done.reduce((a, b) => a + b, 0) / done.length : null, histogram };
}

const specs = fc.sample(arbSpec, { seed: 4242, numRuns: 30 }).map((s) => ({ ...s, rangeFrom: FROM, rangeTo: TO }));

describe('the SQL answers what the reference answers', () => {
  it('on generated data: step counts, conversions, time to convert, histogram and conversion over time', async () => {
    let converted = 0;
    for (const spec of specs) {
      const answer = await call('queryFunnel', queryOf(spec));
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
      const got = answer.body as unknown as FunnelAnswer;
      const outcomes = evaluateFunnel(events, spec);
      const want = expected(outcomes, spec.steps.length, spec.windowMs / 1000);
      const context = JSON.stringify(spec);
      expect(got.total.counts, context).toEqual(want.counts);
      expect(got.total.conversion, context).toEqual(want.overall);
      expect(got.total.stepConversion, context).toEqual(want.fromPrevious);
      expect(got.total.medianSeconds, context).toBe(want.median);
      if (want.avg === null) expect(got.total.avgSeconds).toBeNull();
      else expect(got.total.avgSeconds).toBeCloseTo(want.avg, 6);
      expect(got.histogram, context).toEqual(want.histogram);
      // Hours of the New York day the counted attempts started in.
      const hour = (t: number) => `${String((new Date(t).getUTCHours() + 20) % 24).padStart(2, '0')}:00`;
      for (const [i, label] of got.overTime.buckets.entries()) {
        const inBucket = outcomes.filter((o) => hour(o.start) === label);
        expect(got.overTime.entered[i], `${context} ${label}`).toBe(inBucket.length);
        expect(got.overTime.converted[i], `${context} ${label}`).toBe(inBucket.filter((o) => o.reached === spec.steps.length).length);
      }
      converted += want.counts.at(-1)!;
    }
    // The data exercise the interesting part: people convert in some of the funnels, and both
    // SQL paths (set-based and per person) answer some of them.
    expect(converted).toBeGreaterThan(0);
    const setBased = specs.filter((s) => setBasedApplies(FunnelQuery.parse(queryOf(s)), false)).length;
    expect(setBased).toBeGreaterThan(3);
    expect(specs.length - setBased).toBeGreaterThan(3);
  }, 120_000);

  it('by an event property under each attribution, and by a person attribute', async () => {
    const attributions = ['first', 'last', { step: 2 }] as const;
    for (const [i, spec] of specs.slice(0, 12).entries()) {
      const attribution = attributions[i % 3]!;
      const answer = await call('queryFunnel', queryOf(spec, { breakdown: { kind: 'property', property: 'plan' }, attribution }));
      const got = answer.body as unknown as FunnelAnswer;
      const outcomes = foldBreakdown(evaluateFunnel(events, spec, { by: { kind: 'property', property: 'plan' }, attribution }), 10);
      const keys = [...new Set(outcomes.map((o) => o.key!))];
      expect(got.breakdown.map((s) => s.key).sort(), JSON.stringify(spec)).toEqual(keys.sort());
      for (const series of got.breakdown) {
        expect(series.counts, `${JSON.stringify(spec)} ${series.key}`).toEqual(stepCounts(outcomes.filter((o) => o.key === series.key), spec.steps.length));
      }
    }
    const spec = specs[0]!;
    const attributes = new Map([...personIds.keys()].map((p) => [p, countries[Number(p) % 3]!]));
    const answer = await call('queryFunnel', queryOf(spec, { breakdown: { kind: 'attribute', field: 'country' } }));
    const got = answer.body as unknown as FunnelAnswer;
    const outcomes = evaluateFunnel(events, spec, { by: { kind: 'attribute', field: 'country' }, attribution: 'first', attributes });
    for (const series of got.breakdown) expect(series.counts).toEqual(stepCounts(outcomes.filter((o) => o.key === series.key), spec.steps.length));
    expect(got.breakdown.reduce((a, s) => a + s.counts[0]!, 0)).toBe(got.total.counts[0]);
  }, 120_000);

  it('puts values past the top ten under __other__ and missing ones under __empty__', async () => {
    // 2026-03-12: 13 people with a tag each (two share one, one has none), all converting a -> b.
    const day = Date.parse('2026-03-12T15:00:00Z');
    const tags = ['t00', 't00', 't01', 't02', 't03', 't04', 't05', 't06', 't07', 't08', 't09', 't10', null];
    for (const [i, tag] of tags.entries()) {
      const answer = await ingest(api, app.appKey, 'ingestBatch', {
        device: { id: `tagged-${i}-${randomUUID()}`, os: 'Android' },
        events: [
          { id: randomUUID(), name: 'a', time: new Date(day + i * 1000).toISOString(), properties: tag === null ? {} : { tag } },
          { id: randomUUID(), name: 'b', time: new Date(day + i * 1000 + 60_000).toISOString(), properties: {} },
        ],
      });
      expect(answer.body).toMatchObject({ status: 'OK' });
    }
    const answer = await call('queryFunnel', {
      startDay: '2026-03-12', endDay: '2026-03-12', steps: [{ event: 'a' }, { event: 'b' }], breakdown: { kind: 'property', property: 'tag' },
    });
    const got = answer.body as unknown as FunnelAnswer;
    // t00 (2 people) first; then the ten values of one person in binary order ("__empty__" sorts first); t09 and t10 folded.
    expect(got.breakdown.map((s) => [s.key, s.counts])).toEqual([
      ['t00', [2, 2]], [EMPTY_SENTINEL, [1, 1]], ...['t01', 't02', 't03', 't04', 't05', 't06', 't07', 't08'].map((k) => [k, [1, 1]]), [OTHER_SENTINEL, [2, 2]],
    ]);
    expect(got.total.counts).toEqual([13, 13]);
  });

  it('answers the GET form (the query as JSON in q) like the POST one, and refuses bad JSON with 10001', async () => {
    const query = queryOf(specs[1]!, { breakdown: { kind: 'property', property: 'plan' } });
    const posted = await call('queryFunnel', query);
    const got = await owner.client.call('funnel', undefined, { appId: app.id }, { q: JSON.stringify(query) });
    expect(got.body).toEqual(posted.body);
    const bad = await owner.client.call('funnel', undefined, { appId: app.id }, { q: '{"steps": [' });
    expect(bad.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
  });

  it('compares with the previous period', async () => {
    for (const spec of specs.slice(0, 6)) {
      const answer = await call('queryFunnel', queryOf(spec, { compare: true, timeGroup: 'day' }));
      const got = answer.body as unknown as FunnelAnswer;
      expect(got.previous).toMatchObject({ range: { startDay: '2026-03-09', endDay: '2026-03-09' } });
      // 2026-03-09 in New York is [03-09 04:00Z, 03-10 04:00Z): the even people's early events.
      const before = evaluateFunnel(events, { ...spec, rangeFrom: FROM - DAY_MS, rangeTo: FROM });
      expect(got.previous!.total.counts, JSON.stringify(spec)).toEqual(stepCounts(before, spec.steps.length));
      expect(got.overTime.buckets).toEqual(['2026-03-10']);
      expect(got.overTime.entered).toEqual([got.total.counts[0]]);
    }
  });
});

describe('conversion over time across a change of offset', () => {
  it('puts each attempt in the local day, week and month it started in, around the spring-forward night in New York', async () => {
    const dst = await createTestApp(owner.client, { timezone: TZ });
    // New York leaves EST (-05:00) for EDT (-04:00) on Sunday 2026-03-08 at 02:00.
    const starts: [string, string][] = [
      ['2026-03-06T12:00:00Z', '2026-03-06'], // the range's first day (a Friday)
      ['2026-03-08T04:59:59Z', '2026-03-07'], // 23:59:59 EST
      ['2026-03-08T05:00:00Z', '2026-03-08'], // 00:00 EST, the night of the change
      ['2026-03-09T03:59:59Z', '2026-03-08'], // 23:59:59 EDT
      ['2026-03-09T04:00:00Z', '2026-03-09'], // 00:00 EDT, a Monday
      ['2026-03-11T03:59:59.999Z', '2026-03-10'], // the range's last instant
    ];
    for (const [i, [time]] of starts.entries()) {
      const events = [{ id: randomUUID(), name: 'open', time }];
      // The person who starts on the Monday converts ten minutes later.
      if (i === 4) events.push({ id: randomUUID(), name: 'buy', time: new Date(Date.parse(time) + 600_000).toISOString() });
      const answer = await ingest(api, dst.appKey, 'ingestBatch', { device: { id: `dst-${i}-${randomUUID()}`, os: 'Android' }, events });
      expect(answer.body).toMatchObject({ status: 'OK', rejected: [] });
    }
    const query = (timeGroup: 'day' | 'week' | 'month', order: 'sequential' | 'any') => ({
      startDay: '2026-03-06', endDay: '2026-03-10', timeGroup, order, window: { value: 1, unit: 'hour' },
      steps: [{ event: 'open', filters: [] }, { event: 'buy', filters: [] }], exclusions: [], attribution: 'first', compare: false,
    });
    // In order (the set-based SQL) and in any order (per person): the same buckets.
    for (const order of ['sequential', 'any'] as const) {
      const byDay = (await call('queryFunnel', query('day', order), dst.id)).body as unknown as FunnelAnswer;
      expect(byDay.overTime).toEqual({
        buckets: ['2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'], entered: [1, 1, 2, 1, 1], converted: [0, 0, 0, 1, 0],
      });
      expect(byDay.total.counts).toEqual([6, 1]);
      expect(byDay.histogram.find((b) => b.people > 0)).toEqual({ upTo: 900, people: 1 });
      const byWeek = (await call('queryFunnel', query('week', order), dst.id)).body as unknown as FunnelAnswer;
      expect(byWeek.overTime).toEqual({ buckets: ['2026-03-06', '2026-03-09'], entered: [4, 2], converted: [0, 1] });
      const byMonth = (await call('queryFunnel', query('month', order), dst.id)).body as unknown as FunnelAnswer;
      expect(byMonth.overTime).toEqual({ buckets: ['2026-03-06'], entered: [6], converted: [1] });
    }
  });
});

describe('drill-down and saved audiences', () => {
  // Generated once the data are in (beforeAll): a funnel where somebody drops at step 2.
  let spec: FunnelSpec;
  beforeAll(() => {
    spec = specs.find((s) => evaluateFunnel(events, s).some((o) => o.reached === 1))!;
    expect(spec).toBeDefined();
  });
  const idsOf = (outcomes: PersonOutcome[]) => outcomes.map((o) => personIds.get(o.personId)!).sort();

  it('lists exactly the people who converted or dropped at a step', async () => {
    const outcomes = evaluateFunnel(events, spec);
    for (const [step, outcome] of [[2, 'dropped'], [2, 'converted'], [1, 'converted']] as const) {
      const want = outcomes.filter((o) => (outcome === 'converted' ? o.reached >= step : o.reached === step - 1));
      const answer = await call('funnelPeople', { query: queryOf(spec), step, outcome });
      expect(answer.body).toMatchObject({ status: 'OK', total: want.length });
      const people = answer.body.people as { id: string; reached: number }[];
      expect(people.map((p) => p.id).sort()).toEqual(idsOf(want));
    }
  });

  it('saves the dropped people as an audience that says it came from a funnel', async () => {
    const want = evaluateFunnel(events, spec).filter((o) => o.reached === 1);
    const name = `Dropped ${randomUUID().slice(0, 8)}`;
    const answer = await call('saveFunnelAudience', { name, query: queryOf(spec), step: 2, outcome: 'dropped' });
    expect(answer.body).toMatchObject({ status: 'OK', audience: { name, status: 'ready', sourceType: 'none', personCount: want.length } });
    const id = (answer.body.audience as { id: string }).id;
    const members = await api.deps.db.query<{ id: string }>('SELECT person_id::text AS id FROM audience_members WHERE app_id = $1 AND audience_id = $2', [app.id, id]);
    expect(members.rows.map((r) => r.id).sort()).toEqual(idsOf(want));
    const config = await api.deps.db.query<{ c: { from: string; step: number; outcome: string } }>('SELECT source_config AS c FROM audiences WHERE app_id = $1 AND id = $2', [app.id, id]);
    expect(config.rows[0]!.c).toMatchObject({ from: 'funnel', step: 2, outcome: 'dropped' });
    // The same name again: refused with the catalogue's code, nothing written.
    const again = await call('saveFunnelAudience', { name, query: queryOf(spec), step: 2, outcome: 'dropped' });
    expect(again.body).toMatchObject({ status: 'KO', code: ErrorCode.NAME_DUPLICATED });
    const count = await api.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audiences WHERE app_id = $1 AND name = $2', [app.id, name]);
    expect(count.rows[0]!.n).toBe(1);
  });
});

describe('refusals', () => {
  const good = () => queryOf(specs[0]!);
  it('answers 10001 with field issues for a bad query', async () => {
    for (const bad of [
      { ...good(), steps: [{ event: 'a', filters: [] }] },
      { ...good(), window: { value: 91, unit: 'day' } },
      { ...good(), exclusions: [{ event: { event: 'x', filters: [] }, afterStep: 5 }] },
      { ...good(), attribution: { step: 9 } },
      { ...good(), steps: [{ event: 'a', filters: [{ property: 'p', op: 'gt', value: 'many' }] }, { event: 'b', filters: [] }] },
      { ...good(), startDay: '2026-03-10', endDay: '2026-03-01' },
    ]) {
      const answer = await call('queryFunnel', bad);
      expect(answer.body, JSON.stringify(bad)).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    }
    const dropStep1 = await call('funnelPeople', { query: good(), step: 1, outcome: 'dropped' });
    expect(dropStep1.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const noName = await call('saveFunnelAudience', { name: ' ', query: good(), step: 2, outcome: 'dropped' });
    expect(noName.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
  });

  it('answers another account\'s app like an unknown one, and writes nothing', async () => {
    const other = await registerAccount(api);
    const theirs = await createTestApp(other.client, { timezone: 'UTC' });
    for (const appId of [theirs.id, randomUUID()]) {
      const answer = await call('queryFunnel', good(), appId);
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
      const saved = await call('saveFunnelAudience', { name: 'Theirs', query: good(), step: 2, outcome: 'dropped' }, appId);
      expect(saved.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    }
    const count = await api.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audiences WHERE name = 'Theirs'`);
    expect(count.rows[0]!.n).toBe(0);
  });
});
