/**
 * The collaborative sync server: a Hocuspocus 4 instance with our hooks, served over `ws`, either
 * standalone (`listen`) or on another HTTP server's upgrade requests (`attach`, e.g. the API's
 * server at /collab), with a `shutdown` that stores every pending change before it resolves.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Redis } from '@hocuspocus/extension-redis';
import { Redis as IORedis } from 'ioredis';
import { Hocuspocus, type Extension, type onChangePayload } from '@hocuspocus/server';
import { pino, type Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { accessHooks } from './access.ts';
import { watchAccess } from './accessWatch.ts';
import type { SyncContext } from './auth.ts';
import { Persistence, type RetryPolicy } from './persistence.ts';
import type { Db } from './repository.ts';
import { WS_MAX_PAYLOAD } from './validation.ts';

export interface SyncServerOptions {
  db: Db;
  /** The JWT signing secret shared with the API (see repository.loadSigningSecret). */
  secret: string;
  log?: Logger | undefined;
  /** Joins several sync-server processes serving the same documents. */
  redis?: { url: string; prefix?: string | undefined } | undefined;
  debounceMs?: number | undefined;
  maxDebounceMs?: number | undefined;
  storeRetry?: Partial<RetryPolicy> | undefined;
  /** How long shutdown waits for pending stores before giving up on them. */
  shutdownTimeoutMs?: number | undefined;
  /** How often open connections' rights are checked again (accessWatch.ts); default 1 s. */
  accessCheckMs?: number | undefined;
}

export interface SyncServer {
  hocuspocus: Hocuspocus<SyncContext>;
  /** Standalone: an HTTP server of our own (GET /healthz) accepting WebSockets on any path. */
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /** Serve WebSocket upgrades on `path` of an existing HTTP server. Returns a function that detaches. */
  attach(server: http.Server, path?: string): () => void;
  /** Close every connection, store every pending change, release Redis. Idempotent. */
  shutdown(): Promise<void>;
  readonly stopping: boolean;
}

/**
 * The Redis extension's two connections (publish, subscribe). ioredis reconnects by itself and
 * queues commands while down, so a Redis restart loses none of our publishes
 * (redisFaults.sync.test.ts); what it lacks is an error listener, without which every failed
 * reconnect is printed to stderr as "Unhandled error event". We log the first error of an outage
 * as a warning and the recovery as info.
 *
 * What a reconnect cannot bring back is what the other instances published while our subscription
 * was down: their edits of that time, and their answers to the announcements we had queued (an
 * instance learns a peer's edits by announcing its state vector and reading the peer's answer).
 * Our two connections come back one after the other, in either order; when the publishing one
 * came back first, its queued announcements were answered into a channel nobody here heard, and
 * the two sides would stay apart until someone typed again. So each connection that comes back
 * calls `recovered` once Redis has handled what it sends first on reconnecting (for the
 * subscriber, its SUBSCRIBE: the PING below is answered after it), and the server announces
 * every open document again.
 */
function redisExtension(url: string, prefix: string, log: Logger, recovered: () => void): Redis {
  const u = new URL(url);
  const options = {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number(u.pathname.slice(1)) || 0,
  };
  return new Redis({
    ...options,
    prefix,
    createClient: () => {
      const client = new IORedis(options);
      // Down: the connection closed since it was last ready (a reset connection may raise no error).
      let down = false;
      let warned = false;
      client.on('error', (error: Error) => {
        if (!warned) log.warn({ err: error, redis: `${options.host}:${options.port}` }, 'lost Redis: other sync instances will hear of edits once it is back');
        warned = true;
        down = true;
      });
      client.on('close', () => {
        down = true;
      });
      client.on('ready', () => {
        if (!down) return;
        log.info({ redis: `${options.host}:${options.port}` }, 'Redis is back');
        down = false;
        warned = false;
        // ioredis sends the subscriber's SUBSCRIBE right after this event; a PING queued behind it
        // is answered once Redis has subscribed us again (PING is allowed in subscriber mode).
        setImmediate(() => {
          client.ping().then(recovered, () => undefined);
        });
      });
      return client;
    },
  });
}

/** Hocuspocus 4 expects a web Request (headers and query parameters reach the hooks). */
function toWebRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : [value ?? '']) headers.append(name, v);
  }
  return new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), { headers });
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function createSyncServer(opts: SyncServerOptions): SyncServer {
  const log = opts.log ?? pino({ level: 'info' });
  const persistence = new Persistence({ db: opts.db, log, retry: opts.storeRetry });
  const idleWaiters = new Set<() => void>();
  const lifecycle: Extension = {
    extensionName: 'gd-lifecycle',
    afterUnloadDocument({ instance }) {
      if (instance.getDocumentsCount() === 0) for (const wake of idleWaiters) wake();
      return Promise.resolve();
    },
  };
  const append = persistence.append.bind(persistence);
  const extensions: Extension[] = [accessHooks({ db: opts.db, secret: opts.secret, log, append }), persistence, lifecycle];
  if (opts.redis) {
    const redis = redisExtension(opts.redis.url, opts.redis.prefix ?? 'gd-sync', log, () => {
      // Every open document announces its state again (a SyncStep1: each peer answers with what we
      // lack and asks for what it lacks), as the extension does after every change.
      for (const [documentName, document] of hocuspocus.documents) {
        redis.onChange({ documentName, document, transactionOrigin: undefined } as Pick<onChangePayload, 'documentName' | 'document' | 'transactionOrigin'> as onChangePayload)
          .catch((error: unknown) => log.warn({ err: error, documentName }, 'announcing a document after Redis came back failed'));
      }
    });
    extensions.push(redis);
  }

  const hocuspocus = new Hocuspocus<SyncContext>({
    quiet: true,
    debounce: opts.debounceMs ?? 2_000,
    maxDebounce: opts.maxDebounceMs ?? 10_000,
    unloadImmediately: true,
    extensions,
  });

  const accessWatch = watchAccess({ hocuspocus, db: opts.db, log, intervalMs: opts.accessCheckMs ?? 1_000 });

  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });
  let stopping = false;
  let ownServer: http.Server | null = null;
  let shutdownPromise: Promise<void> | null = null;

  function accept(ws: WebSocket, req: http.IncomingMessage): void {
    const client = hocuspocus.handleConnection(ws, toWebRequest(req));
    ws.on('message', (data, isBinary) => {
      if (isBinary) client.handleMessage(toBytes(data));
      else ws.close(1003, 'binary frames only');
    });
    ws.on('close', (code, reason) => client.handleClose({ code, reason: reason.toString() }));
    // ws closes the socket itself after an error (e.g. a frame above maxPayload: 1009).
    ws.on('error', (error) => log.info({ err: error }, 'websocket error'));
  }

  function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    if (stopping) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
  }

  function attach(server: http.Server, path = '/collab'): () => void {
    const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://x').pathname === path) upgrade(req, socket, head);
    };
    server.on('upgrade', onUpgrade);
    return () => server.off('upgrade', onUpgrade);
  }

  /**
   * GET /metrics (standalone): open documents and connections, and memory. With `?gc=1` and the
   * process started with --expose-gc, collects garbage first, so heap figures are comparable.
   */
  function metrics(collect: boolean) {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (collect && gc) gc();
    const memory = process.memoryUsage();
    return {
      documents: hocuspocus.getDocumentsCount(),
      connections: hocuspocus.getConnectionsCount(),
      heapUsed: memory.heapUsed,
      rss: memory.rss,
      collected: Boolean(collect && gc),
    };
  }

  async function listen(port = 0, host = '0.0.0.0'): Promise<{ port: number; url: string }> {
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith('/metrics')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(metrics(req.url.includes('gc=1'))));
        return;
      }
      const healthy = req.url === '/healthz' && !stopping;
      res.writeHead(healthy ? 200 : req.url === '/healthz' ? 503 : 404, { 'content-type': 'text/plain' });
      res.end(healthy ? 'ok' : '');
    });
    server.on('upgrade', upgrade);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    ownServer = server;
    const bound = (server.address() as AddressInfo).port;
    return { port: bound, url: `ws://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}` };
  }

  async function waitForIdle(timeoutMs: number): Promise<boolean> {
    if (hocuspocus.getDocumentsCount() === 0) return true;
    return new Promise<boolean>((resolve) => {
      const done = (idle: boolean) => { clearTimeout(timer); idleWaiters.delete(wake); resolve(idle); };
      const wake = () => done(true);
      const timer = setTimeout(() => done(hocuspocus.getDocumentsCount() === 0), timeoutMs);
      idleWaiters.add(wake);
    });
  }

  async function runShutdown(): Promise<void> {
    stopping = true;
    accessWatch.stop();
    persistence.beginShutdown();
    hocuspocus.closeConnections();
    for (const ws of wss.clients) ws.close(1012, 'server restarting');
    for (const document of hocuspocus.documents.values()) {
      const debounced = hocuspocus.debouncer.isDebounced(`onStoreDocument-${document.name}`);
      if (persistence.isDirty(document) || debounced) void persistence.scheduleStore(hocuspocus, document, true);
      else if (document.getConnectionsCount() === 0) void hocuspocus.unloadDocument(document);
    }
    if (!(await waitForIdle(opts.shutdownTimeoutMs ?? 20_000))) {
      persistence.abandonRetries();
      const unstored = [...hocuspocus.documents.values()].filter((d) => persistence.isDirty(d)).map((d) => d.name);
      log.error({ unstored }, 'shutdown timed out; these documents keep unstored edits only in their clients');
    }
    await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
    wss.close();
    const server = ownServer;
    if (server) await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
  }

  return {
    hocuspocus,
    listen,
    attach,
    shutdown: () => (shutdownPromise ??= runShutdown()),
    get stopping() { return stopping; },
  };
}
