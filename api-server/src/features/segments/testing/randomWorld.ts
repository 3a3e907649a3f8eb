/**
 * Random small worlds for the segment engine's differential test: a few people with attributes,
 * devices, events, sessions, installs, message interactions, tag values and audience memberships
 * (as shared `EvalPerson` records), a "now", and random valid segments over the field catalogue.
 *
 * Values come from small pools that overlap on purpose (case variants, empty and blank text,
 * versions that only order part by part, leap days, numbers in several spellings, text that spells
 * a number with spaces around), and instants lie on a quarter-hour grid (± 1 ms) so that local
 * midnights in every test time zone are hit exactly.
 *
 * Tags and audiences are slots ('@text', '@number', '@date', '@missing'; '@a', '@b', '@gone') that
 * `resolve` replaces with an app's real ids.
 */
import fc from 'fast-check';
import {
  InteractionChannel, InteractionKind, SegmentAttribute, SegmentOperator, conditionTarget, conditionValueKind, tagTarget,
  type EvalPerson, type Segment, type SegmentCondition, type SegmentFilterKind, type SegmentNode, type TagValueType,
} from '@gd/shared';
import type { Db } from '../../../db/pool.ts';

const DAY = 86_400_000;
const QUARTER = 15 * 60_000;
/** "Now" lies in these 20 days: summer time starts in New York on 2026-03-08 and in Madrid on 2026-03-29. */
export const NOW_FROM = Date.UTC(2026, 2, 5);
const NOW_QUARTERS = 20 * 96;

export const TAG_SLOTS = ['text', 'number', 'date'] as const satisfies readonly TagValueType[];
export const AUDIENCE_SLOTS = ['a', 'b'] as const;

// ---------------------------------------------------------------------------------------------
// Value pools.

const CHARS = ['a', 'A', 'b', 'B', 'é', 'É', 'ñ', 'Ñ', 'σ', 'Σ', 'ς', 'İ', 'i', 'ß', 'ẞ', ' ', '.', '1', '2', '-', '%', '_', '"', "'", '\\', '\t', '😀'];
const arbWord = fc.string({ unit: fc.constantFrom(...CHARS), minLength: 0, maxLength: 4 });
const TEXTS = ['es', 'ES', 'Es', 'fr', 'FR', 'Madrid', 'MADRID', 'madrid ', '', ' ', 'é', 'É', 'Σσ', 'ΣΑΣ', 'İstanbul', 'istanbul', 'ß', 'a%b', 'a_b', 'gold', 'Gold', 'silver', '12', ' 12', '12.5'];
const CORE_TEXTS = ['es', 'ES', 'Madrid', 'MADRID', 'gold', 'Gold', 'É', 'é', 'İstanbul', 'ΣΑΣ', ''];
const arbText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CORE_TEXTS) }, { weight: 2, arbitrary: fc.constantFrom(...TEXTS) }, { weight: 1, arbitrary: arbWord },
);
/** Text a condition may hold (never blank: a blank value is not a value). */
const arbValueText = arbText.filter((t) => t.trim() !== '');
const VERSIONS = ['1.10.0', '1.10', '1.9', '1.9.10', '2', '2.0', '', ' ', '1..2', 'v1.2', '1.2.3.4', '10', ' 1.2 ', '1234567890.1', '1.a', '0'];
const arbVersion = fc.constantFrom(...VERSIONS);
const NUMBERS = [0, -0, 1, 2, 3, 3.5, -2, 10, 1e21, 1e-7, 0.1, 0.2, 0.30000000000000004, 123456789.123];
const arbNumber = fc.constantFrom(...NUMBERS);
const MONEY = [0, 1, 12.5, 0.12345, 99.99995, 19.99, 100];
const EVENT_NAMES = ['buy', 'Buy', 'view', 'gd_transaction', 'gd_login', 'e_screen_name'] as const;
const PROPERTY_NAMES = ['plan', 'amount', 'tags', 'paid', 'product_id', 'price', 'screen', 'x'] as const;
const SOURCES = ['facebook', 'Facebook', 'google', 'Organic', '', null];
const CAMPAIGN_IDS = ['c1', 'c2', 'C1', null];
const MESSAGE_IDS = ['m1', 'm2', null];
const JOURNEY_IDS = ['j1', 'j2', null];

const arbPrimitive = fc.oneof(
  arbText,
  arbNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(' 12 ', '\t12\u000b', '\u300012', '12.50', '-0', '0012', '1e3', '1.', '.5'),
);
const arbPropertyValue = fc.oneof(
  { weight: 6, arbitrary: arbPrimitive },
  { weight: 2, arbitrary: fc.array(arbPrimitive, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'bb', 'c', 'Ab'), arbPrimitive, { maxKeys: 2 }) },
);

/** A day near "now" (±40 days), or one of the special days. */
function arbDay(nowMs: number): fc.Arbitrary<string> {
  const near = fc.oneof(fc.integer({ min: -8, max: 3 }), fc.integer({ min: -40, max: 10 })).map((d) => new Date(nowMs + d * DAY).toISOString().slice(0, 10));
  const sameDayYearsAgo = fc.constantFrom(1, 2, 4, 30).map((years) => {
    const d = new Date(nowMs);
    d.setUTCFullYear(d.getUTCFullYear() - years);
    return d.toISOString().slice(0, 10);
  });
  const special = fc.constantFrom('1992-02-29', '2000-02-28', '2024-02-29', '2025-02-28', '2026-02-28', '2026-03-01', '2027-02-28', '0001-01-01', '9999-12-31');
  return fc.oneof({ weight: 4, arbitrary: near }, { weight: 2, arbitrary: sameDayYearsAgo }, { weight: 1, arbitrary: special });
}
/** An instant on the quarter-hour grid from 45 days before now to 3 days after (mostly the last 8 days), ± 1 ms. */
function arbInstant(nowMs: number): fc.Arbitrary<string> {
  const grid = Math.floor(nowMs / QUARTER) * QUARTER;
  const quarters = fc.oneof(fc.integer({ min: -8 * 96, max: 96 }), fc.integer({ min: -45 * 96, max: 3 * 96 }));
  return fc.tuple(quarters, fc.constantFrom(0, 0, 0, -1, 1)).map(([q, ms]) => new Date(grid + q * QUARTER + ms).toISOString());
}

// ---------------------------------------------------------------------------------------------
// People.

function arbPerson(nowMs: number, id: string): fc.Arbitrary<EvalPerson> {
  const instant = arbInstant(nowMs);
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { freq: 3, nil: null });
  return fc.record({
    email: maybe(fc.constantFrom('Ana@Example.com', 'ana@example.com', 'eve@shop.io', '')),
    country: maybe(arbText), state: maybe(arbText), city: maybe(arbText),
    appVersion: maybe(arbVersion), osVersion: maybe(arbVersion), sdkVersion: maybe(arbVersion),
    source: maybe(fc.constantFrom(...SOURCES)), campaign: maybe(fc.constantFrom('spring', 'Spring', 'summer', '')),
    installAt: maybe(instant), registeredAt: maybe(instant), firstLoginAt: maybe(instant), lastLoginAt: maybe(instant),
    lastSessionAt: maybe(instant), firstPurchaseAt: maybe(instant), lastPurchaseAt: maybe(instant),
    birthday: maybe(arbDay(nowMs)),
    revenue: fc.constantFrom(...MONEY), conversions: fc.integer({ min: 0, max: 4 }),
    devices: fc.array(fc.record({
      os: maybe(fc.constantFrom('iOS', 'ios', 'Android', '')), osVersion: maybe(arbVersion), model: maybe(fc.constantFrom('iPhone15', 'Pixel', 'iPad', '')),
      pushToken: fc.constantFrom(null, '', 'tok'), pushEnabled: fc.constantFrom(null, true, false),
    }), { maxLength: 2 }),
    events: fc.array(fc.record({
      name: fc.constantFrom(...EVENT_NAMES), time: instant,
      properties: fc.dictionary(fc.constantFrom(...PROPERTY_NAMES), arbPropertyValue, { maxKeys: 3 }),
      revenue: fc.constantFrom(null, ...MONEY),
    }), { maxLength: 5 }),
    sessions: fc.array(fc.record({ startedAt: instant }), { maxLength: 2 }),
    lifecycle: fc.array(fc.record({
      kind: fc.constantFrom('install', 'reinstall', 'uninstall' as const), source: fc.constantFrom(...SOURCES), campaign: fc.constantFrom('spring', 'SUMMER', null),
    }), { maxLength: 2 }),
    interactions: fc.array(fc.record({
      channel: fc.constantFrom(...InteractionChannel.options), kind: fc.constantFrom(...InteractionKind.options), time: instant,
      campaignId: fc.constantFrom(...CAMPAIGN_IDS), messageId: fc.constantFrom(...MESSAGE_IDS), journeyId: fc.constantFrom(...JOURNEY_IDS),
    }), { maxLength: 5 }),
    tags: fc.record({
      text: fc.option(fc.record({ value: fc.option(arbText, { nil: null }), updatedAt: instant }), { nil: undefined }),
      number: fc.option(fc.record({ value: fc.option(arbNumber, { nil: null }), updatedAt: instant }), { nil: undefined }),
      date: fc.option(fc.record({ value: fc.option(arbDay(nowMs), { nil: null }), updatedAt: instant }), { nil: undefined }),
    }).map((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined).map(([slot, v]) => [`@${slot}`, v!]))),
    audiences: fc.subarray(['@a', '@b']),
  }).map((p): EvalPerson => ({ id, ...p }));
}

export interface World { nowMs: number; people: EvalPerson[] }

export const arbWorld: fc.Arbitrary<World> = fc.integer({ min: 0, max: NOW_QUARTERS }).chain((q) => {
  const nowMs = NOW_FROM + q * QUARTER + 7 * 60_000;
  return fc.integer({ min: 4, max: 24 }).chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => arbPerson(nowMs, `p${i}`)), fc.array(fc.nat({ max: n - 1 }), { maxLength: 2 }))
      .map((all) => {
        const merged = new Set(all[all.length - 1] as number[]);
        const people = (all.slice(0, -1) as EvalPerson[]).map((p, i) => (merged.has(i) && i > 0 ? { ...p, mergedInto: 'p0' } : p));
        return { nowMs, people };
      }));
});

// ---------------------------------------------------------------------------------------------
// Segments.

const TARGET_IDS: [SegmentFilterKind, string][] = [
  ...SegmentAttribute.options.map((a) => ['attribute', a] as [SegmentFilterKind, string]),
  ['aevent', 'gd_transaction'], ['aevent', 'gd_login'], ['aevent', 'e_screen_name'], ['aevent', 'e_screen_name/screen'], ['aevent', 'gd_transaction/product_id'],
  ['user_event', 'buy'], ['user_event', 'Buy'], ['user_event', 'view'], ['user_event', 'buy/plan'], ['user_event', 'buy/amount'], ['user_event', 'buy/tags'],
  ['user_tag', '@text'], ['user_tag', '@number'], ['user_tag', '@date'], ['user_tag', '@missing'],
  ['user_event_tag', 'buy/plan'], ['user_event_tag', 'buy/amount'], ['user_event_tag', 'buy/tags'], ['user_event_tag', 'buy/paid'],
  ['user_event_tag', 'e_screen_name/screen'], ['user_event_tag', 'view/x'], ['user_event_tag', 'buy/price'],
  ['user_product_tag', 'product_id'], ['user_product_tag', 'price'], ['user_product_tag', 'amount'], ['user_product_tag', 'plan'],
  ['user_purchase_tag', 'revenue'], ['user_purchase_tag', 'conversions'],
  ['inapp_impressions', '*'], ['inapp_impressions', 'm1'], ['inapp_clicks', '*'], ['inapp_clicks', 'm2'],
  ['device_os', 'os'], ['device_os', 'os_version'], ['device_os', 'model'],
  ['filter_campaign', 'push'], ['filter_campaign', 'inapp'], ['filter_campaign', 'email'], ['filter_campaign', 'any'],
];
const slotType = (id: string): TagValueType | undefined => (TAG_SLOTS as readonly string[]).includes(id.slice(1)) ? (id.slice(1) as TagValueType) : undefined;

type Extra = Partial<SegmentCondition>;

/** A value fitting what the operator takes (conditionValueKind), for the target. */
function arbValue(kind: ReturnType<typeof conditionValueKind>, nowMs: number, attribute: string): fc.Arbitrary<Extra> {
  const texts = (pool: fc.Arbitrary<string>) =>
    fc.oneof(pool.map((input): Extra => ({ input })), fc.array(pool, { minLength: 1, maxLength: 3 }).map((multiSelect): Extra => ({ multiSelect })));
  switch (kind) {
    case 'none': return fc.constant({});
    case 'text': return texts(attribute === 'source' ? fc.constantFrom('facebook', 'organic', 'Google') : arbValueText);
    case 'number':
      return fc.oneof(
        arbNumber.map((input): Extra => ({ input })),
        fc.constantFrom('3.5', '2', '-2', '0.30000000000000004', '99999999999999999999999').map((input): Extra => ({ input })),
        fc.array(fc.constantFrom('0', '1', '2', '3.5', '10'), { minLength: 1, maxLength: 3 }).map((multiSelect): Extra => ({ multiSelect })),
        fc.tuple(arbNumber, fc.constantFrom('1', '7')).map(([input, s]): Extra => ({ input, multiSelect: [s] })),
      );
    case 'day': return texts(fc.oneof({ weight: 30, arbitrary: arbDay(nowMs) }, { weight: 1, arbitrary: fc.constant('0000-01-01') }));
    case 'days':
      return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 9 }) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 50 }) }, { weight: 1, arbitrary: fc.constantFrom(365, 36_500) })
        .map((dateDays): Extra => ({ dateDays }));
    case 'date_range': return arbRange(nowMs).map((dateRange): Extra => ({ dateRange }));
    case 'anniversary':
      return fc.oneof(fc.integer({ min: 0, max: 366 }).map((input): Extra => ({ input })), arbDay(nowMs).map((input): Extra => ({ input })));
    case 'audience_ids':
      return fc.oneof({ weight: 12, arbitrary: fc.subarray(['@a', '@b'], { minLength: 1 }) }, { weight: 1, arbitrary: fc.constant(['@a', '@gone']).map((ids) => [...ids]) })
        .map((multiSelect): Extra => ({ multiSelect }));
    case 'campaign_ids': return texts(fc.constantFrom('c1', 'c2', 'C1', 'c3'));
    case 'journey_ids': return texts(fc.constantFrom('j1', 'j2', 'j3'));
    case 'attribution': return texts(fc.constantFrom('facebook', 'Organic', 'GOOGLE', 'spring', 'summer'));
    case 'property': return fc.constant({});
    default: {
      const never: never = kind;
      throw new Error(`unknown value kind ${String(never)}`);
    }
  }
}
function arbRange(nowMs: number) {
  return fc.tuple(arbDay(nowMs), arbDay(nowMs)).map(([a, b]) => (a <= b ? { startDay: a, endDay: b } : { startDay: b, endDay: a }));
}

/** A valid condition over the catalogue (now and then, on purpose, one that is not). */
function arbCondition(nowMs: number): fc.Arbitrary<Extra> {
  return fc.constantFrom(...TARGET_IDS).chain(([type, id]) => {
    const target = type === 'user_tag' ? (slotType(id) ? tagTarget(slotType(id)!) : tagTarget('text')) : conditionTarget(type, id, () => undefined)!;
    const operator = fc.oneof({ weight: 60, arbitrary: fc.constantFrom(...target.operators) }, { weight: 1, arbitrary: fc.constantFrom(...SegmentOperator.options) });
    return operator.chain((condition) => {
      const properties = target.propertyOperators.length ? target.propertyOperators : SegmentOperator.options;
      const inner = condition === 'with_property' ? fc.constantFrom(...properties) : fc.constant(null);
      return inner.chain((tagCondition) => {
        const op = tagCondition ?? condition;
        const valueTarget = condition === 'with_property' && type !== 'user_tag' ? { ...target, valueType: 'property' as const } : target;
        const window = fc.oneof(
          { weight: 2, arbitrary: fc.constant<Extra>({}) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }).map((dateDays): Extra => ({ dateDays })) },
          { weight: 1, arbitrary: arbRange(nowMs).map((dateRange): Extra => ({ dateRange })) },
        );
        return fc.tuple(arbValue(conditionValueKind(valueTarget, op, type), nowMs, id), window, fc.constantFrom('', '', '', ' '))
          .map(([value, win, pad]): Extra => ({
            type, id: `${pad}${id}${pad}`, condition, tagCondition, input: null, multiSelect: [], dateRange: null, dateDays: null,
            // An operator that needs a day count or a range brings its own (over the window's).
            ...win, ...value,
          }));
      });
    });
  });
}

/** A tree of and/or groups (up to two levels below the root) over random conditions; empty groups now and then. */
export function arbSegment(nowMs: number): fc.Arbitrary<Segment> {
  const condition = arbCondition(nowMs);
  type Tree = { kind: 'condition'; c: Extra } | { kind: 'group'; combinator: 'and' | 'or'; children: Tree[] };
  const { tree } = fc.letrec<{ tree: Tree; node: Tree }>((tie) => ({
    tree: fc.record({ kind: fc.constant('group' as const), combinator: fc.constantFrom('and' as const, 'or' as const), children: fc.array(tie('node'), { maxLength: 3 }) }),
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, condition.map((c): Tree => ({ kind: 'condition', c })), tie('tree')),
  }));
  // Mostly one condition (each operator's meaning), else a tree (and/or, negations, empty groups).
  const single = condition.map((c): Tree => ({ kind: 'group', combinator: 'and', children: [{ kind: 'condition', c }] }));
  return fc.oneof({ weight: 3, arbitrary: single }, { weight: 2, arbitrary: tree }).map((root) => {
    const nodes: SegmentNode[] = [];
    let n = 0;
    const flatten = (t: Tree): string => {
      const key = `n${n++}`;
      if (t.kind === 'condition') nodes.push({ ...(t.c as SegmentCondition), key, kind: 'condition' });
      else {
        const group = { key, kind: 'group' as const, combinator: t.combinator, children: [] as string[] };
        nodes.push(group);
        group.children = t.children.map(flatten);
      }
      return key;
    };
    return { rootKey: flatten(root), nodes };
  });
}

// ---------------------------------------------------------------------------------------------
// One app's ids for the slots, and loading a world into its tables.

export interface AppSlots { appId: string; timezone: string; tags: Record<(typeof TAG_SLOTS)[number], string>; audiences: Record<(typeof AUDIENCE_SLOTS)[number], string> }

const GONE_AUDIENCE = '00000000-0000-4000-8000-00000000dead';
const MISSING_TAG = '00000000-0000-4000-8000-00000000beef';

/** The slots of a segment and of people replaced with the app's ids. */
export function resolve(app: AppSlots) {
  const ids: Record<string, string> = { ...Object.fromEntries(TAG_SLOTS.map((s) => [`@${s}`, app.tags[s]])), '@missing': MISSING_TAG,
    '@a': app.audiences.a, '@b': app.audiences.b, '@gone': GONE_AUDIENCE };
  const swap = (s: string) => s.replace(/@[a-z]+/, (slot) => ids[slot] ?? slot);
  return {
    segment: (s: Segment): Segment => ({
      ...s,
      nodes: s.nodes.map((node) => node.kind === 'group' ? node : {
        ...node, id: node.id === null ? null : swap(node.id), input: typeof node.input === 'string' ? swap(node.input) : node.input, multiSelect: node.multiSelect.map(swap),
      }),
    }),
    people: (people: readonly EvalPerson[]): EvalPerson[] => people.map((p) => ({
      ...p,
      tags: Object.fromEntries(Object.entries(p.tags ?? {}).map(([slot, v]) => [ids[slot] ?? slot, v])),
      audiences: (p.audiences ?? []).map((a) => ids[a] ?? a),
    })),
  };
}

/** Replaces the app's behaviour rows with the people's (in one transaction, a statement per table); answers person id → row id. */
export async function loadPeople(db: Db, app: AppSlots, people: readonly EvalPerson[]): Promise<void> {
  const client = await db.connect();
  const json = (rows: unknown[]) => JSON.stringify(rows);
  try {
    await client.query('BEGIN');
    for (const table of ['devices', 'events', 'sessions', 'lifecycle_events', 'message_interactions', 'audience_members', 'person_tags', 'people']) {
      await client.query(`DELETE FROM ${table} WHERE app_id = $1`, [app.appId]);
    }
    const { rows } = await client.query<{ id: number; customer_id: string }>(
      `INSERT INTO people (app_id, customer_id, email, country, state, city, app_version, os_version, sdk_version, from_source, from_campaign,
         install_at, registered_at, first_login_at, last_login_at, last_session_at, first_purchase_at, last_purchase_at, birthday, revenue, conversions)
       SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(customer_id text, email text, country text, state text, city text, app_version text,
         os_version text, sdk_version text, from_source text, from_campaign text, install_at timestamptz, registered_at timestamptz,
         first_login_at timestamptz, last_login_at timestamptz, last_session_at timestamptz, first_purchase_at timestamptz,
         last_purchase_at timestamptz, birthday date, revenue numeric, conversions integer)
       RETURNING id, customer_id`,
      [app.appId, json(people.map((p) => ({
        customer_id: p.id, email: p.email, country: p.country, state: p.state, city: p.city, app_version: p.appVersion, os_version: p.osVersion,
        sdk_version: p.sdkVersion, from_source: p.source, from_campaign: p.campaign, install_at: p.installAt, registered_at: p.registeredAt,
        first_login_at: p.firstLoginAt, last_login_at: p.lastLoginAt, last_session_at: p.lastSessionAt, first_purchase_at: p.firstPurchaseAt,
        last_purchase_at: p.lastPurchaseAt, birthday: p.birthday, revenue: p.revenue === undefined ? 0 : String(p.revenue), conversions: p.conversions ?? 0,
      })))],
    );
    const rowId = new Map(rows.map((r) => [r.customer_id, r.id]));
    const of = (p: EvalPerson) => rowId.get(p.id)!;
    const merged = people.filter((p) => p.mergedInto).map((p) => ({ id: of(p), target: rowId.get(p.mergedInto!)! }));
    if (merged.length) {
      await client.query(`UPDATE people p SET merged_into = x.target FROM jsonb_to_recordset($2::jsonb) AS x(id bigint, target bigint) WHERE p.app_id = $1 AND p.id = x.id`, [app.appId, json(merged)]);
    }
    const insert = async (sql: string, list: unknown[]) => { if (list.length) await client.query(sql, [app.appId, json(list)]); };
    await insert(
      `INSERT INTO devices (app_id, device_key, person_id, os, os_version, model, push_token, push_enabled)
       SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(device_key text, person_id bigint, os text, os_version text, model text, push_token text, push_enabled boolean)`,
      people.flatMap((p) => (p.devices ?? []).map((d, i) => ({ device_key: `${p.id}-${i}`, person_id: of(p), os: d.os, os_version: d.osVersion, model: d.model, push_token: d.pushToken, push_enabled: d.pushEnabled }))),
    );
    // Numbers travel as text so that 1e21 or 0.30000000000000004 arrive exactly as JavaScript spells them.
    await insert(
      `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, properties, revenue)
       SELECT $1, x.event_time, x.event_time, gen_random_uuid()::text, x.person_id, 0, x.name, x.properties::jsonb, x.revenue::numeric
         FROM jsonb_to_recordset($2::jsonb) AS x(event_time timestamptz, person_id bigint, name text, properties text, revenue text)`,
      people.flatMap((p) => (p.events ?? []).map((e) => ({
        event_time: e.time, person_id: of(p), name: e.name, properties: JSON.stringify(e.properties ?? {}), revenue: e.revenue == null ? null : String(e.revenue),
      }))),
    );
    // What ingestion keeps beside the events (the person-month day bitmaps event conditions read).
    await client.query('SELECT gd_rebuild_event_rollup($1)', [app.appId]);
    await insert(
      `INSERT INTO sessions (app_id, started_at, session_id, person_id, device_id) SELECT $1, x.started_at, gen_random_uuid()::text, x.person_id, 0
         FROM jsonb_to_recordset($2::jsonb) AS x(started_at timestamptz, person_id bigint)`,
      people.flatMap((p) => (p.sessions ?? []).map((s) => ({ started_at: s.startedAt, person_id: of(p) }))),
    );
    await insert(
      `INSERT INTO lifecycle_events (app_id, event_time, kind, person_id, device_id, source, campaign) SELECT $1, x.event_time, x.kind, x.person_id, 0, x.source, x.campaign
         FROM jsonb_to_recordset($2::jsonb) AS x(event_time timestamptz, kind text, person_id bigint, source text, campaign text)`,
      people.flatMap((p) => (p.lifecycle ?? []).map((l) => ({ event_time: '2026-01-01T00:00:00Z', kind: l.kind, person_id: of(p), source: l.source, campaign: l.campaign }))),
    );
    await insert(
      `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, journey_id)
       SELECT $1, x.event_time, gen_random_uuid()::text, x.person_id, 0, x.channel, x.kind, x.campaign_id, x.message_id, x.journey_id
         FROM jsonb_to_recordset($2::jsonb) AS x(event_time timestamptz, person_id bigint, channel text, kind text, campaign_id text, message_id text, journey_id text)`,
      people.flatMap((p) => (p.interactions ?? []).map((i) => ({
        event_time: i.time, person_id: of(p), channel: i.channel, kind: i.kind, campaign_id: i.campaignId, message_id: i.messageId, journey_id: i.journeyId,
      }))),
    );
    const typeOf = Object.fromEntries(TAG_SLOTS.map((s) => [app.tags[s], s]));
    await insert(
      `INSERT INTO person_tags (app_id, person_id, tag_id, value_text, value_number, value_date, updated_at)
       SELECT $1, x.person_id, x.tag_id, x.value_text, x.value_number::numeric, x.value_date, x.updated_at
         FROM jsonb_to_recordset($2::jsonb) AS x(person_id bigint, tag_id uuid, value_text text, value_number text, value_date date, updated_at timestamptz)`,
      people.flatMap((p) => Object.entries(p.tags ?? {}).map(([tagId, t]) => ({
        person_id: of(p), tag_id: tagId, updated_at: t.updatedAt,
        value_text: typeOf[tagId] === 'text' ? t.value : null,
        value_number: typeOf[tagId] === 'number' && t.value !== null ? String(t.value) : null,
        value_date: typeOf[tagId] === 'date' ? t.value : null,
      }))),
    );
    await insert(
      `INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, x.audience_id, x.person_id FROM jsonb_to_recordset($2::jsonb) AS x(audience_id uuid, person_id bigint)`,
      people.flatMap((p) => (p.audiences ?? []).map((a) => ({ audience_id: a, person_id: of(p) }))),
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
