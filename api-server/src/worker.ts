/**
 * `node api-server/src/worker.ts`: the background worker as its own process (docker-compose
 * `worker` service). It sends queued mail and refreshes segment audiences on their schedule;
 * later capabilities add journey steps, imports and exports here. Several workers may run on one database (jobs are claimed with SKIP LOCKED).
 * `npm start` runs the same loops inside the API process instead.
 */
import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './server.ts';
import { createSender, startMailWorker } from './mail/worker.ts';
import { startAudienceScheduler } from './features/segments/refresh.ts';
import { loadSigningSecret } from './features/auth/secrets.ts';
import { startBackgroundJobs } from './jobs/start.ts';
import { keepServing } from './processGuard.ts';
import { ensurePartitionWindow, startPartitionMaintenance } from './features/ingest/partitions.ts';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL });
if (!config.DATABASE_URL) {
  log.error('The standalone worker needs DATABASE_URL (the embedded database belongs to the npm start process)');
  process.exit(1);
}
const { db } = await openDatabase(config, log);
const mail = startMailWorker(db, createSender({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log }), log);
// Segment audiences due for their periodic refresh (documents as stored: no sync server here).
const audiences = startAudienceScheduler({ db, log });
// Monthly partitions made ahead (ingestion never creates tables).
await ensurePartitionWindow(db);
const partitions = startPartitionMaintenance(db, log);
// Imports and exports (durable jobs, leased rows; see jobs/runner.ts).
const jobs = startBackgroundJobs({ db, log, config, secret: await loadSigningSecret(db, config.JWT_SECRET) });
// Only once running: a failure to start must still end the process.
keepServing(log);
log.info('worker started');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    partitions.stop();
    void Promise.all([mail.stop(), audiences.stop(), jobs.stop()]).then(() => db.end()).then(() => process.exit(0));
  });
}
