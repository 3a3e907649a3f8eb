/**
 * One simulated person's life in the window, as a timeline of events and identify calls per device.
 *
 * The model (plausible for a shopping app, tuned by eye, not fitted to data):
 * - 20% installed before the window (loyal users, install not in the window), the rest install
 *   inside it, more towards its end (growth) and on weekends;
 * - engagement is log-normal; the chance to come back on day k after install decays as
 *   (k+1)^-0.6 (about 30% on day 1, 12% on day 7 for a median person); each person stops after a
 *   geometric number of days; 30% of those uninstall, and 30% of the uninstallers reinstall later
 *   on the same phone (same advertising id, new SDK install id), mostly through retargeting;
 * - 1 + Poisson sessions per active day, started at local hours with an evening peak; a session is
 *   start, home screen, browsing (search, product views), sometimes cart, checkout and a purchase,
 *   end; about 40% register once (register, first login, identify with customer id and e-mail),
 *   registered people sometimes log in again (gd_login2), and identify each new install; after the
 *   first identify the app sets the profile (name attributes, a birthday for 60%) and two user tags.
 */
import { builtInEventName, SCREEN_EVENT } from '@gd/shared';
import type { LocalCalendar } from './calendar.ts';
import {
  CATEGORIES, COUNTRIES, CURRENCY_RATE, HOURS, MODELS, OS_VERSIONS, RELEASES, RETARGETING, SEARCHES, SOURCES, namesOf,
  type AppOs, type Country, type Source,
} from './catalogue.ts';
import { Random, type WeightedList } from './random.ts';
import type { GeneratedEvent } from './types.ts';

const DAY_MS = 86_400_000;
const ev = {
  install: builtInEventName('install'), reinstall: builtInEventName('reinstall'), uninstall: builtInEventName('uninstall'),
  start: builtInEventName('start_session'), end: builtInEventName('end_session'), register: builtInEventName('register'),
  login: builtInEventName('login'), login2: builtInEventName('login2'), transaction: builtInEventName('transaction'),
};

export interface World {
  seed: number;
  seedTag: string;
  appOs: AppOs;
  cal: LocalCalendar;
  /** Nothing at or after this instant is kept. */
  until: number;
  /** Install day weights inside the window. */
  installDays: WeightedList<number>;
}

export interface SimDevice {
  id: string;
  os: AppOs;
  osVersion: string;
  model: string;
  carrier: string;
  country: Country;
  city: string;
  idfa?: string;
  idfv?: string;
  gaid?: string;
  pushToken?: string;
  pushEnabled: boolean;
  /** When it was installed, and after how many days its owner takes a new release (null: never). */
  installedAt: number;
  updateLagDays: number | null;
}

export type TimelineItem =
  | { kind: 'event'; device: number; event: GeneratedEvent }
  | { kind: 'identify'; device: number; time: number; customerId: string; email: string }
  | { kind: 'profile'; device: number; time: number; birthday: string | null; name: { first: string; last: string }; tags: Record<string, string> };

export interface Simulated {
  customerId: string | null;
  email: string;
  devices: SimDevice[];
  items: TimelineItem[];
}

/** Start of local day `i` of the window, extrapolated by 24-hour days outside it. */
function dayStart(cal: LocalCalendar, i: number): number {
  if (i < 0) return cal.dayStart(0) + i * DAY_MS;
  if (i >= cal.days.length) return cal.end + (i - cal.days.length) * DAY_MS;
  return cal.dayStart(i);
}

/** The app version a device runs at `time`: the one installed, or a later release once its owner updates. */
export function appVersionAt(world: World, device: SimDevice, time: number): string {
  let version = RELEASES[0]?.version ?? '';
  const last = world.cal.days.length - 1;
  for (const r of RELEASES) {
    const releasedAt = dayStart(world.cal, last - r.daysBeforeEnd) + 10 * 3_600_000;
    if (releasedAt <= device.installedAt) version = r.version;
    else if (device.updateLagDays !== null && releasedAt + device.updateLagDays * DAY_MS <= time) version = r.version;
  }
  return version;
}

interface Segment { device: number; fromDay: number; installDay: number; lifeDays: number; engagement: number; source: Source; campaign: string | undefined; kind: 'install' | 'reinstall' | 'existing' }

class PersonSim {
  readonly rng: Random;
  readonly items: TimelineItem[] = [];
  readonly devices: SimDevice[] = [];
  private seq = 0;
  private sessions = 0;
  loggedIn = false;
  registered: boolean;
  readonly willRegister: boolean;
  readonly registerAfter: number;
  readonly customerId: string;
  readonly email: string;
  readonly name: { first: string; last: string };
  readonly buyer: number;
  private readonly identified = new Set<number>();
  private readonly world: World;
  private readonly index: number;
  readonly country: Country;

  constructor(world: World, index: number) {
    this.world = world;
    this.index = index;
    this.rng = new Random(world.seed, index + 1);
    this.country = this.rng.pick(COUNTRIES);
    // Names come from a stream of their own, so they do not shift the behaviour's randomness.
    const names = new Random(world.seed ^ 0x6e616d65, index + 1);
    const pool = namesOf(this.country.code);
    this.name = { first: names.oneOf(pool.first), last: names.oneOf(pool.last) };
    const ascii = (s: string) => s.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
    this.customerId = `${world.seedTag.toUpperCase()}-${String(index).padStart(7, '0')}`;
    this.email = `${ascii(this.name.first)}.${ascii(this.name.last)}.${world.seedTag}${index.toString(36)}@example.com`;
    this.registered = false;
    this.willRegister = this.rng.chance(0.4);
    this.registerAfter = this.rng.geometric(0.5);
    this.buyer = this.rng.logNormal(0.8);
  }

  device(n: number): SimDevice {
    const device = this.devices[n];
    if (!device) throw new Error(`no device ${n}`);
    return device;
  }

  newDevice(installedAt: number, previous?: SimDevice): number {
    const { rng, world } = this;
    const os = world.appOs;
    const n = this.devices.length;
    const device: SimDevice = previous
      ? { ...previous, id: `gd-${world.seedTag}-${this.index.toString(36)}-${n}`, installedAt, idfv: os === 'iOS' ? rng.uuid() : undefined }
      : {
        id: `gd-${world.seedTag}-${this.index.toString(36)}-${n}`, os, osVersion: rng.pick(OS_VERSIONS[os]), model: rng.pick(MODELS[os]),
        carrier: rng.oneOf(this.country.carriers), country: this.country, city: rng.oneOf(this.country.cities),
        pushEnabled: rng.chance(os === 'iOS' ? 0.55 : 0.8), installedAt,
        updateLagDays: rng.chance(0.12) ? null : rng.geometric(0.3),
        ...(os === 'iOS'
          ? { idfv: rng.uuid(), ...(rng.chance(0.35) ? { idfa: rng.uuid() } : {}) }
          : rng.chance(0.92) ? { gaid: rng.uuid().toLowerCase() } : {}),
      };
    if (device.pushEnabled) device.pushToken = `${os === 'iOS' ? 'apns' : 'fcm'}-${rng.uuid().replaceAll('-', '').toLowerCase()}`;
    this.devices.push(device);
    return n;
  }

  event(device: number, time: number, name: string, seg: Segment, extra: Partial<GeneratedEvent> = {}): number {
    const id = `${this.world.seedTag}.${this.index.toString(36)}.${(this.seq++).toString(36)}`;
    const event: GeneratedEvent = { id, name, time, ...extra };
    event.source = seg.source.name;
    if (seg.campaign) event.campaign = seg.campaign;
    this.items.push({ kind: 'event', device, event });
    return time;
  }

  /** One session from `start`; answers when it ended. */
  session(seg: Segment, start: number, first: boolean): number {
    const { rng } = this;
    const d = seg.device;
    const sessionId = `${this.world.seedTag}.${this.index.toString(36)}.s${(this.sessions++).toString(36)}`;
    let t = start;
    const step = (min = 3, max = 40) => (t += rng.int(min, max) * 1000 + rng.int(0, 999));
    const screen = (name: string) => this.event(d, step(), SCREEN_EVENT, seg, { sessionId, properties: { screen: name } });
    if (first && seg.kind !== 'existing') this.event(d, t, seg.kind === 'install' ? ev.install : ev.reinstall, seg);
    this.event(d, step(1, 2), ev.start, seg, { sessionId });
    screen(first && seg.kind === 'install' ? 'onboarding' : 'home');

    if (!this.registered && this.willRegister && this.sessions > this.registerAfter) {
      screen('register');
      this.event(d, step(20, 90), ev.register, seg, { sessionId, properties: { method: rng.chance(0.6) ? 'email' : 'apple_google' } });
      this.event(d, step(1, 3), ev.login, seg, { sessionId });
      this.registered = this.loggedIn = true;
      this.identify(d, t);
    } else if (this.registered && (!this.identified.has(d) || rng.chance(0.2))) {
      this.event(d, step(2, 10), this.loggedIn ? ev.login2 : ev.login, seg, { sessionId });
      this.loggedIn = true;
      if (!this.identified.has(d)) this.identify(d, t);
    }

    if (rng.chance(0.3)) {
      screen('search');
      this.event(d, step(4, 20), 'search', seg, { sessionId, properties: { query: rng.oneOf(SEARCHES) } });
    }
    const views = Math.min(12, rng.geometric(0.3) + (rng.chance(0.5) ? 1 : 0));
    const cart: number[] = [];
    const rate = CURRENCY_RATE[this.country.currency];
    for (let v = 0; v < views; v++) {
      const category = rng.pick(CATEGORIES);
      const productId = `SKU-${category.name.slice(0, 3).toUpperCase()}-${String(Math.floor(Math.pow(rng.next(), 2) * 300) + 1).padStart(4, '0')}`;
      const cents = Math.round((category.minPrice + Math.pow(rng.next(), 2) * (category.maxPrice - category.minPrice)) * rate * 100 - 1);
      screen('product');
      this.event(d, step(2, 30), 'product_view', seg, { sessionId, properties: { category: category.name, product_id: productId, price: cents / 100 } });
      if (rng.chance(Math.min(0.6, 0.12 * this.buyer))) {
        cart.push(cents);
        this.event(d, step(5, 60), 'add_to_cart', seg, { sessionId, properties: { product_id: productId, price: cents / 100, quantity: 1 } });
      }
    }
    if (cart.length && rng.chance(0.55)) {
      const total = cart.reduce((a, b) => a + b, 0);
      screen('cart');
      this.event(d, step(10, 60), 'checkout', seg, { sessionId, properties: { items: cart.length, value: total / 100 } });
      if (rng.chance(0.7)) {
        this.event(d, step(20, 120), ev.transaction, seg, {
          sessionId, revenue: total / 100, currency: this.country.currency,
          properties: { order_id: `o-${sessionId}`, items: cart.length, payment: rng.chance(0.7) ? 'card' : 'wallet' },
        });
        screen('order_confirmation');
      }
    }
    if (rng.chance(0.12)) screen(rng.chance(0.5) ? 'profile' : 'settings');
    const end = step(5, 90);
    this.event(d, end, ev.end, seg, { sessionId, properties: { duration_s: Math.round((end - start) / 1000) } });
    return end;
  }

  identify(device: number, time: number): void {
    const first = this.identified.size === 0;
    this.identified.add(device);
    this.items.push({ kind: 'identify', device, time: time + 1, customerId: this.customerId, email: this.email });
    if (!first) return;
    // Once signed in, the app sets the profile: a birthday for some, and user tags.
    const { rng } = this;
    const birthday = rng.chance(0.6) ? `${rng.int(1960, 2007)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}` : null;
    const tier = this.buyer > 1.8 ? 'gold' : this.buyer > 0.9 ? 'silver' : 'bronze';
    this.items.push({ kind: 'profile', device, time: time + 2, birthday, name: this.name, tags: { loyalty_tier: tier, favourite_category: rng.pick(CATEGORIES).name } });
  }
}

/** The chance to be active on day k after install, before the weekend bump. */
const activeChance = (k: number, engagement: number) => Math.min(0.9, engagement * 0.45 * Math.pow(k + 1, -0.6));

export function simulatePerson(world: World, index: number): Simulated {
  const sim = new PersonSim(world, index);
  const { rng } = sim;
  const days = world.cal.days.length;
  const existing = rng.chance(0.2);
  const installDay = existing ? -rng.int(1, 60) : rng.pick(world.installDays);
  let engagement = rng.logNormal(0.7) * (existing ? 1.6 : 1);
  const hazard = () => Math.min(0.5, Math.max(0.01, 0.06 / engagement));
  const installHour = (day: number) => dayStart(world.cal, day) + Math.floor(((rng.pick(HOURS) + rng.next()) / 24) * (day >= 0 && day < days ? world.cal.dayLength(day) : DAY_MS));
  if (existing) sim.registered = sim.loggedIn = sim.willRegister && rng.chance(0.8);

  const source = rng.pick(SOURCES);
  let seg: Segment | null = {
    device: sim.newDevice(installHour(installDay)), fromDay: Math.max(0, installDay), installDay,
    lifeDays: (existing ? -installDay : 0) + rng.geometric(hazard()), engagement, source,
    campaign: source.campaigns.length ? rng.oneOf(source.campaigns) : undefined, kind: existing ? 'existing' : 'install',
  };
  while (seg) {
    let lastActive = -1;
    let ended = 0;
    const current: Segment = seg;
    seg = null;
    for (let day = current.fromDay; day < days; day++) {
      const k = day - current.installDay;
      if (k > current.lifeDays) break;
      const first = day === current.fromDay && current.kind !== 'existing';
      const weekend = world.cal.weekday(day) % 6 === 0 ? 1.15 : 1;
      if (!first && !rng.chance(activeChance(k, current.engagement) * weekend)) continue;
      lastActive = day;
      const count = Math.min(5, 1 + rng.poisson(0.4 * current.engagement));
      const starts = Array.from({ length: count }, (_, i) => (first && i === 0 ? sim.device(current.device).installedAt - dayStart(world.cal, day) : Math.floor(((rng.pick(HOURS) + rng.next()) / 24) * world.cal.dayLength(day))))
        .sort((a, b) => a - b);
      starts.forEach((offset, i) => {
        const start = Math.max(dayStart(world.cal, day) + offset, ended + 60_000 + rng.int(0, 600_000));
        ended = sim.session(current, start, first && i === 0);
      });
    }
    // Uninstall some days after the last activity, and sometimes come back on the same phone.
    const lastDay = lastActive >= 0 ? lastActive : current.fromDay;
    if (lastActive < 0 || !rng.chance(0.3)) break;
    const uninstallDay = lastDay + 1 + rng.geometric(0.4);
    if (uninstallDay >= days) break;
    const uninstallAt = Math.max(ended + 60_000, dayStart(world.cal, uninstallDay) + Math.floor(rng.next() * world.cal.dayLength(uninstallDay)));
    sim.event(current.device, uninstallAt, ev.uninstall, current);
    if (!rng.chance(0.3)) break;
    const back = uninstallDay + 2 + rng.geometric(0.2);
    if (back >= days) break;
    engagement *= 0.8;
    const from = rng.pick(RETARGETING);
    const device = sim.newDevice(Math.max(uninstallAt + 3_600_000, installHour(back)), sim.device(current.device));
    seg = {
      device, fromDay: back, installDay: back, lifeDays: rng.geometric(hazard()), engagement, source: from,
      campaign: from.campaigns.length ? rng.oneOf(from.campaigns) : undefined, kind: 'reinstall',
    };
  }
  const items = sim.items.filter((item) => (item.kind === 'event' ? item.event.time : item.time) < world.until);
  const identifies = items.some((i) => i.kind === 'identify');
  return { customerId: identifies ? sim.customerId : null, email: sim.email, devices: sim.devices, items };
}
