/**
 * FCM HTTP v1 client: `POST /v1/projects/<project>/messages:send` over one shared HTTP/2 session
 * (http2Endpoint.ts; fcm.googleapis.com speaks h2, and multiplexing is what lets one worker reach
 * tens of thousands of sends a second without thousands of sockets).
 *
 * Authentication: an OAuth 2 access token from the service account (Google's "Using OAuth 2.0 for
 * Server to Server Applications"): an RS256 JWT assertion (iss = client_email, scope
 * firebase.messaging, aud = token_uri, one hour) is exchanged at token_uri for an access token,
 * which every send reuses until shortly before it expires (a token exchange per send would be a
 * round trip and a signature each, and Google rate-limits the token endpoint). A 401 on a send
 * renews it once (one renewal however many sends saw the 401) and tries once more; a second 401 is
 * `failed`. The exchange goes through src/net `guardedRequest`; token_uri is configurable so tests
 * point it at the loopback server.
 *
 * Checked before sending: the notification and data at most 4000 bytes (FCM's limit on the message
 * payload), data values strings (v1 refuses anything else).
 */
import { importPKCS8, SignJWT } from 'jose';
import { Renewable, sendWithRenewal } from './renewable.ts';
import { guardedRequest, readBody, type NetPolicy } from '../../../net/index.ts';
import { Http2Endpoint, type Http2Answer } from './http2Endpoint.ts';
import { pushTypeOf, type PushClient, type PushNotification } from './notification.ts';
import { classifyFcm, classifyNetworkError, parseRetryAfter, type FcmErrorBody, type PushResult } from './result.ts';

export const FCM_ENDPOINT = 'https://fcm.googleapis.com';
export { GOOGLE_TOKEN_URI } from '@gd/shared/schemas/pushCredentials';
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const FCM_MAX_PAYLOAD = 4000;
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface FcmCredentials {
  projectId: string;
  clientEmail: string;
  /** The service account's private key (PKCS#8 PEM, RSA). */
  privateKeyPem: string;
  tokenUri: string;
}

export interface FcmClientOptions extends FcmCredentials {
  /** FCM_ENDPOINT or a test server's https://127.0.0.1:port. */
  endpoint: string;
  policy: NetPolicy;
  maxConcurrentStreams?: number;
  /** Connections opened while every open one is full (default PUSH_MAX_CONNECTIONS, http2Endpoint.ts). */
  maxConnections?: number;
  requestTimeoutMs?: number;
  now?: () => number;
}

/** Why getting an access token failed: `transient` when another try may pass (5xx, network). */
class TokenError extends Error {
  readonly reason: string;
  readonly transient: boolean;
  constructor(reason: string, transient: boolean) {
    super(reason);
    this.reason = reason;
    this.transient = transient;
  }
}

/**
 * The OAuth access token, shared by every send of a client: a signed service-account assertion
 * exchanged at the token endpoint, reused until shortly before it expires. `stats.exchanges`
 * counts the exchanges (observability; tests assert the cache).
 */
function accessToken(creds: FcmCredentials, policy: NetPolicy, now: () => number, stats: { exchanges: number }): Renewable<{ token: string; refreshAt: number }> {
  let key: ReturnType<typeof importPKCS8> | null = null;
  return new Renewable(async () => {
    let assertion: string;
    try {
      key ??= importPKCS8(creds.privateKeyPem, 'RS256');
      const iat = Math.floor(now() / 1000);
      assertion = await new SignJWT({ scope: FCM_SCOPE })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(creds.clientEmail).setAudience(creds.tokenUri).setIssuedAt(iat).setExpirationTime(iat + 3600)
        .sign(await key);
    } catch {
      key = null;
      throw new TokenError('InvalidSigningKey', false);
    }
    stats.exchanges++;
    const started = now();
    let status: number, text: string;
    try {
      const res = await guardedRequest(creds.tokenUri, policy, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(), totalMs: 30_000, maxBytes: 64 * 1024,
      });
      status = res.status;
      text = (await readBody(res)).toString('utf8');
    } catch (error) {
      const r = classifyNetworkError(error);
      throw new TokenError(`oauth_${r.outcome === 'retry' || r.outcome === 'failed' ? r.reason : 'error'}`, r.outcome === 'retry');
    }
    if (status !== 200) {
      // invalid_grant / invalid_client (4xx): the service account is wrong or disabled; 5xx: Google's weather.
      let code = `http_${status}`;
      try {
        const error = (JSON.parse(text) as { error?: unknown }).error;
        if (typeof error === 'string') code = error;
      } catch { /* not JSON */ }
      throw new TokenError(`oauth_${code}`, status >= 500 || status === 429);
    }
    const body = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new TokenError('oauth_no_access_token', false);
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    // Renew 5 minutes early (half the lifetime for short-lived tokens), so no send carries a token that expires on the way.
    return { token: body.access_token, refreshAt: started + lifetimeMs - Math.min(5 * 60_000, lifetimeMs / 2) };
  }, (c) => now() < c.refreshAt);
}

/** The v1 message body: notification and data, with the Android and APNs delivery options. */
export function fcmMessage(n: PushNotification, nowMs: number): Record<string, unknown> {
  const type = pushTypeOf(n);
  const life = n.lifeSeconds && n.lifeSeconds > 0 ? Math.floor(n.lifeSeconds) : 0;
  const notification = type === 'alert' && (n.title !== undefined || n.body !== undefined || n.imageUrl !== undefined)
    ? { ...(n.title !== undefined ? { title: n.title } : {}), ...(n.body !== undefined ? { body: n.body } : {}), ...(n.imageUrl !== undefined ? { image: n.imageUrl } : {}) }
    : undefined;
  const high = type === 'alert' && n.priority !== 'normal';
  return {
    token: n.token,
    ...(notification ? { notification } : {}),
    ...(n.data ? { data: n.data } : {}),
    android: {
      // ttl "0s": deliver now or never, like APNs' expiration 0.
      ttl: `${life}s`,
      priority: high ? 'HIGH' : 'NORMAL',
      ...(n.collapseId !== undefined ? { collapse_key: n.collapseId } : {}),
      ...(n.sound !== undefined ? { notification: { sound: n.sound } } : {}),
    },
    // For iOS devices registered through FCM: the same expiry, collapse id and priority as apns.ts sends.
    apns: {
      headers: {
        'apns-expiration': String(life ? Math.floor(nowMs / 1000) + life : 0),
        'apns-priority': high ? '10' : '5',
        'apns-push-type': type,
        ...(n.collapseId !== undefined && Buffer.byteLength(n.collapseId) <= 64 ? { 'apns-collapse-id': n.collapseId } : {}),
      },
      ...(type === 'background' || n.badge !== undefined || n.sound !== undefined
        ? { payload: { aps: { ...(type === 'background' ? { 'content-available': 1 } : {}), ...(n.badge !== undefined ? { badge: n.badge } : {}), ...(n.sound !== undefined ? { sound: n.sound } : {}) } } }
        : {}),
    },
  };
}

export function createFcmClient(opts: FcmClientOptions): PushClient & { readonly endpoint: Http2Endpoint; readonly tokenExchanges: () => number } {
  const now = opts.now ?? Date.now;
  const stats = { exchanges: 0 };
  const tokens = accessToken(opts, opts.policy, now, stats);
  const endpoint = new Http2Endpoint({
    url: opts.endpoint, policy: opts.policy,
    ...(opts.maxConcurrentStreams !== undefined ? { maxConcurrentStreams: opts.maxConcurrentStreams } : {}),
    ...(opts.maxConnections !== undefined ? { maxConnections: opts.maxConnections } : {}),
    // The same access token on every request: indexed once.
    repeatedHeaders: ['authorization', 'content-type'],
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
  });
  const path = `/v1/projects/${encodeURIComponent(opts.projectId)}/messages:send`;

  async function send(n: PushNotification): Promise<PushResult> {
    if (!n.token) return { outcome: 'retire', reason: 'INVALID_ARGUMENT' };
    if (n.data && Object.values(n.data).some((v) => typeof v !== 'string')) return { outcome: 'failed', reason: 'DataNotString' };
    const message = fcmMessage(n, now());
    const sized = Buffer.byteLength(JSON.stringify({ notification: message.notification, data: message.data }));
    if (sized > FCM_MAX_PAYLOAD) return { outcome: 'failed', reason: 'PayloadTooLarge' };
    const body = Buffer.from(JSON.stringify({ message }));
    const tokenFailure = (error: unknown): PushResult => {
      const e = error instanceof TokenError ? error : new TokenError('oauth_error', true);
      return e.transient ? { outcome: 'retry', reason: e.reason } : { outcome: 'failed', reason: e.reason };
    };
    return sendWithRenewal(tokens, tokenFailure, async (token) => {
      let answer: Http2Answer;
      try {
        answer = await endpoint.request({ ':path': path, authorization: `Bearer ${token.token}`, 'content-type': 'application/json' }, body);
      } catch (error) {
        return classifyNetworkError(error);
      }
      const parsed = parseJson(answer.body);
      const result = classifyFcm(answer.status, parsed as FcmErrorBody | undefined, parseRetryAfter(answer.headers['retry-after'], now()));
      if (result.outcome !== 'sent') return result;
      const name = (parsed as { name?: unknown } | undefined)?.name;
      return typeof name === 'string' ? { outcome: 'sent', providerId: name } : { outcome: 'sent' };
    });
  }

  return { provider: 'fcm', endpoint, tokenExchanges: () => stats.exchanges, send, close: () => endpoint.close() };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
