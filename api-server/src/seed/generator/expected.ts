/**
 * What the product should show after a generated stream went through ingestion, computed from the
 * requests alone: never from the generator's internals and never from the database. Local days
 * come from Intl in the app's time zone (not from the generator's calendar), people from the
 * identify calls (devices identified with one customer id are one person; a device never
 * identified is a person of its own), breakdown values from the batch's device context and the
 * event's source, as ingestion copies them onto each event.
 *
 * Meant for test-sized and demo-sized streams: it keeps sets of device ids per event and day.
 */
import type { GeneratedPerson, GeneratedRequest } from './types.ts';

export type Dimension = 'country' | 'source' | 'os' | 'appVersion';
/** Missing breakdown values, as the rollup stores them. */
export const EMPTY_VALUE = '';

interface Tally { events: number; revenueCents: number; devices: Set<string> }
const tally = (): Tally => ({ events: 0, revenueCents: 0, devices: new Set() });

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** YYYY-MM-DD of an instant in `timezone`; offsets are whole quarter hours, so 15-minute buckets are exact. */
export function localDayFormatter(timezone: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const cache = new Map<number, string>();
  return (ms) => {
    const bucket = Math.floor(ms / 900_000);
    let day = cache.get(bucket);
    if (day === undefined) {
      day = format.format(new Date(bucket * 900_000));
      if (cache.size > 100_000) cache.clear();
      cache.set(bucket, day);
    }
    return day;
  };
}

export class ExpectedCounts {
  /** Per event name: totals and the devices that sent it. */
  readonly byName = new Map<string, Tally>();
  /** Per event name, per local day. */
  readonly byNameDay = new Map<string, Map<string, Tally>>();
  /** Per dimension, per event name, per value: events. */
  readonly byDimension: Record<Dimension, Map<string, Map<string, number>>> = {
    country: new Map(), source: new Map(), os: new Map(), appVersion: new Map(),
  };
  readonly devices = new Set<string>();
  readonly eventIds = new Set<string>();
  totalEvents = 0;
  identifies = 0;
  private readonly customerOf = new Map<string, string>();
  private readonly tagsOf = new Map<string, Record<string, string | number | null>>();
  private readonly birthdayOf = new Map<string, string>();
  private readonly dayOf: (ms: number) => string;

  constructor(timezone: string) {
    this.dayOf = localDayFormatter(timezone);
  }

  addPerson(person: GeneratedPerson): void {
    for (const request of person.requests) this.add(request);
  }

  add(request: GeneratedRequest): void {
    const device = request.body.device;
    this.devices.add(device.id);
    if (request.kind === 'identify') {
      this.identifies++;
      this.customerOf.set(device.id, request.body.customerId);
      return;
    }
    if (request.kind === 'profile') {
      this.tagsOf.set(device.id, { ...this.tagsOf.get(device.id), ...request.body.tags });
      if (request.body.profile?.birthday) this.birthdayOf.set(device.id, request.body.profile.birthday);
      return;
    }
    for (const e of request.body.events) {
      if (this.eventIds.has(e.id)) throw new Error(`event id ${e.id} generated twice`);
      this.eventIds.add(e.id);
      this.totalEvents++;
      const cents = e.revenue === undefined ? 0 : Math.round(e.revenue * 100);
      const day = this.dayOf(e.time);
      const days = getOrAdd(this.byNameDay, e.name, () => new Map<string, Tally>());
      for (const t of [getOrAdd(this.byName, e.name, tally), getOrAdd(days, day, tally)]) {
        t.events++;
        t.revenueCents += cents;
        t.devices.add(device.id);
      }
      const values: Record<Dimension, string | undefined> = { country: device.country, source: e.source, os: device.os, appVersion: device.appVersion };
      for (const dim of Object.keys(values) as Dimension[]) {
        const value = values[dim] ?? EMPTY_VALUE;
        const perName = getOrAdd(this.byDimension[dim], e.name, () => new Map<string, number>());
        perName.set(value, (perName.get(value) ?? 0) + 1);
      }
    }
  }

  /** The person a device ends up as: its customer id once identified, else the device itself. */
  personOf(deviceId: string): string {
    const customer = this.customerOf.get(deviceId);
    return customer === undefined ? `device:${deviceId}` : `customer:${customer}`;
  }

  private peopleIn(devices: Iterable<string>): number {
    const people = new Set<string>();
    for (const d of devices) people.add(this.personOf(d));
    return people.size;
  }

  /** People the app has (not merged away). */
  get people(): number {
    return this.peopleIn(this.devices);
  }

  get identifiedPeople(): number {
    return new Set(this.customerOf.values()).size;
  }

  /** People per value of a user tag (values set through profile requests; the last one set wins). */
  tagValues(tag: string): Map<string, number> {
    const valueOf = new Map<string, string>();
    for (const [device, tags] of this.tagsOf) {
      const value = tags[tag];
      if (value !== undefined && value !== null) valueOf.set(this.personOf(device), String(value));
    }
    const counts = new Map<string, number>();
    for (const value of valueOf.values()) counts.set(value, (counts.get(value) ?? 0) + 1);
    return counts;
  }

  /** People whose birthday was set. */
  get peopleWithBirthday(): number {
    return this.peopleIn(this.birthdayOf.keys());
  }

  eventNames(): string[] {
    return [...this.byName.keys()].sort();
  }

  days(): string[] {
    const days = new Set<string>();
    for (const perDay of this.byNameDay.values()) for (const d of perDay.keys()) days.add(d);
    return [...days].sort();
  }

  events(name: string, day?: string): number {
    return (day === undefined ? this.byName.get(name) : this.byNameDay.get(name)?.get(day))?.events ?? 0;
  }

  /** Revenue in currency units (sum over currencies, as the rollup stores it), exact to the cent. */
  revenue(name: string, day?: string): number {
    return ((day === undefined ? this.byName.get(name) : this.byNameDay.get(name)?.get(day))?.revenueCents ?? 0) / 100;
  }

  uniquePeople(name: string, day?: string): number {
    const t = day === undefined ? this.byName.get(name) : this.byNameDay.get(name)?.get(day);
    return t ? this.peopleIn(t.devices) : 0;
  }

  breakdown(dim: Dimension, name: string): Map<string, number> {
    return this.byDimension[dim].get(name) ?? new Map<string, number>();
  }
}
