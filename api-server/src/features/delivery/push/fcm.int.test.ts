/**
 * The FCM v1 client against the loopback FCM (testing/fcmServer.ts) over real HTTP/2 and TLS: the
 * token endpoint verifies the RS256 assertion with the service account's public key, messages:send
 * checks the access token it issued and answers FCM's real error bodies.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFcmClient, type FcmClientOptions } from './fcm.ts';
import { PUSH_MAX_CONNECTIONS } from './http2Endpoint.ts';
import { startFcmServer, type FcmFixture } from './testing/fcmServer.ts';
import { loopbackPolicy, serviceAccountKey } from './testing/keys.ts';
import { loopbackCert } from './testing/tls.ts';

const deviceToken = () => `fcm-${randomBytes(40).toString('base64url')}`;
const key = serviceAccountKey();
const account = { projectId: 'growthdeck-test', clientEmail: 'push@growthdeck-test.iam.gserviceaccount.com' };
let server: FcmFixture;
const clients: { close(): Promise<void> }[] = [];

function client(extra: Partial<FcmClientOptions> = {}, fixture = server) {
  const c = createFcmClient({ ...account, privateKeyPem: key.privateKeyPem, tokenUri: fixture.tokenUri, endpoint: fixture.url, policy: loopbackPolicy(fixture.ca), ...extra });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startFcmServer({ ...account, publicKey: key.publicKey });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await server.close();
});

describe('FCM v1 client', () => {
  it('gets an access token with a verified assertion and sends the v1 message', async () => {
    const c = client({ now: () => Date.now() });
    const token = deviceToken();
    const result = await c.send({ token, title: 'Hello', body: 'World', data: { deal: '42' }, lifeSeconds: 600, collapseId: 'promo' });
    expect(result.outcome).toBe('sent');
    const got = server.accepted.find((a) => a.token === token);
    expect(result).toEqual({ outcome: 'sent', providerId: got?.name });
    expect(got?.message).toMatchObject({
      token, notification: { title: 'Hello', body: 'World' }, data: { deal: '42' },
      android: { ttl: '600s', collapse_key: 'promo', priority: 'HIGH' },
      apns: { headers: { 'apns-collapse-id': 'promo', 'apns-priority': '10', 'apns-push-type': 'alert' } },
    });
    expect(c.tokenExchanges()).toBe(1);
  });

  it('caches the access token across many concurrent sends, on one HTTP/2 connection or several', async () => {
    const fresh = await startFcmServer({ ...account, publicKey: key.publicKey, maxConcurrentStreams: 100 });
    try {
      const c = client({ maxConnections: 1 }, fresh);
      const results = await Promise.all(Array.from({ length: 1_000 }, () => c.send({ token: deviceToken(), title: 'bulk' })));
      expect(results.filter((r) => r.outcome === 'sent')).toHaveLength(1_000);
      expect(fresh.tokenRequests).toBe(1);
      expect(c.tokenExchanges()).toBe(1);
      // The token exchange is one HTTP/1.1 connection; the sends share one HTTP/2 session.
      expect(c.endpoint.sessionsOpened).toBe(1);
      expect(new Set(fresh.accepted.map((a) => a.session)).size).toBe(1);
      expect(c.endpoint.maxActive).toBe(100);
      // With the default pool, 1,000 sends at once on a 100-stream server spread over more connections, one token still.
      const pooled = client({}, fresh);
      const more = await Promise.all(Array.from({ length: 1_000 }, () => pooled.send({ token: deviceToken(), title: 'bulk' })));
      expect(more.filter((r) => r.outcome === 'sent')).toHaveLength(1_000);
      expect(pooled.tokenExchanges()).toBe(1);
      expect(pooled.endpoint.sessionsOpened).toBeGreaterThan(1);
      expect(pooled.endpoint.sessionsOpened).toBeLessThanOrEqual(PUSH_MAX_CONNECTIONS);
      expect(pooled.endpoint.maxActive).toBeGreaterThan(100);
    } finally {
      await fresh.close();
    }
  });

  it('renews the access token shortly before it expires', async () => {
    const shortLived = await startFcmServer({ ...account, publicKey: key.publicKey, accessTokenTtlSeconds: 3599 });
    // The client's clock moves; Google's token lifetime (3599 s) is what the client plans from.
    try {
      let clock = Date.now();
      const c = client({ now: () => clock }, shortLived);
      await c.send({ token: deviceToken(), title: 't' });
      clock += 50 * 60_000;
      await c.send({ token: deviceToken(), title: 't' });
      expect(shortLived.tokenRequests).toBe(1);
      // Less than 5 minutes before expiry: renewed before sending.
      clock += 6 * 60_000;
      await c.send({ token: deviceToken(), title: 't' });
      expect(shortLived.tokenRequests).toBe(2);
    } finally {
      await shortLived.close();
    }
  });

  it('renews the token once on 401, then fails when the new one is refused too', async () => {
    const c = client();
    expect((await c.send({ token: deviceToken(), title: 't' })).outcome).toBe('sent');
    server.revokeAccessTokens();
    const before = server.tokenRequests;
    const results = await Promise.all(Array.from({ length: 10 }, () => c.send({ token: deviceToken(), title: 't' })));
    expect(results.every((r) => r.outcome === 'sent')).toBe(true);
    expect(server.tokenRequests - before).toBe(1);

    // Another service account's key: the token endpoint refuses the assertion: failed, not retried.
    const wrong = client({ privateKeyPem: serviceAccountKey().privateKeyPem });
    const refused = server.refusedAssertions;
    expect(await wrong.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'failed', reason: 'oauth_invalid_grant' });
    expect(server.refusedAssertions).toBe(refused + 1);
  });

  it('takes an access token issued by another server sharing its secret, and only then (the benchmark runs the server in two processes)', async () => {
    const tokenSecret = randomBytes(32);
    // One certificate for the three, so one policy trusts a's token endpoint and either message server.
    const tls = await loopbackCert();
    const a = await startFcmServer({ ...account, publicKey: key.publicKey, tokenSecret, tls });
    const b = await startFcmServer({ ...account, publicKey: key.publicKey, tokenSecret, tls });
    const other = await startFcmServer({ ...account, publicKey: key.publicKey, tls });
    try {
      // Tokens from a's token endpoint, messages to b: accepted without b ever issuing one.
      const shared = client({ tokenUri: a.tokenUri, endpoint: b.url, policy: loopbackPolicy(b.ca) }, a);
      expect((await shared.send({ token: deviceToken(), title: 't' })).outcome).toBe('sent');
      expect(b.accepted).toHaveLength(1);
      expect(b.tokenRequests).toBe(0);
      // A server with its own secret refuses them: 401, one renewal (from a again), refused again: failed.
      const foreign = client({ tokenUri: a.tokenUri, endpoint: other.url, policy: loopbackPolicy(other.ca) }, a);
      expect(await foreign.send({ token: deviceToken(), title: 't' })).toMatchObject({ outcome: 'failed' });
      expect(other.accepted).toHaveLength(0);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });

  it('retires UNREGISTERED and invalid tokens, retries 429/503/500 with retry-after, fails other 4xx', async () => {
    const c = client();
    const gone = deviceToken(), invalid = deviceToken();
    server.failToken(gone, { kind: 'UNREGISTERED' });
    server.failToken(invalid, { kind: 'INVALID_ARGUMENT' });
    expect(await c.send({ token: gone, title: 't' })).toEqual({ outcome: 'retire', reason: 'UNREGISTERED' });
    expect(await c.send({ token: invalid, title: 't' })).toEqual({ outcome: 'retire', reason: 'INVALID_ARGUMENT' });
    server.failNext(1, { kind: 'QUOTA_EXCEEDED', retryAfterSeconds: 30 });
    expect(await c.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'retry', reason: 'QUOTA_EXCEEDED', retryAfterMs: 30_000 });
    server.failNext(1, { kind: 'UNAVAILABLE' });
    expect(await c.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'retry', reason: 'UNAVAILABLE' });
    server.failNext(1, { kind: 'INTERNAL' });
    expect(await c.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'retry', reason: 'INTERNAL' });
    // A project the account does not own: configuration, not the token.
    const other = client({ projectId: 'someone-else' });
    expect(await other.send({ token: deviceToken(), title: 't' })).toEqual({ outcome: 'failed', reason: 'PERMISSION_DENIED' });
  });

  it('refuses an oversize payload before sending', async () => {
    const c = client();
    const accepted = server.accepted.length;
    expect(await c.send({ token: deviceToken(), data: { blob: 'x'.repeat(4000) } })).toEqual({ outcome: 'failed', reason: 'PayloadTooLarge' });
    expect(server.accepted.length).toBe(accepted);
    // The server agrees on the limit: a message the client let through at 3,990 bytes is accepted.
    const overhead = Buffer.byteLength(JSON.stringify({ data: { blob: '' } }));
    expect((await c.send({ token: deviceToken(), data: { blob: 'y'.repeat(4000 - overhead) } })).outcome).toBe('sent');
  });
});
