/**
 * The generator's entry: a deterministic stream of simulated people, each with the requests their
 * devices send to the ingestion API (batches of one device's events, identify calls), in the order
 * a device sends them. People are produced one at a time, so ten million events never sit in
 * memory together. A person's randomness depends only on (seed, index): a stream can be cut,
 * resumed at any index, or split between workers and stays the same.
 */
import type { DeviceContext } from '@gd/shared';
import { LocalCalendar } from './calendar.ts';
import { SDK_VERSION } from './catalogue.ts';
import { appVersionAt, simulatePerson, type SimDevice, type World } from './person.ts';
import { WeightedList } from './random.ts';
import type { GeneratedBatch, GeneratedPerson, GeneratedRequest, GeneratorConfig } from './types.ts';

export const DEFAULT_BATCH_SIZE = 100;
/**
 * Changes whenever the same config gives other requests (a test pins the stream's fingerprint),
 * so data sets kept between runs (benchmark databases, cached bodies) know they are stale.
 */
export const GENERATOR_VERSION = 3;

export function createWorld(config: GeneratorConfig): World {
  if (!Number.isSafeInteger(config.seed) || config.seed < 0) throw new Error('seed: a non-negative integer');
  if (!Number.isInteger(config.days) || config.days < 1) throw new Error('days: at least 1');
  const cal = new LocalCalendar(config.timezone, config.endDate, config.days);
  const installDays = new WeightedList(cal.days.map((_, d) => ({
    value: d, weight: (1 + (0.8 * d) / config.days) * (cal.weekday(d) % 6 === 0 ? 1.25 : 1),
  })));
  return {
    seed: config.seed, seedTag: config.seed.toString(36), appOs: config.appOs, cal, installDays,
    until: Math.min(cal.end, config.now ?? Number.POSITIVE_INFINITY),
  };
}

export function deviceContext(device: SimDevice, appVersion: string): DeviceContext {
  const context: DeviceContext = {
    id: device.id, os: device.os, osVersion: device.osVersion, appVersion, sdkVersion: SDK_VERSION, model: device.model,
    carrier: device.carrier, country: device.country.code, city: device.city, pushEnabled: device.pushEnabled,
  };
  if (device.idfa) context.idfa = device.idfa;
  if (device.idfv) context.idfv = device.idfv;
  if (device.gaid) context.gaid = device.gaid;
  if (device.pushToken) context.pushToken = device.pushToken;
  return context;
}

/** Person `index` of the stream, or null when they did nothing inside the window. */
export function generatePerson(world: World, index: number, batchSize = DEFAULT_BATCH_SIZE): GeneratedPerson | null {
  const sim = simulatePerson(world, index);
  if (sim.items.length === 0) return null;
  const requests: GeneratedRequest[] = [];
  let batch: GeneratedBatch | null = null;
  for (const item of sim.items) {
    const device = sim.devices[item.device];
    if (!device) throw new Error(`no device ${item.device}`);
    if (item.kind !== 'event') {
      if (batch) requests.push({ kind: 'batch', body: batch });
      batch = null;
      const context = deviceContext(device, appVersionAt(world, device, item.time));
      requests.push(item.kind === 'identify'
        ? { kind: 'identify', body: { device: context, customerId: item.customerId, profile: { email: item.email } } }
        : {
          kind: 'profile',
          body: {
            device: context, tags: item.tags,
            profile: { ...(item.birthday ? { birthday: item.birthday } : {}), attributes: { first_name: item.name.first, last_name: item.name.last } },
          },
        });
      continue;
    }
    const version = appVersionAt(world, device, item.event.time);
    if (!batch || batch.device.id !== device.id || batch.device.appVersion !== version || batch.events.length >= batchSize) {
      if (batch) requests.push({ kind: 'batch', body: batch });
      batch = { device: deviceContext(device, version), events: [] };
    }
    batch.events.push(item.event);
  }
  if (batch) requests.push({ kind: 'batch', body: batch });
  return { index, customerId: sim.customerId, deviceIds: [...new Set(requests.map((r) => r.body.device.id))], requests };
}

/** Every active person of the window, in index order. */
export function* generatePeople(config: GeneratorConfig, from = 0): Generator<GeneratedPerson> {
  const world = createWorld(config);
  for (let index = from; index < config.people; index++) {
    const person = generatePerson(world, index, config.batchSize);
    if (person) yield person;
  }
}
