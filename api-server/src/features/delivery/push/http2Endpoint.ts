/**
 * HTTP/2 connections to a push provider, shared by every send to it: APNs asks providers to keep
 * connections open and multiplex ("don't open a new connection per notification": it is treated
 * as a denial-of-service attempt), and FCM takes HTTP/2 the same way. Streams are opened on a
 * connection up to the smaller of our own cap and the server's SETTINGS_MAX_CONCURRENT_STREAMS,
 * read again whenever the server sends new settings (APNs raises it after the first request
 * authenticates). When every connection is full, another is opened, up to `maxConnections`
 * (PUSH_MAX_CONNECTIONS below says why several); past that, sends wait in a queue instead of being
 * refused by the server. A send goes to the connection with the most free streams.
 *
 * The HTTP/2 itself is http2/connection.ts, our own client, not node:http2 (that file says why). Tests hold it to node:http2's server (nghttp2) in every test that
 * sends a push, and http2/connection.int.test.ts to the protocol's corners.
 *
 * The first connection is opened on first use, and others as above; one that ends (GOAWAY, a
 * reset, the server closing an idle connection) leaves the pool, and the next send opens another
 * if it needs one. Streams that were in flight on a dying connection fail with a network error,
 * which the clients classify as `retry`. The socket holds the event loop only while
 * streams are open, so an idle client never keeps a process alive.
 *
 * Connecting: the TCP connection comes from src/net `guardedConnect`, which checks the address it
 * connects to like every other outgoing connection (api-server/CONTEXT.md "Outgoing connections"),
 * then TLS (system authorities plus the policy's extra CA, ALPN h2, the name or IP checked) and
 * HTTP/2 run over that socket. src/net has no TLS helper for a connected socket and this folder may
 * not change it, so the restricted import below carries a lint exception; the address check is
 * still src/net's.
 */
import type { Socket } from 'node:net';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- TLS over a socket from src/net guardedConnect (see above)
import tls, { rootCertificates } from 'node:tls';
import { guardedConnect, NetError, type NetPolicy } from '../../../net/index.ts';
import { Http2Connection, type Http2Response } from './http2/connection.ts';
import type { HeaderList } from './http2/hpack.ts';

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
  /** Connections opened when every open one is at its stream limit (default PUSH_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Request headers whose value repeats from request to request (connection.ts `repeatedHeaders`). */
  repeatedHeaders?: readonly string[];
}

/**
 * Connections per provider endpoint, opened one by one and only while every open one is at its
 * stream limit. One connection carries at most its SETTINGS_MAX_CONCURRENT_STREAMS in flight: 1,000
 * at APNs, 100 at Google's front ends, so at 50 ms a round trip one FCM connection carries about
 * 2,000 notifications a second and 20,000 need ten. Apple and Google both take several connections
 * from one sender ("you can establish multiple connections to APNs servers to improve performance").
 */
export const PUSH_MAX_CONNECTIONS = 12;

export interface Http2Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: string;
}

/** Request headers: lower-case names, one value each; pseudo-headers (`:path`) go first. */
export type RequestHeaders = Record<string, string>;

/** Header names (RFC 9110 tokens, lower case, or a pseudo-header) and values (no NUL, CR, LF or other controls but tab). */
const NAME = /^:?[a-z0-9!#$%&'*+\-.^_`|~]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

interface Deadline { at: number; connection: Http2Connection; id: number }

export class Http2Endpoint {
  /** Connections opened so far (observability, and tests asserting multiplexing). */
  sessionsOpened = 0;
  /** The most streams this endpoint had open at once, over all its connections. */
  maxActive = 0;
  private readonly origin: URL;
  private readonly cap: number;
  private readonly maxConnections: number;
  /** Connections taking new streams, oldest first. */
  private connections: Http2Connection[] = [];
  /** Streams each connection carries or has been picked for (reserved in the same step as the pick, so a burst of sends cannot all take the last free stream). */
  private readonly load = new Map<Http2Connection, number>();
  /** Each connection's transport (the TLS socket, or TCP for h2c): referenced only while it has streams open. */
  private readonly transports = new WeakMap<Http2Connection, Socket>();
  /** The connection being opened: one at a time, so a burst of sends opens one, not one each. */
  private opening: Promise<Http2Connection> | null = null;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Streams in flight and when each must have its answer: one sweep a second cancels the late ones (a timer per stream cost more than the request itself at 10,000+ a second). */
  private readonly deadlines = new Set<Deadline>();
  private sweeper: NodeJS.Timeout | null = null;

  private readonly opts: Http2EndpointOptions;

  constructor(opts: Http2EndpointOptions) {
    this.opts = opts;
    this.origin = new URL(opts.url);
    if (this.origin.protocol !== 'https:' && this.origin.protocol !== 'http:') throw new Error(`push endpoint ${opts.url}: https or http only`);
    this.cap = Math.max(1, opts.maxConcurrentStreams ?? 1_000);
    this.maxConnections = Math.max(1, opts.maxConnections ?? PUSH_MAX_CONNECTIONS);
  }

  /** Streams a connection allows at once: our cap or the server's SETTINGS_MAX_CONCURRENT_STREAMS, the smaller. */
  private limit(c: Http2Connection): number {
    // A server may announce 0 (no new streams for now): then the connection has no room.
    return Math.min(this.cap, c.remoteMaxStreams);
  }

  /** The connection with the most room for one more stream, or null when every one is full. */
  private pick(): Http2Connection | null {
    let best: Http2Connection | null = null;
    let room = 0;
    for (const c of this.connections) {
      const free = this.limit(c) - (this.load.get(c) ?? 0);
      if (free > room && !c.draining) {
        best = c;
        room = free;
      }
    }
    return best;
  }

  private async openConnection(): Promise<Http2Connection> {
    const { policy } = this.opts;
    const connectMs = this.opts.connectTimeoutMs ?? 10_000;
    const secure = this.origin.protocol === 'https:';
    const host = this.origin.hostname.replace(/^\[|\]$/g, '');
    const port = Number(this.origin.port || (secure ? 443 : 80));
    const deadline = AbortSignal.timeout(connectMs);
    const socket = await guardedConnect(policy, { host, port, connectTimeoutMs: connectMs, signal: deadline });
    let transport: Socket = socket;
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
    const connection = new Http2Connection(transport, {
      authority: this.origin.host, scheme: secure ? 'https' : 'http', maxResponseBytes: this.opts.maxResponseBytes ?? 64 * 1024,
      ...(this.opts.repeatedHeaders ? { repeatedHeaders: this.opts.repeatedHeaders } : {}),
    });
    const forget = () => {
      this.connections = this.connections.filter((c) => c !== connection);
      this.wake();
    };
    connection.once('close', () => {
      forget();
      this.load.delete(connection);
    });
    // A connection closing cleanly ends its transport after its GOAWAY (connection.ts); the TCP
    // socket under TLS goes with the transport, not before it.
    transport.once('close', () => socket.destroy());
    // No new streams go on it; the streams in flight finish, then it closes by itself.
    connection.once('goaway', forget);
    connection.on('settings', () => this.wake());
    await settle(connection, 'settings', connectMs, `HTTP/2 settings from ${this.origin.host}`);
    // Only the outermost socket: unref on a TCP socket under TLS waits for a 'connect' that never comes.
    transport.unref();
    this.transports.set(connection, transport);
    this.sessionsOpened++;
    if (this.closed) {
      void connection.close();
      throw new NetError('refused_answer', 'the push client is closed');
    }
    this.connections.push(connection);
    return connection;
  }

  /** A connection with room for a stream: an open one, else a new one while there are fewer than maxConnections, else the first to free a stream. */
  private async connectionWithRoom(): Promise<Http2Connection> {
    for (;;) {
      if (this.closed) throw new NetError('refused_answer', 'the push client is closed');
      const c = this.pick();
      if (c) {
        const load = (this.load.get(c) ?? 0) + 1;
        this.load.set(c, load);
        if (load === 1) this.transports.get(c)?.ref();
        let inFlight = 0;
        for (const n of this.load.values()) inFlight += n;
        if (inFlight > this.maxActive) this.maxActive = inFlight;
        return c;
      }
      if (this.opening) await this.opening;
      else if (this.connections.length < this.maxConnections) {
        this.opening = this.openConnection().finally(() => { this.opening = null; });
        await this.opening;
      } else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Lets queued sends look again (a stream ended, settings changed, a connection went). */
  private wake(): void {
    for (const resume of this.waiting.splice(0)) resume();
  }

  /** Sends one request; rejects on network failures (no answer), resolves with any HTTP answer. */
  async request(headers: RequestHeaders, body: Buffer): Promise<Http2Answer> {
    const fields = headerList(headers);
    const connection = await this.connectionWithRoom();
    try {
      return await this.exchange(connection, fields, body);
    } finally {
      const load = (this.load.get(connection) ?? 1) - 1;
      if (this.load.has(connection)) this.load.set(connection, load);
      // Idle: the connection no longer keeps the process alive.
      if (load === 0) this.transports.get(connection)?.unref();
      // One freed stream lets one waiter through; the others keep their place.
      this.waiting.shift()?.();
    }
  }

  private exchange(connection: Http2Connection, fields: HeaderList, body: Buffer): Promise<Http2Answer> {
    const timeoutMs = this.opts.requestTimeoutMs ?? 30_000;
    return new Promise<Http2Answer>((resolve, reject) => {
      const deadline: Deadline = { at: Date.now() + timeoutMs, connection, id: 0 };
      try {
        deadline.id = connection.request(fields, body, {
          resolve: (r: Http2Response) => {
            this.deadlines.delete(deadline);
            resolve({ status: r.status, headers: r.headers, body: r.body.toString('utf8') });
          },
          reject: (error: Error) => {
            this.deadlines.delete(deadline);
            reject(error);
          },
        });
      } catch (error) {
        // The connection went away between the pick and the request.
        return reject(error instanceof Error ? error : new Error(String(error)));
      }
      this.deadlines.add(deadline);
      this.sweeper ??= setInterval(() => this.sweep(), Math.min(1_000, timeoutMs)).unref();
    });
  }

  /** Cancels the streams past their deadline. */
  private sweep(): void {
    const now = Date.now();
    for (const d of this.deadlines) {
      if (d.at <= now) d.connection.cancel(d.id, new NetError('timeout', `waiting for ${this.origin.host} to answer took longer than ${this.opts.requestTimeoutMs ?? 30_000} ms`, { transient: true, code: 'ETIMEDOUT' }));
    }
    if (this.deadlines.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** Ends the connections after the streams in flight (new sends are refused). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    if (this.opening) await this.opening.catch(() => null);
    const all = this.connections;
    this.connections = [];
    await Promise.all(all.map((c) => c.close()));
  }
}

/** The request's fields, pseudo-headers first; a bad name or value throws before anything is sent. */
function headerList(headers: RequestHeaders): HeaderList {
  const pseudo: HeaderList = [];
  const regular: HeaderList = [];
  for (const name in headers) {
    const value = headers[name] ?? '';
    // The same codes as node:http2's refusals; result.ts makes them `failed` (the message is wrong, not the weather).
    if (!NAME.test(name)) throw Object.assign(new Error(`invalid header name ${JSON.stringify(name)}`), { code: 'ERR_INVALID_HTTP_TOKEN' });
    if (!VALUE.test(value)) throw Object.assign(new Error(`invalid value for header ${name}`), { code: 'ERR_HTTP2_INVALID_HEADER_VALUE' });
    (name.startsWith(':') ? pseudo : regular).push([name, value]);
  }
  return pseudo.concat(regular);
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
