import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdentifyRequest, IngestBatch, IngestEvent, ProfileRequest, eventNameProblem, ORGANIC_SOURCE } from '@gd/shared';
import { ExpectedCounts, GENERATOR_VERSION, addDays, generatePeople, type GeneratedPerson, type GeneratorConfig } from './index.ts';
import { LocalCalendar } from './calendar.ts';
import { Random, WeightedList } from './random.ts';

// The window crosses the end of US daylight saving time (2026-11-01), so local days are 23–25 h.
const config: GeneratorConfig = { seed: 7, people: 150, days: 14, endDate: '2026-11-07', timezone: 'America/New_York', appOs: 'Android' };
const take = (c: GeneratorConfig) => [...generatePeople(c)];
const stream = take(config);

describe('random', () => {
  it('repeats for a seed and stream, and differs across them', () => {
    const draw = (seed: number, s: number) => Array.from({ length: 5 }, ((r) => () => r.next32())(new Random(seed, s)));
    expect(draw(1, 0)).toEqual(draw(1, 0));
    expect(draw(1, 0)).not.toEqual(draw(2, 0));
    expect(draw(1, 0)).not.toEqual(draw(1, 1));
  });

  it('picks weighted entries in proportion', () => {
    const list = new WeightedList([{ value: 'a', weight: 3 }, { value: 'b', weight: 1 }]);
    const r = new Random(3);
    let a = 0;
    for (let i = 0; i < 10_000; i++) if (r.pick(list) === 'a') a++;
    expect(a / 10_000).toBeGreaterThan(0.72);
    expect(a / 10_000).toBeLessThan(0.78);
  });
});

describe('calendar', () => {
  it('knows local midnights and day lengths across a DST change', () => {
    const cal = new LocalCalendar('America/New_York', '2026-11-02', 3);
    expect(cal.days).toEqual(['2026-10-31', '2026-11-01', '2026-11-02']);
    expect(new Date(cal.dayStart(0)).toISOString()).toBe('2026-10-31T04:00:00.000Z');
    expect(cal.dayLength(1)).toBe(25 * 3_600_000);
    expect(new Date(cal.dayStart(2)).toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(new LocalCalendar('Asia/Kolkata', '2026-01-01', 1).dayStart(0)).toBe(Date.parse('2025-12-31T18:30:00Z'));
  });
});

describe('generator', () => {
  it('gives the same stream for the same seed', () => {
    expect(JSON.stringify(take(config))).toBe(JSON.stringify(stream));
  });

  it('has the pinned fingerprint of its version (changed the output? bump GENERATOR_VERSION and update both)', () => {
    const hash = createHash('sha256').update(JSON.stringify(stream)).digest('hex');
    expect({ version: GENERATOR_VERSION, hash }).toEqual({ version: 3, hash: 'dc619e87a16203ae5fc3de480b6f6fc918c57d56166aa5cc47e09f31090d3860' });
  });

  it('gives other people, devices and event ids for another seed', () => {
    const other = take({ ...config, seed: 8 });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(stream));
    const ids = (s: GeneratedPerson[]) => new Set(s.flatMap((p) => p.requests.flatMap((r) => (r.kind === 'batch' ? r.body.events.map((e) => e.id) : []))));
    const mine = ids(stream);
    expect([...ids(other)].some((id) => mine.has(id))).toBe(false);
  });

  it('can resume at any person and produce the same people', () => {
    const tail = [...generatePeople(config, 40)];
    expect(JSON.stringify(tail)).toBe(JSON.stringify(stream.filter((p) => p.index >= 40)));
  });

  it('speaks the ingestion contract, within the batch size and the window', () => {
    const small = take({ ...config, batchSize: 20 });
    const cal = new LocalCalendar(config.timezone, config.endDate, config.days);
    const ids = new Set<string>();
    for (const person of small) {
      for (const r of person.requests) {
        if (r.kind === 'identify') {
          expect(IdentifyRequest.safeParse(r.body).success).toBe(true);
          expect(r.body.customerId).toBe(person.customerId);
          continue;
        }
        if (r.kind === 'profile') {
          expect(ProfileRequest.safeParse(r.body).success).toBe(true);
          expect(Object.keys(r.body.tags ?? {}).sort()).toEqual(['favourite_category', 'loyalty_tier']);
          continue;
        }
        expect(IngestBatch.safeParse(r.body).success).toBe(true);
        expect(r.body.events.length).toBeGreaterThan(0);
        expect(r.body.events.length).toBeLessThanOrEqual(20);
        expect(person.deviceIds).toContain(r.body.device.id);
        for (const e of r.body.events) {
          expect(IngestEvent.safeParse(e).success).toBe(true);
          expect(eventNameProblem(e.name)).toBeNull();
          expect(e.time).toBeGreaterThanOrEqual(cal.dayStart(0));
          expect(e.time).toBeLessThan(cal.end);
          expect(ids.has(e.id)).toBe(false);
          ids.add(e.id);
        }
      }
    }
  });

  it('sends nothing after `now`, and the same before it', () => {
    const now = Date.parse('2026-11-05T15:00:00Z');
    const cut = take({ ...config, now });
    const times = cut.flatMap((p) => p.requests.flatMap((r) => (r.kind === 'batch' ? r.body.events.map((e) => e.time) : [])));
    expect(Math.max(...times)).toBeLessThan(now);
    const before = (s: GeneratedPerson[]) => s.flatMap((p) => p.requests.flatMap((r) => (r.kind === 'batch' ? r.body.events.filter((e) => e.time < now).map((e) => e.id) : []))).sort();
    expect(before(cut)).toEqual(before(stream));
  });

  it('keeps a realistic mix: funnels narrow, organic and paid sources, sessions open and close, some people sign in and come back', () => {
    const expected = new ExpectedCounts(config.timezone);
    for (const p of take({ ...config, people: 1000 })) expected.addPerson(p);
    const n = (name: string) => expected.events(name);
    expect(n('product_view')).toBeGreaterThan(n('add_to_cart'));
    expect(n('add_to_cart')).toBeGreaterThan(n('checkout'));
    expect(n('checkout')).toBeGreaterThan(n('gd_transaction'));
    expect(n('gd_transaction')).toBeGreaterThan(0);
    expect(Math.abs(n('gd_start_session') - n('gd_end_session'))).toBeLessThan(n('gd_start_session') * 0.01);
    expect(n('gd_start_session')).toBeGreaterThan(2 * expected.people);
    expect(n('gd_uninstall')).toBeGreaterThan(0);
    expect(n('gd_reinstall')).toBeGreaterThan(0);
    expect(n('gd_register')).toBe(n('gd_login'));
    expect(expected.identifiedPeople / expected.people).toBeGreaterThan(0.2);
    expect([...expected.tagValues('loyalty_tier').keys()].sort()).toEqual(['bronze', 'gold', 'silver']);
    expect([...expected.tagValues('loyalty_tier').values()].reduce((a, b) => a + b, 0)).toBe(expected.identifiedPeople);
    expect(expected.peopleWithBirthday).toBeGreaterThan(0);
    const sources = expected.breakdown('source', 'gd_install');
    const organic = (sources.get(ORGANIC_SOURCE) ?? 0) / n('gd_install');
    expect(organic).toBeGreaterThan(0.3);
    expect(organic).toBeLessThan(0.55);
    expect(sources.size).toBeGreaterThan(4);
    expect(expected.breakdown('country', 'gd_start_session').size).toBeGreaterThan(8);
    expect(expected.breakdown('appVersion', 'gd_start_session').size).toBeGreaterThan(1);
  });
});

/** A deliberately plain recount: every event in one array, days from toLocaleDateString, people by two passes. */
function bruteForce(people: GeneratedPerson[], timezone: string) {
  const customer = new Map<string, string>();
  for (const p of people) for (const r of p.requests) if (r.kind === 'identify') customer.set(r.body.device.id, r.body.customerId);
  const personOf = (device: string) => customer.get(device) ?? device;
  const rows = people.flatMap((p) => p.requests.flatMap((r) => (r.kind === 'batch'
    ? r.body.events.map((e) => ({ ...e, person: personOf(r.body.device.id), country: r.body.device.country ?? '', day: new Date(e.time).toLocaleDateString('sv-SE', { timeZone: timezone }) }))
    : [])));
  const allPeople = new Set(people.flatMap((p) => p.requests.map((r) => personOf(r.body.device.id))));
  const tiers = new Map<string, string>();
  for (const p of people) for (const r of p.requests) if (r.kind === 'profile' && r.body.tags?.loyalty_tier) tiers.set(personOf(r.body.device.id), String(r.body.tags.loyalty_tier));
  return { rows, people: allPeople.size, tiers };
}

describe('expected counts', () => {
  it('match a brute-force recount of the stream', () => {
    const expected = new ExpectedCounts(config.timezone);
    for (const p of stream) expected.addPerson(p);
    const brute = bruteForce(stream, config.timezone);
    expect(expected.totalEvents).toBe(brute.rows.length);
    expect(expected.people).toBe(brute.people);
    const tierCounts = new Map<string, number>();
    for (const tier of brute.tiers.values()) tierCounts.set(tier, (tierCounts.get(tier) ?? 0) + 1);
    expect(expected.tagValues('loyalty_tier')).toEqual(tierCounts);
    const names = [...new Set(brute.rows.map((r) => r.name))].sort();
    expect(expected.eventNames()).toEqual(names);
    const days = [...new Set(brute.rows.map((r) => r.day))].sort();
    expect(expected.days()).toEqual(days);
    expect(days[0]! >= addDays(config.endDate, -(config.days - 1)) && days.at(-1)! <= config.endDate).toBe(true);
    for (const name of names) {
      const ofName = brute.rows.filter((r) => r.name === name);
      expect(expected.events(name)).toBe(ofName.length);
      expect(expected.uniquePeople(name)).toBe(new Set(ofName.map((r) => r.person)).size);
      expect(expected.revenue(name)).toBeCloseTo(ofName.reduce((s, r) => s + (r.revenue ?? 0), 0), 6);
      for (const day of days) {
        const cell = ofName.filter((r) => r.day === day);
        expect(expected.events(name, day)).toBe(cell.length);
        expect(expected.uniquePeople(name, day)).toBe(new Set(cell.map((r) => r.person)).size);
      }
      const countries = new Map<string, number>();
      for (const r of ofName) countries.set(r.country, (countries.get(r.country) ?? 0) + 1);
      expect(expected.breakdown('country', name)).toEqual(countries);
    }
  });

  it('counts a device identified on a reinstall as the same person', () => {
    const reinstalled = take({ ...config, people: 1000 }).find((p) => p.customerId && p.deviceIds.length > 1 && p.requests.filter((r) => r.kind === 'identify').length > 1);
    expect(reinstalled).toBeDefined();
    const expected = new ExpectedCounts(config.timezone);
    expected.addPerson(reinstalled!);
    expect(expected.people).toBe(1);
    expect(expected.devices.size).toBe(reinstalled!.deviceIds.length);
  });
});
