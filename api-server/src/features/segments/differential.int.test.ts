/**
 * The segment compiler against the in-memory evaluator (shared/src/segment/evaluate.ts): random
 * small worlds of people (testing/randomWorld.ts) loaded into real Postgres, random and/or trees of
 * conditions over the whole field catalogue, in four time zones; the compiled SQL must select
 * exactly the people the evaluator selects, and both must refuse the same segments with the same
 * problems. One database and four apps serve every run; each run replaces the app's rows.
 *
 * Cases the property found are kept below as fixed tests.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConditionNode, createGroupNode, evaluateSegment, type EvalPerson, type Segment, type SegmentCondition } from '@gd/shared';
import { createPool, type Db } from '../../db/pool.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { compileFor } from './definition.ts';
import { seeder } from './testing/data.ts';
import { AUDIENCE_SLOTS, TAG_SLOTS, arbSegment, arbWorld, loadPeople, resolve, type AppSlots, type World } from './testing/randomWorld.ts';

const TIME_ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'];
let api: TestApi;
let db: Db;
const apps: AppSlots[] = [];

beforeAll(async () => {
  api = await startTestApi();
  db = createPool(inject('databaseUrl'), 2);
  const owner = await registerAccount(api);
  await db.query(`SELECT gd_ensure_month_partitions('2025-12-01', '2026-06-30')`);
  for (const timezone of TIME_ZONES) {
    const appId = (await createTestApp(owner.client, { timezone })).id;
    const s = seeder(db, appId);
    const tags = { text: await s.tag('plan', 'text'), number: await s.tag('score', 'number'), date: await s.tag('renewal', 'date') };
    const audiences = { a: await s.audience(owner.accountId, 'A', []), b: await s.audience(owner.accountId, 'B', []) };
    apps.push({ appId, timezone, tags, audiences });
  }
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

/** Both answers for one segment over the world loaded in `app`: selected customer ids, or problems. */
async function answers(app: AppSlots, world: World, people: readonly EvalPerson[], segment: Segment) {
  const now = new Date(world.nowMs);
  const compiled = await compileFor(db, segment, { appId: app.appId, now, requireConditions: false });
  const evaluated = evaluateSegment(segment, people, {
    timezone: app.timezone, now, tags: new Map(TAG_SLOTS.map((s) => [app.tags[s], s])), audiences: new Set(AUDIENCE_SLOTS.map((s) => app.audiences[s])),
  });
  const problems = (list: readonly { key: string; code: string; error: string }[]) => list.map((p) => `${p.key} ${p.error} ${p.code}`);
  if (!compiled.ok || !evaluated.ok) {
    return { sql: compiled.ok ? 'compiled' : problems(compiled.problems), memory: evaluated.ok ? 'evaluated' : problems(evaluated.problems) };
  }
  const { rows } = await db.query<{ customer_id: string }>(`SELECT p.customer_id FROM people p WHERE ${compiled.value.where}`, compiled.value.params);
  return { sql: rows.map((r) => r.customer_id).sort(), memory: [...evaluated.ids].sort() };
}

async function check(appIndex: number, world: World, segments: readonly Segment[]) {
  const app = apps[appIndex % apps.length]!;
  const r = resolve(app);
  const people = r.people(world.people);
  await loadPeople(db, app, people);
  for (const raw of segments) {
    const segment = r.segment(raw);
    const { sql, memory } = await answers(app, world, people, segment);
    expect(sql, `${app.timezone} now=${new Date(world.nowMs).toISOString()}\n${JSON.stringify(segment.nodes)}`).toEqual(memory);
  }
}

describe('compiled SQL and the in-memory evaluator select the same people', () => {
  it('on random worlds and segments', async () => {
    const arbCase = arbWorld.chain((world) =>
      fc.tuple(fc.nat({ max: TIME_ZONES.length - 1 }), fc.constant(world), fc.array(arbSegment(world.nowMs), { minLength: 1, maxLength: 6 })));
    await fc.assert(
      fc.asyncProperty(arbCase, async ([appIndex, world, segments]) => check(appIndex, world, segments)),
      { numRuns: 120 },
    );
  }, 180_000);
});

// ---------------------------------------------------------------------------------------------
// Counterexamples the property found, kept as they shrank.

const single = (condition: Partial<SegmentCondition>): Segment => {
  const root = createGroupNode('root');
  root.children.push('c1');
  return { rootKey: 'root', nodes: [root, createConditionNode('c1', condition)] };
};
const NOW = Date.UTC(2026, 2, 15, 12);
const fixed = (people: EvalPerson[], ...conditions: Partial<SegmentCondition>[]) =>
  check(1, { nowMs: NOW, people }, conditions.map((condition) => single(condition)));
const tagged = (slot: string, value: string | number | null): Pick<EvalPerson, 'tags'> => ({ tags: { [slot]: { value, updatedAt: '2026-03-15T10:00:00Z' } } });

describe('found by the property (each failed before its fix)', () => {
  it('a count condition with a constant answer (more_than below 0, less_than 0) leaves no parameter unused', async () => {
    const people: EvalPerson[] = [{ id: 'p0', interactions: [{ channel: 'inapp', kind: 'click', time: '2026-03-15T10:00:00Z', messageId: 'm2' }] }, { id: 'p1' }];
    await fixed(people,
      { type: 'inapp_clicks', id: 'm2', condition: 'more_than', input: -2 },
      { type: 'user_event', id: 'buy', condition: 'less_than', input: 0 },
      { type: 'user_event', id: 'buy', condition: 'was_not_made', dateDays: 3 });
  });

  it('a count larger than any bigint OFFSET', async () => {
    const people: EvalPerson[] = [{ id: 'p0', events: [{ name: 'buy', time: '2026-03-15T10:00:00Z' }] }, { id: 'p1' }];
    await fixed(people,
      { type: 'user_event', id: 'buy', condition: 'more_than', input: 1e20 },
      { type: 'user_event', id: 'buy', condition: 'less_than', input: '99999999999999999999999' });
  });

  it('a typed number in any spelling (1e21, 1e-7) is a number; the selections come before it', async () => {
    const people: EvalPerson[] = [{ id: 'p0', ...tagged('@number', 1e21) }, { id: 'p1', ...tagged('@number', 7) }, { id: 'p2', ...tagged('@number', 1e-7) }];
    await fixed(people,
      { type: 'user_tag', id: '@number', condition: 'equals', input: 1e21 },
      { type: 'user_tag', id: '@number', condition: 'not_equals', input: 1e-7 },
      { type: 'user_tag', id: '@number', condition: 'greater_than', input: 100, multiSelect: ['5'] });
  });

  it('a property spelling a number with Unicode spaces around is not a number (and fails nothing)', async () => {
    const people: EvalPerson[] = [
      { id: 'p0', events: [{ name: 'buy', time: '2026-03-15T10:00:00Z', properties: { amount: '\u300012' } }] },
      { id: 'p1', events: [{ name: 'buy', time: '2026-03-15T10:00:00Z', properties: { amount: '\t12\u000b' } }] },
    ];
    await fixed(people,
      { type: 'user_event_tag', id: 'buy/amount', condition: 'greater_than', input: 10 },
      { type: 'user_event', id: 'buy/amount', condition: 'with_property', tagCondition: 'minor_than', input: 20 });
  });

  it("an array property's equals compares its elements, never the array's JSON text", async () => {
    const people: EvalPerson[] = [{ id: 'p0', events: [{ name: 'buy', time: '2026-03-15T10:00:00Z', properties: { tags: ['a', 'b'] } }] }];
    await fixed(people,
      { type: 'user_event_tag', id: 'buy/tags', condition: 'equals', input: '["a", "b"]' },
      { type: 'user_event_tag', id: 'buy/tags', condition: 'not_equals', input: '["a", "b"]' });
  });

  it('the audience attribute with spaces around its id loads its audiences', async () => {
    const people: EvalPerson[] = [{ id: 'p0', audiences: ['@a'] }, { id: 'p1' }];
    await fixed(people, { type: 'attribute', id: ' audience ', condition: 'in_audience', multiSelect: ['@a'] });
  });

  it('text Postgres cannot store (NUL, a lone surrogate) is refused, not a failed query', async () => {
    await fixed([{ id: 'p0', country: 'ES' }],
      { type: 'attribute', id: 'country', condition: 'equals', input: 'E\u0000S' },
      { type: 'filter_campaign', id: 'push', condition: 'sent', multiSelect: ['c\ud800'] },
      { type: 'inapp_impressions', id: 'm\u0000', condition: 'was_made' });
  });

  it('the first and last days Postgres and the date format share', async () => {
    const people: EvalPerson[] = [{ id: 'p0', birthday: '0001-01-01' }, { id: 'p1', birthday: '9999-12-31' }];
    await fixed(people,
      { type: 'attribute', id: 'birthday', condition: 'was_on', dateRange: { startDay: '0001-01-01', endDay: '0001-01-01' } },
      { type: 'attribute', id: 'birthday', condition: 'greater_than', input: '9999-12-30' },
      { type: 'attribute', id: 'birthday', condition: 'anniversary_is', input: '0001-01-01' },
      { type: 'attribute', id: 'birthday', condition: 'equals', input: '0000-01-01' });
  });
});
