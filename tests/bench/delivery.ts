/**
 * Delivery figures (issue 13), the pipeline's own code on real Postgres and a real SMTP server on
 * loopback (`smtp-server`, accepting at once), in this one process:
 * - resolution: a 1,000,000-person audience (every person with an e-mail) resolved into the outbox
 *   by one resolver, page by page; seconds and the process's peak RSS growth (target: under 60 s,
 *   constant memory);
 * - e-mail throughput: one worker sending BENCH_EMAILS (default 20,000) outbox rows to the SMTP
 *   server as the delivery loop does (`sendWhileDue`), messages per second (target: at least 2,000/s);
 * - play to first delivery: a one-person message played through the lifecycle (the same call the
 *   API makes) with a running delivery loop, until the SMTP server has it; p50/p99 over 50 plays
 *   (target: p99 under 1 s).
 * BENCH_PEOPLE changes the audience size (default 1,000,000). The database is made fresh and dropped.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { createMessageDraft, type MessageDraft } from '@gd/shared';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool, type Db } from '../../api-server/src/db/pool.ts';
import { sealPassword } from '../../api-server/src/features/mailProviders/transport.ts';
import { startDelivery } from '../../api-server/src/features/delivery/pipeline.ts';
import { resolveNextPage, startLiveRun } from '../../api-server/src/features/delivery/resolve.ts';
import { SenderCache, sendWhileDue } from '../../api-server/src/features/delivery/send.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { loadConfig } from '../../api-server/src/config.ts';
import { ROOT } from '../support/env.ts';
import { approvedMessageRow, benchAccount, fmt, freshDatabase, percentile } from './support.ts';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1_000_000);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 20_000);
const PLAYS = 50;
const SECRET = 'bench-delivery-secret-0123456789abcdef';
const log = pino({ level: 'silent' });

const emailDraft = (target: MessageDraft['target']): MessageDraft => {
  const d = createMessageDraft('email');
  return {
    ...d, name: 'Bench', target,
    variants: d.variants.map((v) => ({
      ...v, content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, {
        ...c, subject: 'Winter sale for {{customer_id}}', sender_email: 'news@example.com', sender_name: 'Growth team',
        html_body: '<html><body><p>Hello {{customer_id}}</p><p><a href="https://shop.example.com/sale">See the sale</a></p></body></html>',
      }])),
    })),
  };
};

/** An account, a user, an app (support.ts), and an active mail provider to `port`; answers their ids. */
async function world(db: Db, port: number) {
  const w = await benchAccount(db);
  const providerId = randomUUID();
  await db.query(
    `INSERT INTO mail_providers (id, account_id, name, host, port, tls, username, secret, sender_name, sender_email, active, created_by)
     VALUES ($1, $2, 'Loopback', '127.0.0.1', $3, 'none', '', $4, 'Team', 'team@example.com', true, $5)`,
    [providerId, w.accountId, port, sealPassword(SECRET, providerId, 'unused'), w.userId]);
  return w;
}

/** An approved e-mail message to `target` (its version 1), ready to play. */
const approvedMessage = (db: Db, w: Awaited<ReturnType<typeof world>>, target: MessageDraft['target']): Promise<string> => approvedMessageRow(db, w, emailDraft(target));

async function play(db: Db, w: Awaited<ReturnType<typeof world>>, messageId: string) {
  await db.query(`UPDATE messages SET status = 'Processing' WHERE id = $1`, [messageId]);
  await startLiveRun(db, { accountId: w.accountId, appId: w.appId, messageId, version: 1, origin: 'classic', userId: w.userId, appTimeZone: 'UTC' });
}

/** The SMTP server in a process of its own (its parsing is not the sender's cost). */
async function startSink() {
  const child = fork(path.join(ROOT, 'api-server/src/features/delivery/testing/smtpSinkProcess.ts'), { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  const count = () => new Promise<number>((resolve) => {
    child.once('message', (m: { count: number }) => resolve(m.count));
    child.send('count');
  });
  return { port, count, close: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.send('stop'); }) };
}

const sink = await startSink();
const { url, drop } = await freshDatabase('gd_bench_delivery');
const db = createPool(url, 24);
try {
  await migrate(db);
  const w = await world(db, sink.port);
  const deps = { db, log, secret: SECRET, baseUrl: 'https://growthdeck.example.com', netPolicy: netPolicy(loadConfig({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' })) };

  // 1. Resolution of a large audience.
  console.log(`loading ${PEOPLE.toLocaleString('en')} people with e-mails into an audience…`);
  await db.query(
    `INSERT INTO people (app_id, id, customer_id, email) SELECT $1, g, 'c' || g, 'p' || g || '@example.com' FROM generate_series(1, $2::int) g`, [w.appId, PEOPLE]);
  await db.query(`SELECT setval('people_id_seq', $1)`, [PEOPLE + 1]);
  const audienceId = (await db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, status, source_type) VALUES ($1, $2, 'All', 'ready', 'csv') RETURNING id`, [w.accountId, w.appId])).rows[0]!.id;
  await db.query(`INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, g FROM generate_series(1, $3::int) g`, [w.appId, audienceId, PEOPLE]);
  await db.query('VACUUM ANALYZE people, audience_members');
  const big = await approvedMessage(db, w, { kind: 'audience', id: audienceId });
  // Paused right after play, so the sending below is measured on its own.
  await play(db, w, big);
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const t0 = performance.now();
  let pages = 0;
  while (await resolveNextPage(deps, 'bench-resolver', process.env.BENCH_PAGE ? { pageSize: Number(process.env.BENCH_PAGE) } : {})) {
    pages++;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const resolveMs = performance.now() - t0;
  const rows = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM message_outbox WHERE message_id = $1', [big])).rows[0]!.n);
  console.log(`resolution: ${rows.toLocaleString('en')} outbox rows in ${(resolveMs / 1000).toFixed(1)} s (${pages} pages; ${Math.round(rows / (resolveMs / 1000)).toLocaleString('en')} rows/s); RSS growth peak ${((peak - rss0) / 1048576).toFixed(0)} MB (target < 60 s, constant memory)`);

  // 2. E-mail throughput: the first EMAILS rows of that run, by one worker.
  await db.query(`UPDATE message_outbox SET run_at = CASE WHEN person_id <= $2 THEN now() - interval '1 minute' ELSE now() + interval '1 day' END WHERE message_id = $1`, [big, EMAILS]);
  // That setup rewrote a million rows: their dead versions vacuumed and the pages written out now,
  // so the disk's catching up with it is not measured as sending (a real run's rows are not all
  // rewritten just before it sends).
  await db.query('VACUUM ANALYZE message_outbox');
  await db.query('CHECKPOINT');
  const cache = new SenderCache();
  console.log(`sending the first ${EMAILS.toLocaleString('en')} e-mails of that run…`);
  const before = await sink.count();
  const t1 = performance.now();
  await sendWhileDue(deps, cache, 'bench-sender');
  const sendMs = performance.now() - t1;
  const sent = (await sink.count()) - before;
  cache.close();
  console.log(`e-mail: ${sent.toLocaleString('en')} messages in ${(sendMs / 1000).toFixed(2)} s = ${Math.round(sent / (sendMs / 1000)).toLocaleString('en')} messages/s from one worker (target >= 2,000/s)`);
  await db.query(`UPDATE messages SET status = 'Paused' WHERE id = $1`, [big]);

  // 3. Play to first delivery, with the delivery loop running as in `npm start`.
  const person = (await db.query<{ id: string }>(`SELECT id::text FROM people WHERE app_id = $1 ORDER BY id LIMIT 1`, [w.appId])).rows[0]!.id;
  const oneAudience = (await db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, status, source_type) VALUES ($1, $2, 'One', 'ready', 'csv') RETURNING id`, [w.accountId, w.appId])).rows[0]!.id;
  await db.query(`INSERT INTO audience_members (app_id, audience_id, person_id) VALUES ($1, $2, $3)`, [w.appId, oneAudience, person]);
  const loop = startDelivery(deps);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < PLAYS + 1; i++) {
      const messageId = await approvedMessage(db, w, { kind: 'audience', id: oneAudience });
      const count = await sink.count();
      const start = performance.now();
      await play(db, w, messageId);
      loop.wake();
      while ((await sink.count()) === count) { /* until the SMTP server has it */ }
      if (i > 0) latencies.push(performance.now() - start);
    }
  } finally {
    await loop.stop();
  }
  latencies.sort((a, b) => a - b);
  console.log(`play to first delivery: p50 ${fmt(percentile(latencies, 50))}  p99 ${fmt(percentile(latencies, 99))}  max ${fmt(latencies.at(-1) ?? NaN)}  (${PLAYS} plays, target p99 < 1 s)`);
} finally {
  await db.end();
  await drop();
  await sink.close();
}
