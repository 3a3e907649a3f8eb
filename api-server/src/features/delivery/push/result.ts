/**
 * What a push send comes to, in the words the send pipeline acts on, and the pure rules that turn
 * a provider's answer into it. The clients (apns.ts, fcm.ts) never throw for an expected failure:
 * an answer, a refused payload or a dropped connection is a `PushResult` (CONVENTIONS.md 6).
 *
 * - `sent`: the provider took the notification (`providerId`: APNs' apns-id, FCM's message name).
 * - `retry`: nothing is wrong with the token or the message; try again later (`retryAfterMs` when
 *   the provider said how long, else `backoffMs`). The outbox row keeps its idempotency key, so a
 *   retry after a timeout may deliver twice at the provider at worst, never create a second row.
 * - `retire`: the device token is dead (uninstalled, rotated, malformed): mark the address retired
 *   and never send to it again.
 * - `failed`: this message cannot go out as it is (too large, bad credentials, a header the
 *   provider refuses); retrying it would fail the same way, and the token is not to blame.
 */
export type PushResult =
  | { outcome: 'sent'; providerId?: string }
  | { outcome: 'retry'; reason: string; retryAfterMs?: number }
  | { outcome: 'retire'; reason: string }
  | { outcome: 'failed'; reason: string };

/** The provider answers that mean the credential (JWT / OAuth token) should be renewed and the send tried once more. */
export type ProviderAnswer = PushResult | { outcome: 'refresh_credentials'; reason: string };

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60_000;

/**
 * How long to wait before attempt `attempt` (1 = the first retry): exponential with full jitter
 * (a uniform draw in [0, min(cap, base·2^(attempt-1))], as in AWS's "Exponential Backoff and
 * Jitter"), so thousands of rows that failed together during a provider's 503 do not come back in
 * one burst. A provider's Retry-After wins when it is longer than the draw (it is the provider's
 * word on when it will take traffic again), capped like the rest so a bogus header cannot park a
 * row for days. `random` is injectable for tests.
 */
export function backoffMs(attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(Number.isFinite(attempt) ? attempt : 1));
  // 2^30 s is far past the cap already; bounding the exponent keeps the arithmetic finite.
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(n - 1, 30));
  const draw = Math.floor(random() * (ceiling + 1));
  const told = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? Math.min(BACKOFF_CAP_MS, retryAfterMs) : 0;
  return Math.max(draw, told);
}

/**
 * A Retry-After header in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined
 * when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const withRetryAfter = (reason: string, retryAfterMs: number | undefined): PushResult =>
  retryAfterMs === undefined ? { outcome: 'retry', reason } : { outcome: 'retry', reason, retryAfterMs };

/**
 * An APNs answer (status, the `reason` of its JSON body, its Retry-After) as a result. Reasons from
 * Apple's "Handling notification responses from APNs" table:
 * - 410 Unregistered / ExpiredToken, 400 BadDeviceToken, 400 DeviceTokenNotForTopic: the token is
 *   dead or belongs to another app: retire it.
 * - 403 ExpiredProviderToken / InvalidProviderToken: our JWT: renew it and try once more.
 * - 429 TooManyRequests (this device gets too many), 500 InternalServerError, 503
 *   ServiceUnavailable / Shutdown: transient.
 * - 429 TooManyProviderTokenUpdates: we renewed the JWT too often; waiting fixes it.
 * - Everything else (413 PayloadTooLarge, 400 BadCollapseId, TopicDisallowed, BadExpirationDate,
 *   MissingTopic, 403 BadCertificate...): the message or our configuration, not the token: failed.
 */
export function classifyApns(status: number, reason: string | undefined, retryAfterMs?: number): ProviderAnswer {
  if (status === 200) return { outcome: 'sent' };
  const why = reason ?? `http_${status}`;
  if (status === 410) return { outcome: 'retire', reason: why };
  if (status === 400 && (why === 'BadDeviceToken' || why === 'DeviceTokenNotForTopic')) return { outcome: 'retire', reason: why };
  if (status === 403 && (why === 'ExpiredProviderToken' || why === 'InvalidProviderToken')) return { outcome: 'refresh_credentials', reason: why };
  if (status === 429 || status === 500 || status === 502 || status === 503 || status === 504) return withRetryAfter(why, retryAfterMs);
  return { outcome: 'failed', reason: why };
}

/** The parts of an FCM v1 error body (google.rpc.Status) the classification reads. */
export interface FcmErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string; description?: string }[] }[];
  };
}

/** The FcmError errorCode of a v1 error body, else its google.rpc status ("NOT_FOUND"...). */
export function fcmErrorCode(body: FcmErrorBody | undefined): string | undefined {
  const details = body?.error?.details ?? [];
  const fcm = details.find((d) => d['@type'] === 'type.googleapis.com/google.firebase.fcm.v1.FcmError' && typeof d.errorCode === 'string');
  return fcm?.errorCode ?? body?.error?.status;
}

/**
 * Whether an INVALID_ARGUMENT is about the registration token (then the token is garbage: retire
 * it) rather than the message (a bad TTL, a non-string data value: failed). FCM answers both with
 * the same code; the token case names the field `message.token` in a google.rpc.BadRequest detail,
 * or says "registration token" in its message.
 */
function invalidToken(body: FcmErrorBody | undefined): boolean {
  const details = body?.error?.details ?? [];
  if (details.some((d) => (d.fieldViolations ?? []).some((v) => v.field === 'message.token'))) return true;
  return /registration token/i.test(body?.error?.message ?? '');
}

/**
 * An FCM HTTP v1 answer as a result (Firebase's ErrorCode reference):
 * - 404 UNREGISTERED, 400 INVALID_ARGUMENT naming the token, 403 SENDER_ID_MISMATCH (the token
 *   belongs to another Firebase project, so it can never work for this app): retire.
 * - 401 (UNAUTHENTICATED: our access token expired or was revoked): renew it and try once more.
 * - 429 QUOTA_EXCEEDED / RESOURCE_EXHAUSTED, 503 UNAVAILABLE, 500 INTERNAL: transient.
 * - 403 THIRD_PARTY_AUTH_ERROR (the app's APNs key at Firebase), other 400s: failed.
 */
export function classifyFcm(status: number, body: FcmErrorBody | undefined, retryAfterMs?: number): ProviderAnswer {
  if (status === 200) return { outcome: 'sent' };
  const code = fcmErrorCode(body) ?? `http_${status}`;
  if (code === 'UNREGISTERED' || (status === 404 && code === 'NOT_FOUND')) return { outcome: 'retire', reason: 'UNREGISTERED' };
  if (code === 'SENDER_ID_MISMATCH') return { outcome: 'retire', reason: code };
  if (status === 400 && (code === 'INVALID_ARGUMENT' || code === 'http_400')) return invalidToken(body) ? { outcome: 'retire', reason: 'INVALID_ARGUMENT' } : { outcome: 'failed', reason: code };
  if (status === 401) return { outcome: 'refresh_credentials', reason: code };
  if (status === 429 || status === 500 || status === 502 || status === 503 || status === 504) return withRetryAfter(code, retryAfterMs);
  return { outcome: 'failed', reason: code };
}

/**
 * A send that never got an answer: a refused or reset connection, a GOAWAY, a timeout, a stream the
 * server refused. The notification may or may not have reached the provider, and nothing says the
 * token or message is wrong: retry. A refused address (src/net: the endpoint resolves to a private
 * address) is configuration, not weather: failed; so is a header value the client will not send.
 */
export function classifyNetworkError(error: unknown): PushResult {
  const e = error as { code?: unknown; reason?: unknown; message?: unknown } | null;
  if (e?.reason === 'refused_address') return { outcome: 'failed', reason: 'refused_address' };
  if (e?.reason === 'host_not_found') return { outcome: 'retry', reason: 'host_not_found' };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  // A header the HTTP/2 client refuses to send (a collapse id with a line break): no retry can fix it.
  if (code === 'ERR_HTTP2_INVALID_HEADER_VALUE' || code === 'ERR_INVALID_HTTP_TOKEN') return { outcome: 'failed', reason: 'InvalidHeader' };
  return { outcome: 'retry', reason: code ? `network_${code}` : 'network_error' };
}
