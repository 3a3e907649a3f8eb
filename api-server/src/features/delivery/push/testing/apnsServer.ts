/**
 * A loopback APNs: an HTTP/2 server over TLS (ALPN h2, a certificate made for the run) that checks
 * what Apple checks and answers what Apple answers, so the client is tested against the protocol
 * rather than against a mock of itself.
 *
 * - Provider token: `authorization: bearer <jwt>`, an ES256 JWT whose signature is VERIFIED with
 *   the team's public key, header `kid` = the key id, `iss` = the team id, `iat` not older than an
 *   hour (403 MissingProviderToken / InvalidProviderToken / ExpiredProviderToken). A token verified
 *   once is remembered (Apple caches too; verifying ECDSA per request would make the server the
 *   bottleneck of the throughput benchmark), its age checked on every request.
 * - Request: POST /3/device/<hex token> (405 MethodNotAllowed, 404 BadPath, 400 BadDeviceToken),
 *   apns-topic = the bundle id (400 MissingTopic / TopicDisallowed), apns-push-type, apns-priority
 *   (5 or 10; 5 for background), apns-expiration (a UNIX time or 0), apns-collapse-id at most 64
 *   bytes, apns-id a UUID, payload JSON of at most 4096 bytes (413 PayloadTooLarge).
 * - Failures on demand: for given device tokens (`failToken`), for the next N requests
 *   (`failNext`), or for given provider JWTs (`revokeProviderToken`), with Apple's bodies:
 *   `{"reason":"Unregistered","timestamp":...}` 410, `{"reason":"BadDeviceToken"}` 400, 429, 503...
 * - Records every accepted notification, the sessions opened, and the most streams in flight.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import http2, { type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { loopbackCert, type LoopbackCert } from './tls.ts';

export interface ApnsFailure { status: number; reason: string; retryAfterSeconds?: number }

/** Apple's answers, by reason. */
export const APNS_FAILURES = {
  Unregistered: { status: 410, reason: 'Unregistered' },
  BadDeviceToken: { status: 400, reason: 'BadDeviceToken' },
  TooManyRequests: { status: 429, reason: 'TooManyRequests' },
  InternalServerError: { status: 500, reason: 'InternalServerError' },
  ServiceUnavailable: { status: 503, reason: 'ServiceUnavailable' },
  ExpiredProviderToken: { status: 403, reason: 'ExpiredProviderToken' },
} as const satisfies Record<string, ApnsFailure>;

export interface AcceptedApns {
  deviceToken: string;
  topic: string;
  pushType: string;
  priority: string;
  expiration: number;
  collapseId: string | undefined;
  apnsId: string;
  payload: unknown;
  /** Which server session (1, 2, ...) carried it. */
  session: number;
  /** The provider JWT it came with. */
  jwt: string;
}

export interface ApnsServerOptions {
  teamId: string;
  keyId: string;
  /** The public half of the team's .p8 key. */
  publicKey: KeyObject;
  bundleId: string;
  /** SETTINGS_MAX_CONCURRENT_STREAMS announced to clients (default 1,000). */
  maxConcurrentStreams?: number;
  /** Keep the payloads of accepted notifications (default true; the benchmark keeps counts only). */
  keepPayloads?: boolean;
  /** The server's clock (ms), for the provider token's age. */
  now?: () => number;
  /** The certificate to serve (default: one made for this server); servers sharing one are trusted through one CA. */
  tls?: LoopbackCert;
}

export interface ApnsFixture {
  url: string;
  /** The certificate to trust (policy extraCa). */
  ca: string;
  accepted: AcceptedApns[];
  /** Every request that reached a stream, accepted or not. */
  requests: number;
  sessions: number;
  maxInFlight: number;
  /** Distinct provider JWTs whose signature was verified. */
  verifiedTokens: Set<string>;
  /** How long each notification takes to be accepted (a slower server, so a test can kill a sender mid-way). */
  delayMs: number;
  failToken(deviceToken: string, failure: ApnsFailure): void;
  failNext(count: number, failure: ApnsFailure): void;
  revokeProviderToken(jwt: string, reason?: 'ExpiredProviderToken' | 'InvalidProviderToken'): void;
  /** Sends GOAWAY on every open session (the client must reconnect). */
  goAway(): void;
  /** Sessions still open (a client that took a GOAWAY closes its session). */
  openSessions(): number;
  close(): Promise<void>;
}

const HEX = /^[0-9a-f]+$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PUSH_TYPES = new Set(['alert', 'background', 'location', 'voip', 'complication', 'fileprovider', 'mdm', 'liveactivity', 'pushtotalk']);

export async function startApnsServer(opts: ApnsServerOptions): Promise<ApnsFixture> {
  const now = opts.now ?? Date.now;
  const { key, cert } = opts.tls ?? await loopbackCert();
  const tokenFailures = new Map<string, ApnsFailure>();
  const nextFailures: ApnsFailure[] = [];
  const revoked = new Map<string, string>();
  const verified = new Map<string, number>();
  const sessionIds = new WeakMap<Http2Session, number>();
  const open = new Set<Http2Session>();
  let inFlight = 0;

  const server = http2.createSecureServer({ key, cert, allowHTTP1: false, settings: { maxConcurrentStreams: opts.maxConcurrentStreams ?? 1_000 } });
  const fixture: ApnsFixture = {
    url: '', ca: cert, accepted: [], requests: 0, sessions: 0, maxInFlight: 0, verifiedTokens: new Set(), delayMs: 0,
    failToken: (t, f) => void tokenFailures.set(t, f),
    failNext: (n, f) => { for (let i = 0; i < n; i++) nextFailures.push(f); },
    revokeProviderToken: (jwt, reason = 'ExpiredProviderToken') => void revoked.set(jwt, reason),
    // As APNs: GOAWAY, then the connection ends once its streams are done.
    goAway: () => { for (const s of open) { s.goaway(http2.constants.NGHTTP2_NO_ERROR); s.close(); } },
    openSessions: () => open.size,
    close: () => new Promise<void>((resolve) => {
      for (const s of open) s.destroy();
      server.close(() => resolve());
    }),
  };

  server.on('session', (session) => {
    sessionIds.set(session, ++fixture.sessions);
    open.add(session);
    session.on('error', () => undefined);
    session.once('close', () => open.delete(session));
  });
  server.on('stream', (stream, headers) => {
    fixture.requests++;
    inFlight++;
    fixture.maxInFlight = Math.max(fixture.maxInFlight, inFlight);
    stream.once('close', () => inFlight--);
    stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      handle(stream, headers, Buffer.concat(chunks)).catch(() => answer(stream, 500, 'InternalServerError'));
    });
  });

  /** The reason to refuse the provider token, or null when it is good. */
  async function checkProviderToken(authorization: string | undefined): Promise<string | null> {
    const match = /^bearer (\S+)$/i.exec(authorization ?? '');
    if (!match?.[1]) return 'MissingProviderToken';
    const jwt = match[1];
    const revokedReason = revoked.get(jwt);
    if (revokedReason) return revokedReason;
    let iat = verified.get(jwt);
    if (iat === undefined) {
      try {
        const { payload, protectedHeader } = await jwtVerify(jwt, opts.publicKey, { algorithms: ['ES256'] });
        if (protectedHeader.kid !== opts.keyId || payload.iss !== opts.teamId || typeof payload.iat !== 'number') return 'InvalidProviderToken';
        iat = payload.iat;
      } catch {
        return 'InvalidProviderToken';
      }
      verified.set(jwt, iat);
      fixture.verifiedTokens.add(jwt);
    }
    return now() / 1000 - iat > 3600 ? 'ExpiredProviderToken' : null;
  }

  async function handle(stream: ServerHttp2Stream, h: IncomingHttpHeaders, body: Buffer): Promise<void> {
    if (h[':method'] !== 'POST') return answer(stream, 405, 'MethodNotAllowed');
    const path = /^\/3\/device\/([^/?]+)$/.exec(String(h[':path']));
    if (!path?.[1]) return answer(stream, 404, 'BadPath');
    const deviceToken = path[1];
    const tokenProblem = await checkProviderToken(typeof h.authorization === 'string' ? h.authorization : undefined);
    if (tokenProblem) return answer(stream, 403, tokenProblem);
    const topic = h['apns-topic'];
    if (typeof topic !== 'string' || topic === '') return answer(stream, 400, 'MissingTopic');
    if (topic !== opts.bundleId) return answer(stream, 400, 'TopicDisallowed');
    const pushType = String(h['apns-push-type'] ?? '');
    if (!PUSH_TYPES.has(pushType)) return answer(stream, 400, 'InvalidPushType');
    const priority = String(h['apns-priority'] ?? '10');
    if ((priority !== '5' && priority !== '10' && priority !== '1') || (pushType === 'background' && priority !== '5')) return answer(stream, 400, 'BadPriority');
    const expirationText = String(h['apns-expiration'] ?? '0');
    if (!/^\d+$/.test(expirationText)) return answer(stream, 400, 'BadExpirationDate');
    const collapseId = typeof h['apns-collapse-id'] === 'string' ? h['apns-collapse-id'] : undefined;
    if (collapseId !== undefined && Buffer.byteLength(collapseId) > 64) return answer(stream, 400, 'BadCollapseId');
    const apnsIdHeader = h['apns-id'];
    if (apnsIdHeader !== undefined && !(typeof apnsIdHeader === 'string' && UUID.test(apnsIdHeader))) return answer(stream, 400, 'BadMessageId');
    const apnsId = typeof apnsIdHeader === 'string' ? apnsIdHeader : randomUUID();
    if (body.length === 0) return answer(stream, 400, 'PayloadEmpty');
    if (body.length > 4096) return answer(stream, 413, 'PayloadTooLarge');
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return answer(stream, 400, 'BadRequest');
    }
    if (!payload || typeof payload !== 'object' || !('aps' in payload)) return answer(stream, 400, 'BadRequest');
    if (!HEX.test(deviceToken) || deviceToken.length < 64) return answer(stream, 400, 'BadDeviceToken');
    if (fixture.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fixture.delayMs));
    const failure = tokenFailures.get(deviceToken) ?? nextFailures.shift();
    if (failure) return answer(stream, failure.status, failure.reason, failure.retryAfterSeconds, apnsId);
    fixture.accepted.push({
      deviceToken, topic, pushType, priority, expiration: Number(expirationText), collapseId, apnsId,
      payload: opts.keepPayloads === false ? null : payload,
      session: sessionIds.get(stream.session as Http2Session) ?? 0,
      jwt: opts.keepPayloads === false ? '' : String(h.authorization).slice(7),
    });
    if (!stream.destroyed) stream.respond({ ':status': 200, 'apns-id': apnsId }, { endStream: true });
  }

  function answer(stream: ServerHttp2Stream, status: number, reason: string, retryAfterSeconds?: number, apnsId: string = randomUUID()): void {
    if (stream.destroyed) return;
    // Apple adds the time it learnt the token was gone to 410 answers (milliseconds since the epoch).
    const body = JSON.stringify(status === 410 ? { reason, timestamp: now() } : { reason });
    stream.respond({
      ':status': status, 'apns-id': apnsId, 'content-type': 'application/json',
      ...(retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}),
    });
    stream.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fixture;
}
