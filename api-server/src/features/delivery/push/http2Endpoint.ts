/**
 * One HTTP/2 connection to a push provider, shared by every send to it: APNs asks providers to keep
 * a connection open and multiplex ("don't open a new connection per notification": it is treated
 * as a denial-of-service attempt), and FCM takes HTTP/2 the same way. Streams are opened up to the
 * smaller of our own cap and the server's SETTINGS_MAX_CONCURRENT_STREAMS, read again whenever the
 * server sends new settings (APNs raises it after the first request authenticates); sends past the
 * limit wait in a queue instead of being refused by the server.
 *
 * The session is opened on first use and again after it ends (GOAWAY, a reset, the server closing
 * an idle connection); streams that were in flight on a dying session fail with a network error,
 * which the clients classify as `retry`. The session holds the event loop only while streams are
 * open, so an idle client never keeps a process alive.
 *
 * Connecting: the TCP connection comes from src/net `guardedConnect`, which checks the address it
 * connects to like every other outgoing connection (api-server/CONTEXT.md "Outgoing connections"),
 * then TLS (system authorities plus the policy's extra CA, ALPN h2, the name or IP checked) and
 * HTTP/2 run over that socket. src/net has no HTTP/2 helper yet and this folder may not change it,
 * so the two restricted imports below carry a lint exception; the address check is still src/net's.
 * Moving `openSession` into src/net as `guardedHttp2Session` is a plain move when its owner wants it.
 */
import type { Duplex } from 'node:stream';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- HTTP/2 over a socket from src/net guardedConnect (see above)
import http2, { type ClientHttp2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- TLS over a socket from src/net guardedConnect (see above)
import tls, { rootCertificates } from 'node:tls';
import { guardedConnect, NetError, type NetPolicy } from '../../../net/index.ts';

export interface Http2EndpointOptions {
  /** https://host[:port] (or http:// for h2c). */
  url: string;
  policy: NetPolicy;
  /** Our own cap on streams in flight (default 1,000, APNs' usual figure); the server's setting may lower it. */
  maxConcurrentStreams?: number;
  /** TCP + TLS + the server's first SETTINGS (default 10 s). */
  connectTimeoutMs?: number;
  /** One request, from opening its stream to the end of the answer (default 30 s). */
  requestTimeoutMs?: number;
  /** Largest answer body read (default 64 KiB: provider answers are a few hundred bytes). */
  maxResponseBytes?: number;
}

export interface Http2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export class Http2Endpoint {
  /** Sessions opened so far (observability, and tests asserting multiplexing). */
  sessionsOpened = 0;
  /** The most streams this endpoint had open at once. (nghttp2 would also hold streams past the server's limit in a queue of its own, where nothing sees them; ours keeps that wait visible and out of the request timeout.) */
  maxActive = 0;
  private readonly origin: URL;
  private readonly cap: number;
  private session: ClientHttp2Session | null = null;
  private opening: Promise<ClientHttp2Session> | null = null;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** The server's stream limit, read when its SETTINGS arrive (the getter asks nghttp2 every time). */
  private remoteLimit = 1;
  /** Streams in flight and when each must have its answer: one sweep a second cancels the late ones (a timer per stream cost more than the request itself at 10,000+ a second). */
  private readonly deadlines = new Map<http2.ClientHttp2Stream, { at: number; fail: (error: Error) => void }>();
  private sweeper: NodeJS.Timeout | null = null;

  private readonly opts: Http2EndpointOptions;

  constructor(opts: Http2EndpointOptions) {
    this.opts = opts;
    this.origin = new URL(opts.url);
    if (this.origin.protocol !== 'https:' && this.origin.protocol !== 'http:') throw new Error(`push endpoint ${opts.url}: https or http only`);
    this.cap = Math.max(1, opts.maxConcurrentStreams ?? 1_000);
  }

  /** Streams the current session allows at once. */
  private limit(): number {
    return Math.max(1, Math.min(this.cap, this.remoteLimit));
  }

  private readLimit(session: ClientHttp2Session): void {
    if (session !== this.session && this.session !== null) return;
    this.remoteLimit = session.remoteSettings.maxConcurrentStreams ?? this.cap;
  }

  private async currentSession(): Promise<ClientHttp2Session> {
    if (this.closed) throw new NetError('refused_answer', 'the push client is closed');
    const s = this.session;
    if (s && !s.closed && !s.destroyed) return s;
    this.opening ??= this.openSession().finally(() => { this.opening = null; });
    return this.opening;
  }

  private async openSession(): Promise<ClientHttp2Session> {
    const { policy } = this.opts;
    const connectMs = this.opts.connectTimeoutMs ?? 10_000;
    const secure = this.origin.protocol === 'https:';
    const host = this.origin.hostname.replace(/^\[|\]$/g, '');
    const port = Number(this.origin.port || (secure ? 443 : 80));
    const deadline = AbortSignal.timeout(connectMs);
    const socket = await guardedConnect(policy, { host, port, connectTimeoutMs: connectMs, signal: deadline });
    let transport: Duplex = socket;
    if (secure) {
      const secured = tls.connect({
        socket, host, ALPNProtocols: ['h2'],
        // SNI takes names only; an IP literal is checked against the certificate's IP addresses.
        ...(/^[\d.]+$/.test(host) || host.includes(':') ? {} : { servername: host }),
        ...(policy.extraCa ? { ca: [...rootCertificates, policy.extraCa] } : {}),
      });
      await settle(secured, 'secureConnect', connectMs, `TLS with ${this.origin.host}`);
      if (secured.alpnProtocol !== 'h2') {
        secured.destroy();
        throw new NetError('refused_answer', `${this.origin.host} does not speak HTTP/2 (ALPN ${String(secured.alpnProtocol)})`);
      }
      transport = secured;
    }
    const session = http2.connect(this.origin.origin, { createConnection: () => transport, settings: { enablePush: false } });
    // Errors surface on the streams; the session's own must not become an uncaught exception.
    session.on('error', () => undefined);
    const forget = () => { if (this.session === session) this.session = null; this.wake(); };
    session.once('close', () => {
      forget();
      // The socket under a session made with createConnection is ours to end.
      transport.destroy();
    });
    session.once('goaway', () => {
      forget();
      // No new streams go on it; the streams in flight finish, then it closes.
      if (!session.closed) session.close();
    });
    session.on('remoteSettings', () => {
      this.readLimit(session);
      this.wake();
    });
    try {
      await settle(session, 'remoteSettings', connectMs, `HTTP/2 settings from ${this.origin.host}`);
    } catch (error) {
      session.destroy();
      throw error;
    }
    session.unref();
    this.sessionsOpened++;
    this.session = session;
    this.readLimit(session);
    return session;
  }

  /** Lets queued sends re-check the limit (a stream ended, settings changed, the session went). */
  private wake(): void {
    for (const resume of this.waiting.splice(0)) resume();
  }

  /** Sends one request on the shared session; rejects on network failures (no answer), resolves with any HTTP answer. */
  async request(headers: OutgoingHttpHeaders, body: Buffer): Promise<Http2Answer> {
    const open = this.session;
    let session = open && !open.closed && !open.destroyed ? open : await this.currentSession();
    while (this.active >= this.limit()) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      session = await this.currentSession();
    }
    this.active++;
    if (this.active > this.maxActive) this.maxActive = this.active;
    // ref is idempotent; unref only when nothing is in flight (a replacement session starts unref'd).
    session.ref();
    try {
      return await this.exchange(session, headers, body);
    } finally {
      this.active--;
      if (this.active === 0 && !session.destroyed) session.unref();
      // One freed slot lets one waiter through; the others keep their place.
      this.waiting.shift()?.();
    }
  }

  private exchange(session: ClientHttp2Session, headers: OutgoingHttpHeaders, body: Buffer): Promise<Http2Answer> {
    const maxBytes = this.opts.maxResponseBytes ?? 64 * 1024;
    const timeoutMs = this.opts.requestTimeoutMs ?? 30_000;
    return new Promise<Http2Answer>((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request({ ':method': 'POST', ...headers, 'content-length': body.length });
      } catch (error) {
        // The session closed between the check and the request (ERR_HTTP2_INVALID_SESSION, GOAWAY).
        return reject(error instanceof Error ? error : new Error(String(error)));
      }
      let status = 0;
      let answerHeaders: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let bytes = 0;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        this.deadlines.delete(stream);
        stream.close(http2.constants.NGHTTP2_CANCEL);
        reject(error);
      };
      this.deadlines.set(stream, { at: Date.now() + timeoutMs, fail });
      this.sweeper ??= setInterval(() => this.sweep(), Math.min(1_000, timeoutMs)).unref();
      stream.on('response', (h) => {
        status = Number(h[':status']);
        answerHeaders = h;
      });
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) fail(new NetError('too_large', `${this.origin.host} answered more than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      stream.on('end', () => {
        if (settled) return;
        settled = true;
        this.deadlines.delete(stream);
        resolve({ status, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8') });
      });
      stream.on('error', (error: Error) => fail(error));
      stream.on('close', () => {
        // A stream reset by the server (REFUSED_STREAM, CANCEL) or cut by a GOAWAY ends without 'end' or 'error'.
        if (!settled) fail(Object.assign(new Error(`the stream to ${this.origin.host} closed without an answer (code ${stream.rstCode})`), { code: `HTTP2_RST_${stream.rstCode ?? 0}` }));
      });
      stream.end(body);
    });
  }

  /** Cancels the streams past their deadline. */
  private sweep(): void {
    const now = Date.now();
    for (const [, d] of this.deadlines) {
      if (d.at <= now) d.fail(new NetError('timeout', `waiting for ${this.origin.host} to answer took longer than ${this.opts.requestTimeoutMs ?? 30_000} ms`, { transient: true, code: 'ETIMEDOUT' }));
    }
    if (this.deadlines.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** Ends the session after the streams in flight (new sends are refused). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    const s = this.session ?? (this.opening ? await this.opening.catch(() => null) : null);
    this.session = null;
    if (s && !s.closed) await new Promise<void>((resolve) => s.close(resolve));
  }
}

/** Resolves on `event`, rejects on 'error'/'close' first or after `ms`. */
function settle(emitter: NodeJS.EventEmitter & { destroy(error?: Error): unknown }, event: string, ms: number, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      emitter.removeListener(event, ok);
      emitter.removeListener('error', bad);
      emitter.removeListener('close', closed);
      if (error) {
        emitter.destroy();
        reject(error);
      } else resolve();
    };
    const ok = () => done();
    const bad = (error: Error) => done(error);
    const closed = () => done(Object.assign(new Error(`${what}: the connection closed`), { code: 'ECONNRESET' }));
    const timer = setTimeout(() => done(new NetError('timeout', `${what} took longer than ${ms} ms`, { transient: true, code: 'ETIMEDOUT' })), ms);
    emitter.once(event, ok);
    emitter.once('error', bad);
    emitter.once('close', closed);
  });
}
