/**
 * Ingestion at the edges of time (issue 11, item 22): an app key used right after it was rotated,
 * in the process that rotated it and in another one that had it cached; and identical batches
 * sent at the same moment.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, endpoints } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';

let api: TestApi;
let other: TestApi;
let owner: TestClient;
beforeAll(async () => {
  // Two API processes on one database, as in production behind a load balancer.
  [api, other] = await Promise.all([startTestApi(), startTestApi()]);
  ({ client: owner } = await registerAccount(api));
});
afterAll(async () => {
  await Promise.all([api?.stop(), other?.stop()]);
});

const device = (id = randomUUID()) => ({ id, os: 'Android', osVersion: '14', appVersion: '3.2.0', country: 'ES' });
const event = (name: string, over: Record<string, unknown> = {}) => ({ id: randomUUID(), name, time: new Date().toISOString(), ...over });
const count = async (sql: string, params: unknown[]) => Number((await api.db.query<{ n: string }>(sql, params)).rows[0]?.n);

describe('app key rotation', () => {
  it('refuses the old key at once, in every process, and takes the new one', async () => {
    const app = await createTestApp(owner);
    // Both processes have the key in their cache.
    for (const server of [api, other]) {
      expect((await ingest(server, app.appKey, 'ingestBatch', { device: device(), events: [event('before')] })).body.status).toBe('OK');
    }
    const { app: rotated } = await owner.ok<{ app: { appKey: string } }>('rotateAppKey', undefined, { appId: app.id });
    expect(rotated.appKey).not.toBe(app.appKey);

    for (const server of [api, other]) {
      for (const name of ['ingestBatch', 'ingestIdentify', 'ingestProfile'] as const) {
        const body = name === 'ingestBatch' ? { device: device(), events: [event('after_rotation')] }
          : name === 'ingestIdentify' ? { device: device(), customerId: `c-${randomUUID()}` } : { device: device(), profile: { city: 'Bilbao' } };
        const old = await ingest(server, app.appKey, name, body);
        expect([old.httpStatus, old.body.code], `${name} on ${server === api ? 'the rotating process' : 'another process'}`).toEqual([401, ErrorCode.API_KEY_INVALID]);
      }
      expect((await ingest(server, rotated.appKey, 'ingestBatch', { device: device(), events: [event('new_key')] })).body.status).toBe('OK');
    }
    expect(await count(`SELECT count(*) AS n FROM events WHERE app_id = $1 AND name = 'after_rotation'`, [app.id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM devices WHERE app_id = $1', [app.id])).toBe(4);
    expect(await count(`SELECT count(*) AS n FROM events WHERE app_id = $1 AND name = 'new_key'`, [app.id])).toBe(2);
  });
});

describe('app key rotation on the SDK\'s endpoints (shared key cache)', () => {
  it('refuses the old key for offers and redemptions at once, in every process', async () => {
    const app = await createTestApp(owner);
    const dev = device();
    expect((await ingest(api, app.appKey, 'ingestIdentify', { device: dev, customerId: `c-${randomUUID()}` })).body.status).toBe('OK');
    const call = async (server: TestApi, key: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api${path}`, body === undefined ? { headers: { 'x-app-key': key } }
        : { method: 'POST', headers: { 'x-app-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return [res.status, ((await res.json()) as { code?: number }).code];
    };
    const inApp = `${endpoints.sdkInApp.path}?deviceId=${dev.id}`;
    // Both processes have the key in their cache.
    for (const server of [api, other]) expect(await call(server, app.appKey, inApp)).toEqual([200, undefined]);
    const { app: rotated } = await owner.ok<{ app: { appKey: string } }>('rotateAppKey', undefined, { appId: app.id });
    for (const server of [api, other]) {
      const where = server === api ? 'the rotating process' : 'another process';
      expect(await call(server, app.appKey, inApp), `in-app on ${where}`).toEqual([401, ErrorCode.API_KEY_INVALID]);
      expect(await call(server, app.appKey, endpoints.sdkRedeem.path, { device: { id: dev.id }, messageId: randomUUID(), clientId: randomUUID() }), `redeem on ${where}`)
        .toEqual([401, ErrorCode.API_KEY_INVALID]);
      expect(await call(server, rotated.appKey, inApp), `the new key on ${where}`).toEqual([200, undefined]);
    }
  });
});

describe('identical batches at the same moment', () => {
  it('stores each event once and answers both with success', async () => {
    const app = await createTestApp(owner);
    for (let round = 0; round < 5; round++) {
      const dev = device();
      const session = randomUUID();
      const events = [
        event('gd_start_session', { sessionId: session }), event('product_view', { properties: { sku: `A${round}` } }),
        event('gd_transaction', { revenue: 10, currency: 'EUR' }), event('gd_end_session', { sessionId: session }),
      ];
      const interactions = [{ id: randomUUID(), time: Date.now(), channel: 'push', kind: 'impression' }];
      const body = { device: dev, events, interactions };
      // Through both processes and twice through one, all at once.
      const answers = await Promise.all([ingest(api, app.appKey, 'ingestBatch', body), ingest(other, app.appKey, 'ingestBatch', body), ingest(api, app.appKey, 'ingestBatch', body)]);
      const ids = events.map((e) => e.id).sort();
      for (const answer of answers) {
        expect(answer.body, `round ${round}`).toMatchObject({ status: 'OK', rejected: [] });
        expect([...(answer.body.accepted as string[]), ...(answer.body.duplicates as string[])].sort()).toEqual(ids);
      }
      // Every event accepted by exactly one of them.
      expect(answers.flatMap((a) => a.body.accepted as string[]).sort()).toEqual(ids);
      const interactionAnswers = answers.map((a) => a.body.interactions as { accepted: string[] });
      expect(interactionAnswers.flatMap((i) => i.accepted)).toEqual([interactions[0]!.id]);
    }
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [app.id])).toBe(20);
    expect(await count('SELECT count(*) AS n FROM message_interactions WHERE app_id = $1', [app.id])).toBe(5);
    expect(await count('SELECT count(*) AS n FROM devices WHERE app_id = $1', [app.id])).toBe(5);
    expect(await count('SELECT count(*) AS n FROM people WHERE app_id = $1', [app.id])).toBe(5);
    expect(await count('SELECT count(*) AS n FROM sessions WHERE app_id = $1', [app.id])).toBe(5);
    expect(await count('SELECT sum(events) AS n FROM event_daily WHERE app_id = $1', [app.id])).toBe(20);
    expect(await count('SELECT sum(conversions) AS n FROM people WHERE app_id = $1', [app.id])).toBe(5);
    expect(await count('SELECT sum(revenue) AS n FROM people WHERE app_id = $1', [app.id])).toBe(50);
  });
});
