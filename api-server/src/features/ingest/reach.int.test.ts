/**
 * The reach facts kept on the person row (migration 017) against real Postgres, through the
 * ingestion API and through direct device writes: `push_devices` counts the person's devices with a
 * push token and push enabled whichever path writes a device, also when two transactions change
 * one person's devices at once; `time_zone` follows the profile's `timezone` attribute.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1', INGEST_RATE_BURST: '1000' });
});
afterAll(async () => {
  await api.stop();
});

async function freshApp() {
  const { client } = await registerAccount(api);
  return createTestApp(client, {});
}
const event = (name: string) => ({ id: randomUUID(), name, time: new Date().toISOString() });
const device = (over: Record<string, unknown> = {}) => ({ id: randomUUID(), os: 'Android', ...over });

/** Every live person of the app: its counter, and the count the devices give. */
async function reach(appId: string) {
  const { rows } = await api.deps.db.query<{ id: string; customer_id: string | null; push_devices: number; counted: number }>(
    `SELECT p.id::text, p.customer_id, p.push_devices,
            (SELECT count(*)::int FROM devices d WHERE d.app_id = p.app_id AND d.person_id = p.id AND d.push_token <> '' AND d.push_enabled IS TRUE) AS counted
       FROM people p WHERE p.app_id = $1 AND p.merged_into IS NULL ORDER BY p.id`,
    [appId],
  );
  return rows;
}

describe('push reach on the person', () => {
  it('follows tokens, push settings, identify merges and device moves made through ingestion', async () => {
    const app = await freshApp();
    const phone = device({ pushToken: 'tok-phone', pushEnabled: true });
    const tablet = device({ pushToken: 'tok-tablet', pushEnabled: true });
    const laptop = device();
    await ingest(api, app.appKey, 'ingestIdentify', { device: phone, customerId: 'ana' });
    await ingest(api, app.appKey, 'ingestBatch', { device: tablet, events: [event('browse')] });
    await ingest(api, app.appKey, 'ingestBatch', { device: laptop, events: [event('browse')] });
    expect((await reach(app.id)).map((r) => r.push_devices)).toEqual([1, 1, 0]);

    // The anonymous tablet merges into ana: its device and its reach move with it.
    await ingest(api, app.appKey, 'ingestIdentify', { device: tablet, customerId: 'ana' });
    let people = await reach(app.id);
    expect(people.find((p) => p.customer_id === 'ana')?.push_devices).toBe(2);

    // Push turned off on the phone, then a batch that says nothing of push (the stored setting stays).
    await ingest(api, app.appKey, 'ingestBatch', { device: { ...phone, pushEnabled: false }, events: [event('browse')] });
    await ingest(api, app.appKey, 'ingestBatch', { device: { id: phone.id, os: 'Android' }, events: [event('browse')] });
    expect((await reach(app.id)).find((p) => p.customer_id === 'ana')?.push_devices).toBe(1);

    // The tablet signs in as bob: the device (and its reach) moves to bob, ana keeps none.
    await ingest(api, app.appKey, 'ingestIdentify', { device: tablet, customerId: 'bob' });
    people = await reach(app.id);
    expect(people.find((p) => p.customer_id === 'ana')?.push_devices).toBe(0);
    expect(people.find((p) => p.customer_id === 'bob')?.push_devices).toBe(1);
    // The laptop gets a token and push enabled later.
    await ingest(api, app.appKey, 'ingestBatch', { device: { ...laptop, pushToken: 'tok-laptop', pushEnabled: true }, events: [event('browse')] });
    people = await reach(app.id);
    expect(people.every((p) => p.push_devices === p.counted)).toBe(true);
    expect(people.map((p) => p.push_devices).sort()).toEqual([0, 1, 1]);
  });

  it('counts an empty token as no token, and a deleted device no more', async () => {
    const app = await freshApp();
    const dev = device({ pushToken: 'tok', pushEnabled: true });
    await ingest(api, app.appKey, 'ingestBatch', { device: dev, events: [event('browse')] });
    expect((await reach(app.id))[0]?.push_devices).toBe(1);
    await api.deps.db.query(`UPDATE devices SET push_token = '' WHERE app_id = $1`, [app.id]);
    expect((await reach(app.id))[0]?.push_devices).toBe(0);
    await api.deps.db.query(`UPDATE devices SET push_token = 'again' WHERE app_id = $1`, [app.id]);
    expect((await reach(app.id))[0]?.push_devices).toBe(1);
    await api.deps.db.query('DELETE FROM devices WHERE app_id = $1', [app.id]);
    expect((await reach(app.id))[0]?.push_devices).toBe(0);
  });

  it('adds up when two transactions change two devices of one person at the same time', async () => {
    const app = await freshApp();
    const a = device({ pushToken: 'tok-a', pushEnabled: true });
    const b = device({ pushToken: 'tok-b', pushEnabled: false });
    await ingest(api, app.appKey, 'ingestIdentify', { device: a, customerId: 'cara' });
    await ingest(api, app.appKey, 'ingestBatch', { device: b, events: [event('browse')] });
    await ingest(api, app.appKey, 'ingestIdentify', { device: b, customerId: 'cara' });
    expect((await reach(app.id)).map((p) => p.push_devices)).toEqual([1]);

    // One turns push off on A while the other turns it on for B, both open at once: each
    // transaction sees only its own change, yet the person ends with exactly one.
    const [one, two] = await Promise.all([api.deps.db.connect(), api.deps.db.connect()]);
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      await one.query('UPDATE devices SET push_enabled = false WHERE app_id = $1 AND device_key = $2', [app.id, a.id]);
      const second = two.query('UPDATE devices SET push_enabled = true WHERE app_id = $1 AND device_key = $2', [app.id, b.id]);
      await one.query('COMMIT');
      await second;
      await two.query('COMMIT');
    } finally {
      one.release();
      two.release();
    }
    expect(await reach(app.id)).toEqual([expect.objectContaining({ customer_id: 'cara', push_devices: 1, counted: 1 })]);
  });
});

describe('time zone on the person', () => {
  it("is the profile's timezone attribute, and none when it is removed or empty", async () => {
    const app = await freshApp();
    const dev = device();
    const zone = async () => (await api.deps.db.query<{ time_zone: string | null }>('SELECT time_zone FROM people WHERE app_id = $1', [app.id])).rows[0]?.time_zone;
    await ingest(api, app.appKey, 'ingestProfile', { device: dev, profile: { attributes: { timezone: 'Europe/Madrid', tier: 'vip' } } });
    expect(await zone()).toBe('Europe/Madrid');
    await ingest(api, app.appKey, 'ingestProfile', { device: dev, profile: { attributes: { timezone: '' } } });
    expect(await zone()).toBeNull();
    await ingest(api, app.appKey, 'ingestProfile', { device: dev, profile: { attributes: { timezone: 'America/Bogota' } } });
    expect(await zone()).toBe('America/Bogota');
    await ingest(api, app.appKey, 'ingestProfile', { device: dev, profile: { attributes: { timezone: null } } });
    expect(await zone()).toBeNull();
  });
});
