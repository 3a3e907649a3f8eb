/**
 * The APNs client against the loopback APNs (testing/apnsServer.ts) over real HTTP/2 and TLS: the
 * server verifies the ES256 provider token's signature and the headers, and answers Apple's error
 * bodies. No database is involved; the file sits in the integration project for its sockets.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { BlockList, createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APNS_TOKEN_REFRESH_MS, createApnsClient, type ApnsClientOptions } from './apns.ts';
import { APNS_FAILURES, startApnsServer, type ApnsFixture } from './testing/apnsServer.ts';
import { apnsKey, loopbackPolicy } from './testing/keys.ts';

const deviceToken = () => randomBytes(32).toString('hex');
const key = apnsKey();
const creds = { keyId: 'ABC123DEFG', teamId: 'TEAM123456', bundleId: 'com.example.app', privateKeyPem: key.privateKeyPem };
let server: ApnsFixture;
const clients: { close(): Promise<void> }[] = [];

function client(extra: Partial<ApnsClientOptions> = {}) {
  const c = createApnsClient({ ...creds, endpoint: server.url, policy: loopbackPolicy(server.ca), ...extra });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startApnsServer({ teamId: creds.teamId, keyId: creds.keyId, publicKey: key.publicKey, bundleId: creds.bundleId });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await server.close();
});

describe('APNs client', () => {
  it('sends with a provider token the server verifies, and the headers APNs expects', async () => {
    const c = client({ now: () => 1_800_000_000_000 + (Date.now() % 1000) });
    const token = deviceToken();
    const id = randomUUID();
    const result = await c.send({ token, id, title: 'Hello', body: 'World', data: { deal: '42' }, lifeSeconds: 3600, collapseId: 'promo-1', sound: 'default', badge: 3 });
    expect(result).toEqual({ outcome: 'sent', providerId: id });
    const got = server.accepted.find((a) => a.deviceToken === token);
    expect(got).toMatchObject({ topic: 'com.example.app', pushType: 'alert', priority: '10', collapseId: 'promo-1', apnsId: id, expiration: 1_800_000_000 + 3600 });
    expect(got?.payload).toEqual({ deal: '42', aps: { alert: { title: 'Hello', body: 'World' }, sound: 'default', badge: 3 } });
    expect(server.verifiedTokens.has(got?.jwt ?? '')).toBe(true);
  });

  it('sends background pushes with priority 5, content-available and expiration 0 without a life', async () => {
    const token = deviceToken();
    expect((await client().send({ token, data: { sync: '1' } })).outcome).toBe('sent');
    expect(server.accepted.find((a) => a.deviceToken === token)).toMatchObject({ pushType: 'background', priority: '5', expiration: 0, payload: { sync: '1', aps: { 'content-available': 1 } } });
  });

  it('refuses an oversize payload and a long collapse id before sending, without blaming the token', async () => {
    const c = client();
    const before = server.requests;
    expect(await c.send({ token: deviceToken(), body: 'x'.repeat(4100) })).toEqual({ outcome: 'failed', reason: 'PayloadTooLarge' });
    expect(await c.send({ token: deviceToken(), body: 'hi', collapseId: 'é'.repeat(33) })).toEqual({ outcome: 'failed', reason: 'BadCollapseId' });
    expect(server.requests).toBe(before);
    // Just under the limit goes through: the check counts the serialised payload's bytes.
    const token = deviceToken();
    const overhead = Buffer.byteLength(JSON.stringify({ aps: { alert: { body: '' } } }));
    expect((await c.send({ token, body: 'y'.repeat(4096 - overhead) })).outcome).toBe('sent');
  });

  it('retires Unregistered and BadDeviceToken tokens, and refuses a non-hex token locally', async () => {
    const c = client();
    const gone = deviceToken();
    const bad = deviceToken();
    server.failToken(gone, APNS_FAILURES.Unregistered);
    server.failToken(bad, APNS_FAILURES.BadDeviceToken);
    expect(await c.send({ token: gone, title: 't' })).toEqual({ outcome: 'retire', reason: 'Unregistered' });
    expect(await c.send({ token: bad, title: 't' })).toEqual({ outcome: 'retire', reason: 'BadDeviceToken' });
    expect(await c.send({ token: '../../admin', title: 't' })).toEqual({ outcome: 'retire', reason: 'BadDeviceToken' });
  });

  it('answers retry for 429 and 503, with the server\'s retry-after', async () => {
    const c = client();
    server.failNext(1, { ...APNS_FAILURES.TooManyRequests, retryAfterSeconds: 7 });
    expect(await c.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'retry', reason: 'TooManyRequests', retryAfterMs: 7000 });
    server.failNext(1, APNS_FAILURES.ServiceUnavailable);
    expect(await c.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'retry', reason: 'ServiceUnavailable' });
    expect((await c.send({ token: deviceToken(), title: 't' })).outcome).toBe('sent');
  });

  it('renews the provider token once when APNs says it expired, then fails if the new one is refused too', async () => {
    const c = client();
    const first = deviceToken();
    expect((await c.send({ token: first, title: 't' })).outcome).toBe('sent');
    const oldJwt = server.accepted.find((a) => a.deviceToken === first)?.jwt ?? '';
    server.revokeProviderToken(oldJwt);
    const second = deviceToken();
    // Many sends see the 403 at once: one new token is signed, and every send goes through with it.
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => c.send({ token: i === 0 ? second : deviceToken(), title: 't' })));
    expect(results.every((r) => r.outcome === 'sent')).toBe(true);
    const newJwts = new Set(server.accepted.slice(-20).map((a) => a.jwt));
    expect(newJwts.size).toBe(1);
    expect(newJwts.has(oldJwt)).toBe(false);
    // A key the server does not accept: renewed once, refused again, failed (not retried forever).
    const wrong = createApnsClient({ ...creds, privateKeyPem: apnsKey().privateKeyPem, endpoint: server.url, policy: loopbackPolicy(server.ca) });
    clients.push(wrong);
    const before = server.requests;
    expect(await wrong.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'failed', reason: 'InvalidProviderToken' });
    expect(server.requests - before).toBe(2);
  });

  it('reuses the provider token for 50 minutes and signs a new one after', async () => {
    let clock = Date.now();
    const c = client({ now: () => clock });
    const a = deviceToken(), b = deviceToken(), d = deviceToken();
    await c.send({ token: a, title: 't' });
    clock += APNS_TOKEN_REFRESH_MS - 60_000;
    await c.send({ token: b, title: 't' });
    clock += 120_000;
    await c.send({ token: d, title: 't' });
    const jwt = (t: string) => server.accepted.find((x) => x.deviceToken === t)?.jwt;
    expect(jwt(a)).toBe(jwt(b));
    expect(jwt(d)).not.toBe(jwt(a));
  });

  /** A server allowing 50 streams a connection, and a client to it opening at most `maxConnections`; the server closes after `test`. */
  async function withLimitedServer(maxConnections: number, test: (limited: ApnsFixture, c: ReturnType<typeof createApnsClient>) => Promise<void>) {
    const limited = await startApnsServer({ teamId: creds.teamId, keyId: creds.keyId, publicKey: key.publicKey, bundleId: creds.bundleId, maxConcurrentStreams: 50 });
    try {
      const c = createApnsClient({ ...creds, endpoint: limited.url, policy: loopbackPolicy(limited.ca), maxConnections });
      clients.push(c);
      await test(limited, c);
    } finally {
      await limited.close();
    }
  }

  it('multiplexes many concurrent sends on ONE HTTP/2 connection, within the server\'s stream limit', async () => {
    await withLimitedServer(1, async (limited, c) => {
      const results = await Promise.all(Array.from({ length: 2_000 }, () => c.send({ token: deviceToken(), title: 'bulk' })));
      expect(results.filter((r) => r.outcome === 'sent')).toHaveLength(2_000);
      expect(limited.sessions).toBe(1);
      expect(c.endpoint.sessionsOpened).toBe(1);
      expect(new Set(limited.accepted.map((a) => a.session))).toEqual(new Set([1]));
      // Concurrency really happened, and never past what the server announced (no REFUSED_STREAM).
      expect(limited.maxInFlight).toBeGreaterThan(10);
      expect(limited.maxInFlight).toBeLessThanOrEqual(50);
      // The client itself held the rest back (the server's limit read from its SETTINGS).
      expect(c.endpoint.maxActive).toBe(50);
    });
  });

  it('opens another connection only when every open one is at the server\'s stream limit, up to maxConnections', async () => {
    await withLimitedServer(3, async (limited, c) => {
      // 30 at once fit one connection: no second one.
      const few = await Promise.all(Array.from({ length: 30 }, () => c.send({ token: deviceToken(), title: 'few' })));
      expect(few.every((r) => r.outcome === 'sent')).toBe(true);
      expect(limited.sessions).toBe(1);
      const results = await Promise.all(Array.from({ length: 2_000 }, () => c.send({ token: deviceToken(), title: 'bulk' })));
      expect(results.filter((r) => r.outcome === 'sent')).toHaveLength(2_000);
      expect(limited.sessions).toBe(3);
      expect(c.endpoint.sessionsOpened).toBe(3);
      expect(new Set(limited.accepted.map((a) => a.session))).toEqual(new Set([1, 2, 3]));
      // Three connections of 50 streams each: the client had 150 in flight, and never more than each connection allows (no REFUSED_STREAM, no GOAWAY).
      expect(c.endpoint.maxActive).toBe(150);
      expect(limited.maxInFlight).toBeLessThanOrEqual(150);
    });
  });

  it('answers retry when the server is unreachable, and reconnects after a GOAWAY', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const down = client({ endpoint: `https://127.0.0.1:${port}` });
    expect(await down.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'retry', reason: 'network_ECONNREFUSED' });

    const c = client();
    expect((await c.send({ token: deviceToken(), title: 't' })).outcome).toBe('sent');
    server.goAway();
    // The client closes a session told to go away; wait for that rather than for a time.
    await vi.waitFor(() => expect(server.openSessions()).toBe(0));
    expect((await c.send({ token: deviceToken(), title: 't' })).outcome).toBe('sent');
    expect(c.endpoint.sessionsOpened).toBe(2);
  });

  it('refuses a private endpoint address through src/net (configuration, not weather)', async () => {
    const c = createApnsClient({ ...creds, endpoint: server.url, policy: { allow: new BlockList(), extraCa: server.ca } });
    clients.push(c);
    expect(await c.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'failed', reason: 'refused_address' });
  });
});
