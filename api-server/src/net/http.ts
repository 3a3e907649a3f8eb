/**
 * HTTP(S) requests to checked addresses, under limits: `guardedRequest` is the one way this product
 * sends an HTTP request out (imports today; postbacks, webhooks and provider calls next).
 *
 * - Address: an IP literal is checked before connecting; a name is resolved by the connection's
 *   own lookup, which checks every address and connects only to those (socket.ts). No agent is
 *   shared, so no pooled connection outlives its check.
 * - Time: connecting (TCP and TLS) within connectTimeoutMs, every wait for a byte within idleMs,
 *   and the whole exchange, the answer's body included, within totalMs.
 * - Size: the answer's body is at most maxBytes (a larger Content-Length fails at once, a longer
 *   body fails when it passes the limit).
 * - Redirects: not followed unless maxRedirects says so; each hop is a new request, checked like
 *   the first, to http(s) only; the caller's headers are not sent on (they may sign or
 *   authenticate the first address only).
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Readable } from 'node:stream';
import { NetError, timeoutError } from './errors.ts';
import type { NetPolicy } from './policy.ts';
import { guardedLookup, limitedStream, literalRefusal } from './socket.ts';

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal | undefined;
  /** TCP and TLS connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Longest wait for the next byte, answer and body (default 30 s). */
  idleMs?: number;
  /** The whole exchange, the body read to its end included (default 60 s). */
  totalMs?: number;
  /** Largest answer body (default 10 MiB). */
  maxBytes?: number;
  /** Redirects followed (default 0: a 3xx is answered as it is). */
  maxRedirects?: number;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The address that answered (after redirects). */
  url: URL;
  /** The body, under the limits; reading it to its end (or destroying it) frees the connection. */
  body: Readable;
  /** Content-Length, when the answer gave one. */
  length: number | null;
}

export const REQUEST_DEFAULTS = { connectTimeoutMs: 10_000, idleMs: 30_000, totalMs: 60_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 0 } as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Growthdeck/1';

function send(url: URL, policy: NetPolicy, opts: GuardedRequestOptions, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined, deadline: number): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const refused = literalRefusal(url.hostname, policy);
    if (refused) return reject(refused);
    const secure = url.protocol === 'https:';
    const connectMs = Math.min(opts.connectTimeoutMs ?? REQUEST_DEFAULTS.connectTimeoutMs, Math.max(1, deadline - Date.now()));
    const req = (secure ? https : http).request(url, {
      method, agent: false, lookup: guardedLookup(policy),
      headers: { 'user-agent': USER_AGENT, accept: '*/*', ...headers },
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(secure && policy.extraCa ? { ca: [...rootCertificates, policy.extraCa] } : {}),
    });
    const connectTimer = setTimeout(() => req.destroy(timeoutError(`connecting to ${url.host}`, connectMs)), connectMs);
    req.once('socket', (socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    // Silence until the answer arrives. The body's silence is the body reader's to judge
    // (limitedStream, in guardedRequest): the socket also goes quiet when our own consumer reads
    // slowly and back-pressure pauses it, which is not the server being silent.
    const idleMs = opts.idleMs ?? REQUEST_DEFAULTS.idleMs;
    req.setTimeout(idleMs, () => req.destroy(timeoutError(`waiting for ${url.host} to answer`, idleMs)));
    const totalTimer = setTimeout(() => req.destroy(timeoutError(`${method} ${url.host}${url.pathname}`, opts.totalMs ?? REQUEST_DEFAULTS.totalMs)), Math.max(1, deadline - Date.now()));
    req.once('response', (res) => {
      req.setTimeout(0);
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      resolve(res);
    });
    req.once('error', (error) => {
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      reject(error);
    });
    req.end(body);
  });
}

/** One request, following up to maxRedirects redirects, each hop checked as the first. */
export async function guardedRequest(target: string | URL, policy: NetPolicy, opts: GuardedRequestOptions = {}): Promise<GuardedResponse> {
  const totalMs = opts.totalMs ?? REQUEST_DEFAULTS.totalMs;
  const deadline = Date.now() + totalMs;
  const maxRedirects = opts.maxRedirects ?? REQUEST_DEFAULTS.maxRedirects;
  const maxBytes = opts.maxBytes ?? REQUEST_DEFAULTS.maxBytes;
  let url = new URL(target);
  let method = (opts.method ?? 'GET').toUpperCase();
  let headers = opts.headers ?? {};
  let body = opts.body;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new NetError('refused_answer', `${url.protocol} is not an http(s) address`);
    }
    const res = await send(url, policy, opts, method, headers, body, deadline);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location && hop < maxRedirects) {
      // Its body is not read (nor limited): close the connection (none is reused, see `agent`).
      res.destroy();
      url = new URL(location, url);
      headers = {};
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      }
      continue;
    }
    const length = Number(res.headers['content-length']);
    const known = res.headers['content-length'] !== undefined && Number.isFinite(length) && length >= 0 ? length : null;
    if (known !== null && known > maxBytes) {
      res.destroy();
      throw new NetError('too_large', `${url.host}${url.pathname} answered ${known} bytes; at most ${maxBytes} are taken`);
    }
    const what = `reading ${url.host}${url.pathname}`;
    const idleMs = opts.idleMs ?? REQUEST_DEFAULTS.idleMs;
    return { status, headers: res.headers, url, length: known, body: limitedStream(res, { maxBytes, idleMs, totalMs: Math.max(1, deadline - Date.now()), totalLimitMs: totalMs, what }) };
  }
}

/** The whole body of an answer (under its limits), e.g. a provider's JSON. */
export async function readBody(response: GuardedResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
