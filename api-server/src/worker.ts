/**
 * `node api-server/src/worker.ts`: the background worker as its own process (docker-compose
 * `worker` service). It sends queued mail, sends messages (the outbox; WORKER_ONLY=delivery for a
 * process that does only that), runs journeys (features/journeyRun; WORKER_ONLY=journeys for a process
 * that does only that) and refreshes segment audiences on their schedule; imports and exports too. Several workers may run on one database (jobs are claimed with SKIP LOCKED).
 * `npm start` runs the same loops inside the API process instead.
 */
import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './server.ts';
import { createSender, startMailWorker } from './mail/worker.ts';
import { startAudienceScheduler } from './features/segments/refresh.ts';
import { loadSigningSecret } from './features/auth/secrets.ts';
import { startBackgroundJobs } from './jobs/start.ts';
import { startDelivery } from './features/delivery/pipeline.ts';
import { startRules } from './features/rules/loop.ts';
import { startAttribution } from './features/attribution/loop.ts';
import { startIntegrationRefresher } from './features/integrations/refresher.ts';
import { startAudienceShares } from './features/audienceShare/run.ts';
import { netPolicy } from './net/index.ts';
import { startJourneyEngine } from './features/journeyRun/engine.ts';
import { keepServing } from './processGuard.ts';
import { ensurePartitionWindow, startPartitionMaintenance } from './features/ingest/partitions.ts';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL });
if (!config.DATABASE_URL) {
  log.error('The standalone worker needs DATABASE_URL (the embedded database belongs to the npm start process)');
  process.exit(1);
}
const { db } = await openDatabase(config, log);
const secret = await loadSigningSecret(db, config.JWT_SECRET);
// WORKER_ONLY=delivery: a process that only sends messages (scale delivery apart from the rest).
const all = config.WORKER_ONLY === undefined;
const mail = all ? startMailWorker(db, createSender({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log }), log) : null;
// Segment audiences due for their periodic refresh (documents as stored: no sync server here).
const audiences = all ? startAudienceScheduler({ db, log }) : null;
// Monthly partitions made ahead (ingestion never creates tables).
await ensurePartitionWindow(db);
const partitions = all ? startPartitionMaintenance(db, log) : null;
// Imports and exports (durable jobs, leased rows; see jobs/runner.ts).
const jobs = all ? startBackgroundJobs({ db, log, config, secret }) : null;
// Messages: runs resolved into the outbox and sent (features/delivery).
const delivery = config.WORKER_ONLY === 'journeys' ? null : startDelivery({ db, log, secret, baseUrl: config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`, netPolicy: netPolicy(config) }, { leaseSeconds: config.DELIVERY_LEASE_SECONDS });
// Journeys: entries, transitions and postbacks (features/journeyRun; WORKER_ONLY=journeys for a process that does only that).
const journeys = all || config.WORKER_ONLY === 'journeys' ? startJourneyEngine({ db, log, netPolicy: netPolicy(config), secret }, { batchSize: config.JOURNEY_BATCH_SIZE, ...(config.JOURNEY_APP_IDS ? { appIds: config.JOURNEY_APP_IDS } : {}) }) : null;
// Automatic rules: the trigger inbox, coupon redemptions and the daily rules (features/rules).
const rules = all ? startRules({ db, log }) : null;
// Installs, reinstalls and retargeting opens attributed to clicks (features/attribution).
const attribution = all ? startAttribution({ db, log }) : null;
// OAuth 2 tokens of integrations refreshed before they expire (features/integrations/refresher.ts).
const refresher = all ? startIntegrationRefresher({ db, log, config, secret }) : null;
// Shared audiences uploaded to ad platforms after each refresh (features/audienceShare).
const audienceShares = all ? startAudienceShares({ db, config, log, secret }) : null;
// Only once running: a failure to start must still end the process.
keepServing(log);
log.info('worker started');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    partitions?.stop();
    void Promise.all([mail?.stop(), audiences?.stop(), jobs?.stop(), delivery?.stop(), journeys?.stop(), rules?.stop(), attribution?.stop(), audienceShares?.stop(), refresher?.stop()]).then(() => db.end()).then(() => process.exit(0));
  });
}
