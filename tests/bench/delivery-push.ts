/**
 * Push through the whole send pipeline (issue 13: at least 20,000 notifications/s from one
 * worker): BENCH_PUSH_PEOPLE people (default 50,000), each with an iPhone, in an audience; an
 * approved push message to it, played and resolved into the outbox; then one worker's senders
 * (`sendWhileDue`, as the delivery loop runs them) lease the rows from Postgres, send each through
 * the app's APNs client to the loopback APNs (support-push.ts: its own processes, verifying the
 * provider token and every header) and record each outcome on its row. Printed: notifications per
 * second from lease to recorded outcome, what the APNs servers accepted, and the rows' statuses
 * (every one must be `sent`), and the CPU each notification cost the sender, the APNs servers and
 * the rest of the machine (Postgres, mostly). BENCH_PUSH_APNS_DELAY_MS makes the servers answer
 * each notification after that long, as a provider across the internet would.
 * push-throughput.ts measures the clients alone.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import { createMessageDraft, type MessageDraft } from '@gd/shared';
import { loadConfig } from '../../api-server/src/config.ts';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool } from '../../api-server/src/db/pool.ts';
import { closePushClients, savePushCredentials } from '../../api-server/src/features/delivery/push/credentials.ts';
import { resolveNextPage, startLiveRun } from '../../api-server/src/features/delivery/resolve.ts';
import { SenderCache, sendWhileDue } from '../../api-server/src/features/delivery/send.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { approvedMessageRow, benchAccount, cpuSnapshot, freshDatabase } from './support.ts';
import { APNS, APNS_DELAY_MS, startPushServers } from './support-push.ts';

const PEOPLE = Number(process.env.BENCH_PUSH_PEOPLE ?? 50_000);
const SECRET = 'bench-delivery-push-secret-0123456789';
const log = pino({ level: 'silent' });

const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const servers = await startPushServers({
  apnsPublicPem: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  // Not used here: the FCM server needs a key to start.
  fcmPublicPem: generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
});
const caFile = `${await mkdtemp(`${tmpdir()}/gd-bench-push-`)}/ca.pem`;
await writeFile(caFile, servers.ca);
const { url, drop } = await freshDatabase('gd_bench_delivery_push');
const db = createPool(url, 24);
try {
  await migrate(db);
  const { accountId, userId, appId } = await benchAccount(db);
  const one = async (sql: string, params: unknown[]) => (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const saved = await savePushCredentials(db, SECRET, appId, {
    provider: 'apns', privateKeyPem: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    settings: { keyId: APNS.keyId, teamId: APNS.teamId, bundleId: APNS.bundleId, environment: 'sandbox', endpoint: servers.apnsUrl },
  });
  if (!saved.ok) throw new Error(`push credentials: ${saved.message}`);

  console.log(`loading ${PEOPLE.toLocaleString('en')} people, each with an iPhone, into an audience…`);
  await db.query(`INSERT INTO people (app_id, id, customer_id) SELECT $1, g, 'c' || g FROM generate_series(1, $2::int) g`, [appId, PEOPLE]);
  await db.query(`SELECT setval('people_id_seq', $1)`, [PEOPLE + 1]);
  await db.query(
    `INSERT INTO devices (app_id, device_key, person_id, push_token, push_enabled, os)
     SELECT $1, 'd' || g, g, lpad(to_hex(g), 64, 'a'), true, 'iOS' FROM generate_series(1, $2::int) g`, [appId, PEOPLE]);
  const audienceId = await one(`INSERT INTO audiences (account_id, app_id, name, status, source_type) VALUES ($1, $2, 'All', 'ready', 'csv') RETURNING id`, [accountId, appId]);
  await db.query(`INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, g FROM generate_series(1, $3::int) g`, [appId, audienceId, PEOPLE]);
  await db.query('VACUUM ANALYZE people, devices, audience_members');

  const draft = createMessageDraft('push');
  const definition: MessageDraft = {
    ...draft, name: 'Weekly picks', target: { kind: 'audience', id: audienceId },
    variants: draft.variants.map((v) => ({ ...v, content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, { ...c, title: 'Your weekly picks', message: 'Hello {{customer_id}}, new arrivals are in.', life: 86_400 }])) })),
  };
  const messageId = await approvedMessageRow(db, { accountId, userId, appId }, definition);
  await db.query(`UPDATE messages SET status = 'Processing' WHERE id = $1`, [messageId]);
  await startLiveRun(db, { accountId, appId, messageId, version: 1, origin: 'classic', userId, appTimeZone: 'UTC' });

  const policy = netPolicy(loadConfig({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', OUTGOING_EXTRA_CA_FILE: caFile }));
  const deps = { db, log, secret: SECRET, baseUrl: 'https://growthdeck.example.com', netPolicy: policy };
  while (await resolveNextPage(deps, 'bench-resolver')) { /* every page */ }
  const rows = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM message_outbox WHERE message_id = $1', [messageId])).rows[0]!.n);
  await db.query('VACUUM ANALYZE message_outbox');
  await db.query('CHECKPOINT');

  // No warm-up: the first batch opens the connection and signs the provider token, as a worker's would.
  console.log(`sending ${rows.toLocaleString('en')} notifications through the pipeline${APNS_DELAY_MS ? `, APNs answering each after ${APNS_DELAY_MS} ms` : ''}…`);
  const before = (await servers.stats()).apns.accepted;
  const cache = new SenderCache();
  const cpu0 = cpuSnapshot(servers.pids);
  const t0 = performance.now();
  await sendWhileDue(deps, cache, 'bench-sender');
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuSnapshot(servers.pids);
  cache.close();
  await closePushClients();
  const accepted = (await servers.stats()).apns.accepted - before;
  const statuses = (await db.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM message_outbox WHERE message_id = $1 GROUP BY status ORDER BY status', [messageId])).rows;
  console.log(`push through the pipeline: ${accepted.toLocaleString('en')} notifications accepted by APNs in ${seconds.toFixed(2)} s = ${Math.round(accepted / seconds).toLocaleString('en')} notifications/s from one worker (target >= 20,000/s); rows ${statuses.map((s) => `${s.status} ${Number(s.n).toLocaleString('en')}`).join(', ')}`);
  const per = (us: number) => `${(us / accepted).toFixed(0)} µs`;
  const sender = cpu1.self - cpu0.self, apns = cpu1.pids - cpu0.pids, machine = cpu1.machine - cpu0.machine;
  console.log(`  CPU per notification: sender ${per(sender)}, APNs servers ${per(apns)}, the rest of the machine (Postgres) ${per(machine - sender - apns)}; all ${per(machine)}: two cores carry at most ${Math.round(2e6 / (machine / accepted)).toLocaleString('en')}/s`);
  if (accepted !== rows || statuses.length !== 1 || statuses[0]?.status !== 'sent') process.exitCode = 1;
} finally {
  await db.end();
  await drop();
  servers.stop();
}
