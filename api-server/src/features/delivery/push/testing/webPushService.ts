/**
 * A loopback web push service for tests, speaking what a browser's push service speaks:
 *
 * - RFC 8030: a subscription is a URL; the application server POSTs a message to it with `TTL`
 *   (required), `Urgency` and `Topic`; 201 Created when taken, 404/410 when the subscription is
 *   unknown or gone, 413 over 4096 bytes, 429 with Retry-After when told to.
 * - RFC 8292 (VAPID): `Authorization: vapid t=<JWT>, k=<public key>` (or the older
 *   `WebPush <JWT>` with `Crypto-Key: p256ecdsa=<key>`); the JWT must be ES256, signed by k, with
 *   aud = this service's origin, exp in the future and at most 24 h away, and a sub. A subscription
 *   made with an application server key accepts only that key (as browsers' services do: 403).
 * - RFC 8291/8188: the body is decrypted (aes128gcm) with the subscription's private key and
 *   auth secret, which this service holds because, acting for the browser, it makes the
 *   subscriptions (`subscribe`: a P-256 key pair and a 16-byte auth secret).
 *
 * Everything it took is in `received` (plaintext, headers, the verified claims).
 */
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebPushSubscriptionJson { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }

export interface ReceivedPush {
  subscriptionId: string;
  endpoint: string;
  /** The decrypted payload. */
  plaintext: string;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  vapid: { publicKey: string; aud: string; sub: string; exp: number };
  at: number;
}

interface Subscription { id: string; ecdh: ReturnType<typeof createECDH>; publicKey: Buffer; auth: Buffer; applicationServerKey: string | undefined; gone: boolean }

export interface WebPushServiceFixture {
  /** http://127.0.0.1:port (the VAPID audience). */
  origin: string;
  /** host:port, for WEB_PUSH_ALLOW_HOSTS. */
  host: string;
  received: ReceivedPush[];
  /** Refusals, with why (VAPID, decryption, unknown subscription...). */
  refused: { status: number; reason: string; endpoint: string }[];
  /** A new subscription, as the browser's PushManager.subscribe answers it (optionally bound to an application server key). */
  subscribe(applicationServerKey?: string): WebPushSubscriptionJson;
  /** The subscription is dropped (the person unsubscribed in the browser): 410 from now on. */
  drop(endpoint: string): void;
  /** The next n messages are answered with this status (429 with Retry-After seconds...). */
  failNext(n: number, answer: { status: number; retryAfterSeconds?: number }): void;
  close(): Promise<void>;
}

const b64u = (b: Buffer) => b.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 section 3.4 and RFC 8188: decrypts one aes128gcm body for a subscription. */
export function decryptAes128gcm(body: Buffer, sub: { ecdh: ReturnType<typeof createECDH>; publicKey: Buffer; auth: Buffer }): string {
  if (body.length < 21 + 65 + 17) throw new Error('body too short');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (idlen !== 65) throw new Error(`keyid of ${idlen} bytes, the sender's P-256 public key (65) expected`);
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length > rs) throw new Error('more than one record');
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const prkKey = hmac(sub.auth, ecdhSecret);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from('WebPush: info\0'), sub.publicKey, asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record does not end with the 0x02 delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Verifies a VAPID JWT (ES256) with the raw public key; answers its claims or why not. */
export function verifyVapid(jwt: string, publicKey: string, audience: string, now = Date.now()): { aud: string; sub: string; exp: number } | string {
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) return 'not a JWT';
  let header: { alg?: string; typ?: string }, claims: { aud?: string; sub?: string; exp?: number };
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString()) as typeof header;
    claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as typeof claims;
  } catch {
    return 'unreadable JWT';
  }
  if (header.alg !== 'ES256') return `alg ${header.alg}`;
  const raw = Buffer.from(publicKey, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) return 'k is not an uncompressed P-256 point';
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33)) }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))) return 'bad signature';
  if (claims.aud !== audience) return `aud ${claims.aud} is not ${audience}`;
  const nowS = now / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= nowS || claims.exp > nowS + 24 * 3600 + 60) return 'exp out of range';
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return 'no sub';
  return { aud: claims.aud, sub: claims.sub, exp: claims.exp };
}

/** The JWT and key of a request's VAPID authorization (RFC 8292 `vapid`, or the draft's `WebPush` + Crypto-Key). */
function vapidOf(req: IncomingMessage): { jwt: string; key: string } | null {
  const auth = req.headers.authorization ?? '';
  const m = /^vapid\s+(.*)$/i.exec(auth);
  if (m) {
    const params = new Map(m[1]!.split(',').map((part) => part.trim().split('=')).map(([k, ...v]): [string, string] => [k?.trim() ?? '', v.join('=').trim()]));
    const t = params.get('t'), k = params.get('k');
    return t && k ? { jwt: t, key: k } : null;
  }
  const w = /^WebPush\s+(\S+)$/i.exec(auth);
  const k = /p256ecdsa=([A-Za-z0-9_-]+)/.exec(String(req.headers['crypto-key'] ?? ''));
  return w && k ? { jwt: w[1]!, key: k[1]! } : null;
}

export async function startWebPushService(opts: { port?: number } = {}): Promise<WebPushServiceFixture> {
  const subscriptions = new Map<string, Subscription>();
  const received: ReceivedPush[] = [];
  const refused: WebPushServiceFixture['refused'] = [];
  const failures: { status: number; retryAfterSeconds?: number }[] = [];
  let origin = '';

  const answer = (res: ServerResponse, endpoint: string, status: number, reason: string, headers: Record<string, string> = {}) => {
    if (status >= 400) refused.push({ status, reason, endpoint });
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(reason);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = `${origin}${req.url ?? ''}`;
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      if (req.method !== 'POST' || !id) return answer(res, endpoint, 404, 'not a subscription');
      const sub = subscriptions.get(id);
      if (!sub) return answer(res, endpoint, 404, 'unknown subscription');
      if (sub.gone) return answer(res, endpoint, 410, 'subscription expired or unsubscribed');
      const failure = failures.shift();
      if (failure) return answer(res, endpoint, failure.status, 'told to fail', failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {});
      const ttl = Number(req.headers.ttl);
      if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return answer(res, endpoint, 400, 'TTL header missing');
      const vapid = vapidOf(req);
      if (!vapid) return answer(res, endpoint, 401, 'no VAPID authorization');
      if (sub.applicationServerKey && sub.applicationServerKey !== vapid.key) return answer(res, endpoint, 403, 'the VAPID key is not the one the subscription was made with');
      const claims = verifyVapid(vapid.jwt, vapid.key, origin);
      if (typeof claims === 'string') return answer(res, endpoint, 403, `VAPID: ${claims}`);
      const body = Buffer.concat(chunks);
      if (body.length > 4096) return answer(res, endpoint, 413, 'payload too large');
      if (String(req.headers['content-encoding']).toLowerCase() !== 'aes128gcm') return answer(res, endpoint, 400, `content-encoding ${req.headers['content-encoding']}`);
      let plaintext: string;
      try {
        plaintext = decryptAes128gcm(body, sub);
      } catch (error) {
        return answer(res, endpoint, 400, `decryption: ${(error as Error).message}`);
      }
      received.push({
        subscriptionId: id, endpoint, plaintext, ttl,
        urgency: typeof req.headers.urgency === 'string' ? req.headers.urgency : undefined,
        topic: typeof req.headers.topic === 'string' ? req.headers.topic : undefined,
        vapid: { publicKey: vapid.key, ...claims }, at: Date.now(),
      });
      answer(res, endpoint, 201, '', { location: `${origin}/message/${randomUUID()}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    origin, host: `127.0.0.1:${port}`, received, refused,
    subscribe(applicationServerKey) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const id = randomBytes(12).toString('base64url');
      const sub: Subscription = { id, ecdh, publicKey: ecdh.getPublicKey(), auth: randomBytes(16), applicationServerKey, gone: false };
      subscriptions.set(id, sub);
      return { endpoint: `${origin}/push/${id}`, expirationTime: null, keys: { p256dh: b64u(sub.publicKey), auth: b64u(sub.auth) } };
    },
    drop(endpoint) {
      const sub = subscriptions.get(endpoint.split('/').pop() ?? '');
      if (sub) sub.gone = true;
    },
    failNext(n, failure) {
      for (let i = 0; i < n; i++) failures.push(failure);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
