/**
 * A loopback FCM HTTP v1 and its OAuth token endpoint, two TLS servers as in reality
 * (fcm.googleapis.com and oauth2.googleapis.com): HTTP/2 for messages:send, HTTP/1.1 for the
 * token exchange (it goes through src/net guardedRequest, which speaks HTTP/1.1).
 *
 * - POST /token: grant_type jwt-bearer with an RS256 assertion whose signature is VERIFIED with
 *   the service account's public key, iss = its client_email, aud = this token URI, scope naming
 *   firebase.messaging; answers `{access_token, expires_in, token_type}` or Google's
 *   `{"error":"invalid_grant",...}` 400.
 * - POST /v1/projects/<id>/messages:send: `Authorization: Bearer` must be a token this server
 *   issued and not yet expired or revoked (401 UNAUTHENTICATED otherwise), the project the
 *   account's; the message checked (token, string data values, android.ttl "Ns", payload at most
 *   4000 bytes); failures on demand with FCM's real error bodies (404 UNREGISTERED, 400
 *   INVALID_ARGUMENT on the token, 429 QUOTA_EXCEEDED, 503 UNAVAILABLE, 500 INTERNAL).
 *
 * Access tokens carry their own expiry and generation, signed with `tokenSecret`, so several
 * processes sharing one secret (the throughput benchmark runs the server in two, as Google's
 * front ends are many) accept a token whichever of them issued it.
 */
import { createHmac, randomBytes, type KeyObject } from 'node:crypto';
import http2, { type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { loopbackCert, type LoopbackCert } from './tls.ts';

const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

export type FcmFailureKind = 'UNREGISTERED' | 'INVALID_ARGUMENT' | 'QUOTA_EXCEEDED' | 'UNAVAILABLE' | 'INTERNAL' | 'SENDER_ID_MISMATCH';
export interface FcmFailure { kind: FcmFailureKind; retryAfterSeconds?: number }

/** FCM v1's answer for each error code: HTTP status and google.rpc.Status body. */
export function fcmErrorAnswer(kind: FcmFailureKind): { status: number; body: unknown } {
  const fcm = (errorCode: string) => ({ '@type': FCM_ERROR, errorCode });
  switch (kind) {
    case 'UNREGISTERED':
      return { status: 404, body: { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [fcm('UNREGISTERED')] } } };
    case 'INVALID_ARGUMENT': {
      const message = 'The registration token is not a valid FCM registration token';
      return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT', details: [fcm('INVALID_ARGUMENT'), { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: message }] }] } } };
    }
    case 'QUOTA_EXCEEDED':
      return { status: 429, body: { error: { code: 429, message: 'Quota exceeded for quota metric \'Send messages\'.', status: 'RESOURCE_EXHAUSTED', details: [fcm('QUOTA_EXCEEDED')] } } };
    case 'UNAVAILABLE':
      return { status: 503, body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE', details: [fcm('UNAVAILABLE')] } } };
    case 'INTERNAL':
      return { status: 500, body: { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL', details: [fcm('INTERNAL')] } } };
    case 'SENDER_ID_MISMATCH':
      return { status: 403, body: { error: { code: 403, message: 'SenderId mismatch', status: 'PERMISSION_DENIED', details: [fcm('SENDER_ID_MISMATCH')] } } };
  }
}

const UNAUTHENTICATED = { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.', status: 'UNAUTHENTICATED' } };
const invalidMessage = (message: string) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT', details: [{ '@type': FCM_ERROR, errorCode: 'INVALID_ARGUMENT' }] } });

export interface AcceptedFcm { name: string; message: Record<string, unknown> | null; token: string; session: number }

export interface FcmServerOptions {
  projectId: string;
  clientEmail: string;
  /** The public half of the service account's key. */
  publicKey: KeyObject;
  /** Signs the access tokens (default: random for this server); servers sharing it accept each other's tokens. */
  tokenSecret?: Buffer;
  /** Lifetime of issued access tokens (default 3599 s, as Google). */
  accessTokenTtlSeconds?: number;
  maxConcurrentStreams?: number;
  keepMessages?: boolean;
  now?: () => number;
  /** The certificate to serve (default: one made for this server); servers sharing one are trusted through one CA. */
  tls?: LoopbackCert;
}

export interface FcmFixture {
  url: string;
  /** The token endpoint's address (its own HTTPS server): the service account's token_uri. */
  tokenUri: string;
  ca: string;
  accepted: AcceptedFcm[];
  tokenRequests: number;
  /** Assertions refused at the token endpoint. */
  refusedAssertions: number;
  sessions: number;
  failToken(token: string, failure: FcmFailure): void;
  failNext(count: number, failure: FcmFailure): void;
  /** Every access token issued so far stops working (401). */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

export async function startFcmServer(opts: FcmServerOptions): Promise<FcmFixture> {
  const now = opts.now ?? Date.now;
  const { key, cert } = opts.tls ?? await loopbackCert();
  const secret = opts.tokenSecret ?? randomBytes(32);
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('base64url');
  // Revoking starts a new generation: tokens of an older one are refused.
  let generation = 0;
  // Tokens whose signature was checked, and when they expire (checking an HMAC per request would cost the benchmark).
  const issued = new Map<string, number>();
  /** When a token this server (or one sharing its secret) issued expires, or undefined if it did not issue it or revoked it. */
  const expiryOf = (token: string): number | undefined => {
    const known = issued.get(token);
    if (known !== undefined) return known;
    const m = /^ya29\.(\d+)\.(\d+)\.([\w-]+)\.([\w-]+)$/.exec(token);
    if (!m || Number(m[1]) !== generation || sign(`${m[1]}.${m[2]}.${m[3]}`) !== m[4]) return undefined;
    issued.set(token, Number(m[2]));
    return Number(m[2]);
  };
  const tokenFailures = new Map<string, FcmFailure>();
  const nextFailures: FcmFailure[] = [];
  const sessionIds = new WeakMap<Http2Session, number>();
  const open = new Set<Http2Session>();
  let messageCount = 0;
  const namePrefix = randomBytes(8).toString('hex');

  // messages:send on the HTTP/2 core API (streams, not the compatibility layer: the server must keep up with the throughput benchmark).
  const server = http2.createSecureServer({ key, cert, allowHTTP1: false, settings: { maxConcurrentStreams: opts.maxConcurrentStreams ?? 1_000 } });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      try {
        route(stream, headers, Buffer.concat(chunks).toString('utf8'));
      } catch {
        const a = fcmErrorAnswer('INTERNAL');
        json(stream, a.status, a.body);
      }
    });
  });
  const tokenServer = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      token(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => res.writeHead(500).end());
    });
    req.on('error', () => undefined);
  });
  const fixture: FcmFixture = {
    url: '', tokenUri: '', ca: cert, accepted: [], tokenRequests: 0, refusedAssertions: 0, sessions: 0,
    failToken: (t, f) => void tokenFailures.set(t, f),
    failNext: (n, f) => { for (let i = 0; i < n; i++) nextFailures.push(f); },
    revokeAccessTokens: () => {
      generation++;
      issued.clear();
    },
    close: async () => {
      for (const s of open) s.destroy();
      tokenServer.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), new Promise<void>((resolve) => tokenServer.close(() => resolve()))]);
    },
  };
  server.on('session', (session) => {
    sessionIds.set(session, ++fixture.sessions);
    open.add(session);
    session.on('error', () => undefined);
    session.once('close', () => open.delete(session));
  });

  function route(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, body: string): void {
    if (headers[':method'] !== 'POST') return json(stream, 405, { error: { code: 405, message: 'Method not allowed', status: 'UNIMPLEMENTED' } });
    const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(String(headers[':path']));
    if (m?.[1]) return send(stream, headers, decodeURIComponent(m[1]), body);
    return json(stream, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  }

  async function token(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const reply = (status: number, answer: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
    if (req.method !== 'POST' || req.url !== '/token') return void reply(404, { error: 'not_found' });
    fixture.tokenRequests++;
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return void reply(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
    try {
      const { payload } = await jwtVerify(form.get('assertion') ?? '', opts.publicKey, { algorithms: ['RS256'], issuer: opts.clientEmail, audience: fixture.tokenUri, currentDate: new Date(now()) });
      if (typeof payload.scope !== 'string' || !payload.scope.split(' ').includes('https://www.googleapis.com/auth/firebase.messaging')) throw new Error('scope');
    } catch {
      fixture.refusedAssertions++;
      return void reply(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    const ttl = opts.accessTokenTtlSeconds ?? 3599;
    const signed = `${generation}.${now() + ttl * 1000}.${randomBytes(12).toString('base64url')}`;
    const accessToken = `ya29.${signed}.${sign(signed)}`;
    reply(200, { access_token: accessToken, expires_in: ttl, token_type: 'Bearer' });
  }

  function send(res: ServerHttp2Stream, headers: IncomingHttpHeaders, projectId: string, body: string): void {
    const bearer = /^Bearer (\S+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const expires = bearer ? expiryOf(bearer) : undefined;
    if (expires === undefined || expires <= now()) return json(res, 401, UNAUTHENTICATED);
    if (projectId !== opts.projectId) return json(res, 403, { error: { code: 403, message: 'Permission denied.', status: 'PERMISSION_DENIED' } });
    let message: Record<string, unknown>;
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (!parsed.message || typeof parsed.message !== 'object') return json(res, 400, invalidMessage('Invalid JSON payload received. Missing "message".'));
      message = parsed.message as Record<string, unknown>;
    } catch {
      return json(res, 400, invalidMessage('Invalid JSON payload received.'));
    }
    const deviceToken = message.token;
    if (typeof deviceToken !== 'string' || deviceToken === '') return json(res, 400, fcmErrorAnswer('INVALID_ARGUMENT').body);
    const data = message.data;
    if (data !== undefined && (typeof data !== 'object' || data === null || Object.values(data).some((v) => typeof v !== 'string'))) {
      return json(res, 400, invalidMessage('Invalid value at \'message.data\': values must be strings.'));
    }
    const android = message.android as { ttl?: unknown } | undefined;
    if (android?.ttl !== undefined && !(typeof android.ttl === 'string' && /^\d+(\.\d{1,9})?s$/.test(android.ttl))) {
      return json(res, 400, invalidMessage('Invalid value at \'message.android.ttl\' (type.googleapis.com/google.protobuf.Duration).'));
    }
    if (Buffer.byteLength(JSON.stringify({ notification: message.notification, data })) > 4000) return json(res, 400, invalidMessage('Message is too big'));
    const failure = tokenFailures.get(deviceToken) ?? nextFailures.shift();
    if (failure) {
      const a = fcmErrorAnswer(failure.kind);
      return json(res, a.status, a.body, failure.retryAfterSeconds);
    }
    // FCM's names look like "projects/p/messages/0:1500415314455276%31bd1c9631bd1c96"; a per-server prefix and a counter keep them unique without a random draw per send.
    const name = `projects/${projectId}/messages/0:${++messageCount}%${namePrefix}`;
    fixture.accepted.push({ name, token: deviceToken, message: opts.keepMessages === false ? null : message, session: sessionIds.get(res.session as Http2Session) ?? 0 });
    json(res, 200, { name });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  fixture.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fixture.tokenUri = `https://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
  return fixture;
}

function json(stream: ServerHttp2Stream, status: number, body: unknown, retryAfterSeconds?: number): void {
  if (stream.destroyed) return;
  stream.respond({ ':status': status, 'content-type': 'application/json; charset=UTF-8', ...(retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}) });
  stream.end(JSON.stringify(body));
}
