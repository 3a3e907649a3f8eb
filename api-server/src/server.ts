/**
 * Starting the API: database (embedded PGlite when DATABASE_URL is unset), migrations, secret,
 * HTTP server, and optionally the in-process worker. Used by main.ts and by tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '@gd/shared';
import { pino, type Logger } from 'pino';
import { createApp } from './app.ts';
import { ensurePartitionWindow, startPartitionMaintenance } from './features/ingest/partitions.ts';
import type { Config } from './config.ts';
import { startEmbeddedDb, type EmbeddedDb } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { createPool, usePreparedStatements, type Db } from './db/pool.ts';
import { loadSigningSecret } from './features/auth/secrets.ts';
import type { Deps } from './http/context.ts';
import { createSender, startMailWorker, type MailSender } from './mail/worker.ts';
import { startAudienceScheduler } from './features/segments/refresh.ts';
import { startBackgroundJobs } from './jobs/start.ts';
import { startDelivery, type Delivery } from './features/delivery/pipeline.ts';
import { startRules, type RulesLoop } from './features/rules/loop.ts';
import { netPolicy } from './net/index.ts';
import { startJourneyEngine, type JourneyEngine } from './features/journeyRun/engine.ts';
import { startAttribution, type AttributionLoop } from './features/attribution/loop.ts';
import { startIntegrationRefresher, type IntegrationRefresher } from './features/integrations/refresher.ts';
import { startAudienceShares } from './features/audienceShare/run.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  deps: Deps;
  httpServer: http.Server;
  stop(): Promise<void>;
}

export async function openDatabase(config: Config, log: Logger): Promise<{ db: Db; embedded: EmbeddedDb | null }> {
  let url = config.DATABASE_URL;
  let embedded: EmbeddedDb | null = null;
  if (!url) {
    embedded = await startEmbeddedDb(config.DATA_DIR);
    url = embedded.url;
    log.info({ dir: config.DATA_DIR }, 'embedded database (PGlite) started');
  }
  usePreparedStatements(embedded === null);
  // PGlite is one session behind pglite-socket, which queues socket chunks, not whole protocol
  // exchanges: a large Bind split over two chunks can interleave with another connection's
  // messages ("bind message supplies 1 parameters..."). One connection serialises everything
  // at the client instead, which is what the single session does anyway.
  const db = createPool(url, embedded ? 1 : config.DB_POOL_SIZE);
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  return { db, embedded };
}

/**
 * Requests Node refuses before Express sees them (a request line or headers over 16 KB, a malformed
 * request) get the error envelope too, instead of an empty 431 or 400.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    status: 'KO', code: ErrorCode.MANDATORY,
    message: tooLarge ? 'The address or the headers of this request are too large (at most 16 KB): send long values in the body' : 'Malformed HTTP request',
  });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export async function startServer(config: Config, opts: { log?: Logger; worker?: boolean; mailSender?: MailSender } = {}): Promise<RunningServer> {
  const log = opts.log ?? pino({ level: config.LOG_LEVEL });
  const { db, embedded } = await openDatabase(config, log);
  const secret = await loadSigningSecret(db, config.JWT_SECRET);
  await ensurePartitionWindow(db);
  const sender = opts.mailSender ?? createSender({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log });
  const worker = opts.worker === false ? null : startMailWorker(db, sender, log);
  // The delivery loop needs the listening address for its links; it starts once that is known.
  let delivery: Delivery | null = null;
  const rules: RulesLoop | null = opts.worker !== false && config.RULES_IN_PROCESS === 'on' ? startRules({ db, log }) : null;
  // The journey engine (features/journeyRun): entries, transitions, postbacks; woken by launch, stop and ingestion.
  const journeys: JourneyEngine | null = opts.worker !== false && config.JOURNEYS_IN_PROCESS === 'on' ? startJourneyEngine({ db, log, netPolicy: netPolicy(config), secret }, { batchSize: config.JOURNEY_BATCH_SIZE }) : null;
  // Installs attributed to clicks (features/attribution), woken by ingestion.
  const attribution: AttributionLoop | null = opts.worker !== false && config.ATTRIBUTION_IN_PROCESS === 'on' ? startAttribution({ db, log }) : null;
  // OAuth 2 tokens of integrations refreshed before they expire (features/integrations/refresher.ts).
  const refresher: IntegrationRefresher | null = opts.worker !== false && config.INTEGRATION_REFRESH_IN_PROCESS === 'on' ? startIntegrationRefresher({ db, log, config, secret }) : null;
  // Shared audiences uploaded to ad platforms after each refresh (features/audienceShare), woken by sharing and "sync now".
  const audienceShares = opts.worker !== false && config.AUDIENCE_SHARE_IN_PROCESS === 'on' ? startAudienceShares({ db, config, log, secret }) : null;
  const deps: Deps = { db, config, secret, log, notifyMail: () => worker?.wake(), notifyDelivery: () => delivery?.wake(), notifyJourneys: () => journeys?.wake(),
    // Ingestion wrote trigger inbox rows: the journey engine and the rules read them (features/ingest/triggers.ts).
    notifyTriggers: () => { journeys?.wake(); rules?.wake(); } };
  const audiences = opts.worker === false ? null : startAudienceScheduler(deps);
  const partitions = opts.worker === false ? null : startPartitionMaintenance(db, log);
  const jobs = opts.worker === false ? null : startBackgroundJobs(deps);
  const app = createApp(deps);
  const httpServer = http.createServer(app);
  httpServer.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  deps.listenUrl = url;
  if (opts.worker !== false && config.DELIVERY_IN_PROCESS === 'on') {
    delivery = startDelivery({ db, log, secret, baseUrl: config.PUBLIC_URL ?? url, netPolicy: netPolicy(config), get liveDocs() { return deps.liveDocs; } }, { leaseSeconds: config.DELIVERY_LEASE_SECONDS });
  }
  return {
    url, port, db, deps, httpServer,
    async stop() {
      await new Promise<void>((resolve) => { httpServer.close(() => resolve()); httpServer.closeAllConnections(); });
      await worker?.stop();
      await delivery?.stop();
      await journeys?.stop();
      await rules?.stop();
      await attribution?.stop();
      await refresher?.stop();
      await audienceShares?.stop();
      await audiences?.stop();
      partitions?.stop();
      await jobs?.stop();
      await db.end();
      await embedded?.stop();
    },
  };
}
