/**
 * APNs provider client (Apple's "Sending notification requests to APNs"): HTTP/2 to
 * api.push.apple.com (or the sandbox, or a loopback server in tests), one session per endpoint with
 * many concurrent streams (http2Endpoint.ts), token-based authentication.
 *
 * Provider token: an ES256 JWT signed with the team's .p8 key, header `kid` = key id, claims `iss`
 * = team id and `iat`. Apple refuses a token older than an hour (403 ExpiredProviderToken) and one
 * renewed more often than every 20 minutes (429 TooManyProviderTokenUpdates), so one token is
 * signed and reused for 50 minutes by every send, then renewed. A 403 Expired/InvalidProviderToken
 * renews it once (only if no other send renewed it meanwhile, so a burst of 403s signs one token,
 * not one per send) and tries that notification once more; a second refusal is `failed` (the key,
 * key id or team id is wrong, and renewing again would not help).
 *
 * Checked before sending, so a bad message never costs the token: payload at most 4096 bytes,
 * collapse id at most 64 bytes, the token in hex (it goes into the path). Expiry: apns-expiration
 * is the absolute UNIX time `now + life`, 0 (deliver once, do not store) without a life.
 */
import { importPKCS8, SignJWT } from 'jose';
import { Renewable, sendWithRenewal } from './renewable.ts';
import type { NetPolicy } from '../../../net/index.ts';
import { Http2Endpoint, type Http2Answer } from './http2Endpoint.ts';
import { pushTypeOf, UUID, type PushClient, type PushNotification } from './notification.ts';
import { classifyApns, classifyNetworkError, parseRetryAfter, type PushResult } from './result.ts';

export const APNS_PRODUCTION = 'https://api.push.apple.com';
export const APNS_SANDBOX = 'https://api.sandbox.push.apple.com';
export const APNS_MAX_PAYLOAD = 4096;
export const APNS_MAX_COLLAPSE_ID = 64;
/** Renew the provider token after 50 minutes: inside Apple's window (older than 20 min, younger than 60). */
export const APNS_TOKEN_REFRESH_MS = 50 * 60_000;

export interface ApnsCredentials {
  /** The 10-character key id of the .p8 key. */
  keyId: string;
  teamId: string;
  /** The app's bundle id: the apns-topic. */
  bundleId: string;
  /** The .p8 key (PKCS#8 PEM, EC P-256). */
  privateKeyPem: string;
}

export interface ApnsClientOptions extends ApnsCredentials {
  /** APNS_PRODUCTION, APNS_SANDBOX or a test server's https://127.0.0.1:port. */
  endpoint: string;
  policy: NetPolicy;
  maxConcurrentStreams?: number;
  /** Connections opened while every open one is full (default PUSH_MAX_CONNECTIONS, http2Endpoint.ts). */
  maxConnections?: number;
  requestTimeoutMs?: number;
  /** Clock (ms), for the token's age and apns-expiration. */
  now?: () => number;
}

/** The provider token, shared by every send of a client: signed anew when older than APNS_TOKEN_REFRESH_MS. */
function providerToken(creds: ApnsCredentials, now: () => number): Renewable<{ jwt: string; issuedAt: number }> {
  let key: ReturnType<typeof importPKCS8> | null = null;
  return new Renewable(async () => {
    key ??= importPKCS8(creds.privateKeyPem, 'ES256');
    const issuedAt = now();
    const jwt = await new SignJWT({ iss: creds.teamId, iat: Math.floor(issuedAt / 1000) })
      .setProtectedHeader({ alg: 'ES256', kid: creds.keyId })
      .sign(await key);
    return { jwt, issuedAt };
  }, (c) => now() - c.issuedAt < APNS_TOKEN_REFRESH_MS);
}

/** The JSON payload: `aps` (alert, sound, badge, content-available) and the custom data beside it. */
export function apnsPayload(n: PushNotification): Record<string, unknown> {
  const aps: Record<string, unknown> = {};
  if (pushTypeOf(n) === 'background') aps['content-available'] = 1;
  if (n.title !== undefined || n.body !== undefined) aps.alert = { ...(n.title !== undefined ? { title: n.title } : {}), ...(n.body !== undefined ? { body: n.body } : {}) };
  if (n.sound !== undefined) aps.sound = n.sound;
  if (n.badge !== undefined) aps.badge = n.badge;
  // The service extension downloads the image; it needs mutable-content to run.
  if (n.imageUrl !== undefined) aps['mutable-content'] = 1;
  return { ...(n.imageUrl !== undefined ? { image_url: n.imageUrl } : {}), ...n.data, aps };
}

const HEX = /^[0-9a-f]+$/i;

export function createApnsClient(opts: ApnsClientOptions): PushClient & { readonly endpoint: Http2Endpoint } {
  const now = opts.now ?? Date.now;
  const tokens = providerToken(opts, now);
  const endpoint = new Http2Endpoint({
    url: opts.endpoint, policy: opts.policy,
    ...(opts.maxConcurrentStreams !== undefined ? { maxConcurrentStreams: opts.maxConcurrentStreams } : {}),
    ...(opts.maxConnections !== undefined ? { maxConnections: opts.maxConnections } : {}),
    // The same token and topic on every request: indexed once (not the collapse id, new every time).
    repeatedHeaders: ['authorization', 'apns-topic', 'apns-push-type', 'apns-priority', 'content-type'],
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
  });

  async function send(n: PushNotification): Promise<PushResult> {
    // A token that is not hex cannot be valid, and must not reach the request path.
    if (!HEX.test(n.token)) return { outcome: 'retire', reason: 'BadDeviceToken' };
    if (n.data && 'aps' in n.data) return { outcome: 'failed', reason: 'ReservedDataKey' };
    if (n.collapseId !== undefined && Buffer.byteLength(n.collapseId) > APNS_MAX_COLLAPSE_ID) return { outcome: 'failed', reason: 'BadCollapseId' };
    const payload = Buffer.from(JSON.stringify(apnsPayload(n)));
    if (payload.length > APNS_MAX_PAYLOAD) return { outcome: 'failed', reason: 'PayloadTooLarge' };
    const type = pushTypeOf(n);
    const life = n.lifeSeconds && n.lifeSeconds > 0 ? Math.floor(n.lifeSeconds) : 0;
    // Without an id of ours, APNs makes one and answers it in the apns-id header.
    const apnsId = n.id !== undefined && UUID.test(n.id) ? n.id.toLowerCase() : undefined;
    const headers = {
      ':path': `/3/device/${n.token}`,
      'apns-topic': opts.bundleId,
      'apns-push-type': type,
      // Background pushes must be priority 5; APNs refuses 10 for them.
      'apns-priority': type === 'background' || n.priority === 'normal' ? '5' : '10',
      'apns-expiration': String(life ? Math.floor(now() / 1000) + life : 0),
      ...(apnsId !== undefined ? { 'apns-id': apnsId } : {}),
      ...(n.collapseId !== undefined ? { 'apns-collapse-id': n.collapseId } : {}),
      'content-type': 'application/json',
    };
    // A .p8 key that does not import or sign: the app's credentials are wrong.
    return sendWithRenewal(tokens, () => ({ outcome: 'failed', reason: 'InvalidSigningKey' }), async (token) => {
      let answer: Http2Answer;
      try {
        answer = await endpoint.request({ ...headers, authorization: `bearer ${token.jwt}` }, payload);
      } catch (error) {
        return classifyNetworkError(error);
      }
      const result = classifyApns(answer.status, reasonOf(answer.body), parseRetryAfter(answer.headers['retry-after'], now()));
      if (result.outcome !== 'sent') return result;
      const id = answer.headers['apns-id'];
      const providerId = typeof id === 'string' ? id : apnsId;
      return providerId !== undefined ? { outcome: 'sent', providerId } : { outcome: 'sent' };
    });
  }

  return { provider: 'apns', endpoint, send, close: () => endpoint.close() };
}

/** The `reason` of an APNs error body, if it is one. */
function reasonOf(body: string): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { reason?: unknown };
    return typeof parsed.reason === 'string' ? parsed.reason : undefined;
  } catch {
    return undefined;
  }
}
