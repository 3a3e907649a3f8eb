/**
 * Loads a generated behaviour data set straight into Postgres with COPY (people, devices, events),
 * then builds the daily rollup with gd_rebuild_event_rollup(), the SQL function that computes it
 * from the events exactly as ingestion keeps it. For benchmarks that need millions of events in
 * minutes: the rows are those ingestion would store for the same requests (person per customer
 * id, or per device never identified; breakdown values copied from the device context), except
 * that the id registry (event_ids), sessions, lifecycle events and merged-away anonymous people
 * are not written.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DeviceContext } from '@gd/shared';
import { generatePeople, type GeneratedPerson, type GeneratorConfig } from '../../../api-server/src/seed/generator/index.ts';

export interface LoadOptions {
  config: GeneratorConfig;
  /** Stop after exactly this many events (the last person is cut short). */
  maxEvents: number;
  appId: string;
  progress?: (events: number) => void;
  /** Rewrites each generated person before loading (a benchmark set thins their events). */
  transform?: (person: GeneratedPerson) => GeneratedPerson;
}

export interface LoadResult { events: number; people: number; devices: number }

const NULL = '\\N';
/** A value for COPY's text format. */
function text(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return NULL;
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : s;
}
const row = (values: (string | number | boolean | null | undefined)[]) => `${values.map(text).join('\t')}\n`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A COPY stream with batched writes and back-pressure. */
class CopyWriter {
  private buffer: string[] = [];
  private readonly stream: Writable;
  private readonly done: Promise<void>;
  constructor(client: pg.PoolClient | pg.Client, sql: string) {
    this.stream = client.query(copyFrom(sql));
    this.done = new Promise((resolve, reject) => {
      this.stream.on('finish', resolve);
      this.stream.on('error', reject);
    });
  }

  async push(line: string): Promise<void> {
    this.buffer.push(line);
    if (this.buffer.length < 2000) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    if (!this.stream.write(chunk)) await new Promise((resolve) => this.stream.once('drain', resolve));
  }

  async end(): Promise<void> {
    if (this.buffer.length) this.stream.write(this.buffer.join(''));
    this.stream.end();
    await this.done;
  }
}

interface PersonFacts { device: DeviceContext; installAt: number | null; registeredAt: number | null; lastSession: number | null; conversions: number; revenue: number; source: string | null; campaign: string | null; first: number }

/** Loads into an app that has no data yet; `clients` are three connections (events, people, devices). */
export async function loadGenerated(clients: [pg.Client, pg.Client, pg.Client], options: LoadOptions): Promise<LoadResult> {
  const [ev, pe, de] = clients;
  const { appId, config, maxEvents } = options;
  const firstPerson = BigInt((await ev.query<{ id: string }>("SELECT nextval('people_id_seq') AS id")).rows[0]!.id);
  const firstDevice = BigInt((await ev.query<{ id: string }>("SELECT nextval('devices_id_seq') AS id")).rows[0]!.id);
  const events = new CopyWriter(ev, `COPY events (app_id, event_time, received_at, client_id, person_id, device_id, name, properties, revenue, currency, source, campaign, session_id, country, os, app_version) FROM STDIN`);
  const people = new CopyWriter(pe, `COPY people (app_id, id, customer_id, email, device_id, os, os_version, app_version, sdk_version, carrier, country, city, install_at, registered_at, last_session_at, conversions, revenue, from_source, from_campaign, created_at, updated_at) FROM STDIN`);
  const devices = new CopyWriter(de, `COPY devices (app_id, id, device_key, person_id, idfa, idfv, gaid, push_token, push_enabled, os, os_version, app_version, sdk_version, model, first_seen_at, last_seen_at) FROM STDIN`);
  let eventCount = 0, personCount = 0, deviceCount = 0;

  const loadPerson = async (person: GeneratedPerson) => {
    const facts = new Map<string, PersonFacts>();
    const personOfDevice = new Map<string, string>();
    const deviceSeen = new Map<string, { id: string; context: DeviceContext; first: number; last: number; person: string }>();
    const newPerson = () => String(firstPerson + BigInt(personCount++));
    const shared = person.customerId ? newPerson() : null;
    let email: string | null = null;
    for (const request of person.requests) {
      const d = request.body.device;
      if (request.kind === 'identify') email ??= request.body.profile?.email ?? null;
      let personId = personOfDevice.get(d.id);
      if (!personId) personOfDevice.set(d.id, (personId = shared ?? newPerson()));
      let device = deviceSeen.get(d.id);
      if (!device) deviceSeen.set(d.id, (device = { id: String(firstDevice + BigInt(deviceCount++)), context: d, first: Number.POSITIVE_INFINITY, last: 0, person: personId }));
      device.context = d;
      if (request.kind !== 'batch') continue;
      let f = facts.get(personId);
      if (!f) facts.set(personId, (f = { device: d, installAt: null, registeredAt: null, lastSession: null, conversions: 0, revenue: 0, source: null, campaign: null, first: Number.POSITIVE_INFINITY }));
      f.device = d;
      for (const e of request.body.events) {
        if (eventCount >= maxEvents) break;
        eventCount++;
        device.first = Math.min(device.first, e.time);
        device.last = Math.max(device.last, e.time);
        f.first = Math.min(f.first, e.time);
        f.source ??= e.source ?? null;
        f.campaign ??= e.campaign ?? null;
        if (e.name === 'gd_install') f.installAt ??= e.time;
        if (e.name === 'gd_register') f.registeredAt ??= e.time;
        if (e.name === 'gd_start_session') f.lastSession = e.time;
        if (e.name === 'gd_transaction') {
          f.conversions++;
          f.revenue += e.revenue ?? 0;
        }
        await events.push(row([
          appId, iso(e.time), iso(e.time + 1500), e.id, personId, device.id, e.name, JSON.stringify(e.properties ?? {}), e.revenue,
          e.currency, e.source, e.campaign, e.sessionId, d.country, d.os, d.appVersion,
        ]));
      }
    }
    for (const [id, f] of facts) {
      if (!Number.isFinite(f.first)) continue;
      const c = f.device;
      await people.push(row([
        appId, id, shared === id ? person.customerId : null, shared === id ? email : null, c.id, c.os, c.osVersion,
        c.appVersion, c.sdkVersion, c.carrier, c.country, c.city, iso(f.installAt), iso(f.registeredAt), iso(f.lastSession), f.conversions,
        f.revenue.toFixed(2), f.source, f.campaign, iso(f.first), iso(f.first),
      ]));
    }
    for (const [key, d] of deviceSeen) {
      if (!Number.isFinite(d.first)) continue;
      const c = d.context;
      await devices.push(row([
        appId, d.id, key, d.person, c.idfa, c.idfv, c.gaid, c.pushToken, c.pushEnabled, c.os, c.osVersion, c.appVersion, c.sdkVersion, c.model, iso(d.first), iso(d.last),
      ]));
    }
  };

  let reported = 0;
  for (const generated of generatePeople(config)) {
    const person = options.transform ? options.transform(generated) : generated;
    await loadPerson(person);
    if (options.progress && eventCount - reported >= 1_000_000) {
      reported = eventCount;
      options.progress(eventCount);
    }
    if (eventCount >= maxEvents) break;
  }
  await Promise.all([events.end(), people.end(), devices.end()]);
  await ev.query("SELECT setval('people_id_seq', $1), setval('devices_id_seq', $2)", [String(firstPerson + BigInt(personCount)), String(firstDevice + BigInt(deviceCount))]);
  return { events: eventCount, people: personCount, devices: deviceCount };
}

/** An ingestion key for the bench app (the API's format: gd_ and random text). */
export const benchAppKey = () => `gd_${randomBytes(18).toString('base64url')}`;
