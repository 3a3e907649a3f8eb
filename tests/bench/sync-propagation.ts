/**
 * Sync server figures (issue 3). Servers run as child processes (`node sync-server/src/main.ts`);
 * the load clients (real HocuspocusProviders over WebSockets) run here, in another process.
 * - Edit-to-peer propagation p50/p99 through one process with 100 and with 1,000 connections spread
 *   over 100 journey-sized documents, every connection also editing about once a second; the probe
 *   pair is two extra connections on one document.
 * - Propagation between two processes joined by Redis.
 * - Time to load a journey document that has received 10,000 updates (compacted state, update log,
 *   and a client opening it through the server from Postgres).
 * - Server memory (RSS) per open document and per connection.
 * Targets: p99 < 25 ms at 1,000 connections on one process, < 50 ms across processes; load < 50 ms.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import * as Y from 'yjs';
import { addStepAfter, applyJourneyToDoc, initialJourney, journeyFromDoc, type Journey } from '@gd/shared';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createFixture, type Fixture } from '../../sync-server/src/testing/fixtures.ts';
import { openClient, synced, waitFor, type TestClient } from '../../sync-server/src/testing/clients.ts';
import { spawnServer, type ChildServer } from '../../sync-server/src/testing/process.ts';
import { fmt, freshDatabase, percentile } from './support.ts';

const DOCS = 100;
const PROBES = Number(process.env.BENCH_PROBES ?? 400);

const rssKb = (pid: number | undefined) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
/** Heap after a collection (the server runs with --expose-gc here), from its /metrics. */
async function heapKb(server: ChildServer): Promise<number> {
  const res = await fetch(`${server.url.replace('ws:', 'http:')}/metrics?gc=1`);
  return ((await res.json()) as { heapUsed: number }).heapUsed / 1024;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A journey of about 30 steps, like a real one. */
function journeySized(): Journey {
  let j = initialJourney();
  let last = j.entryId ?? 'source';
  const types = ['flowWait', 'actionMessagePush', 'flowWait', 'actionPostback', 'flowWait', 'updateTagCount'] as const;
  for (let i = 0; i < 14; i++) {
    const id = `step${i}`;
    j = addStepAfter(j, last, null, types[i % types.length] ?? 'flowWait', id);
    last = id;
  }
  return j;
}

async function connect(server: ChildServer, fx: Fixture, doc: string): Promise<TestClient> {
  const token = () => fx.token(fx.users.manager, { doc });
  const client = openClient({ url: server.url, name: doc, token });
  await waitFor(() => synced(client), `client on ${doc} synced`, 30_000);
  return client;
}

/** Probe: the writer moves a step in `layout`; the reader times when the change arrives. */
async function probe(writer: TestClient, reader: TestClient, samples: number): Promise<number[]> {
  const sent = new Map<number, number>();
  const latencies: number[] = [];
  const layout = reader.doc.getMap('layout');
  const onChange = () => {
    const pos = layout.get('source') as { x: number; y: number } | undefined;
    const t0 = pos ? sent.get(pos.y) : undefined;
    if (pos && t0 !== undefined) {
      latencies.push(performance.now() - t0);
      sent.delete(pos.y);
    }
  };
  layout.observe(onChange);
  for (let seq = 1; seq <= samples; seq++) {
    sent.set(seq, performance.now());
    writer.doc.getMap('layout').set('source', { x: 100, y: seq });
    await sleep(20);
  }
  await waitFor(() => sent.size === 0, 'every probe arrived', 10_000).catch(() => undefined);
  layout.unobserve(onChange);
  // A probe overwritten before the reader saw it (two arriving in one message) has no sample.
  if (sent.size) console.log(`  (${sent.size} probes coalesced)`);
  return latencies.sort((a, b) => a - b);
}

/** Every background connection moves a random step about once a second. */
function background(clients: TestClient[]): () => void {
  const timers = clients.map((c) => setTimeout(function tick() {
    c.doc.getMap('layout').set(`step${Math.floor(Math.random() * 14)}`, { x: Math.round(Math.random() * 1000), y: Math.round(Math.random() * 1000) });
    timers[clients.indexOf(c)] = setTimeout(tick, 800 + Math.random() * 400);
  }, Math.random() * 1000));
  return () => timers.forEach(clearTimeout);
}

const report = (label: string, l: number[]) =>
  console.log(`${label}: p50 ${fmt(percentile(l, 50))}  p99 ${fmt(percentile(l, 99))}  max ${fmt(l.at(-1) ?? NaN)}  (${l.length} samples)`);

const db = await freshDatabase('gd_bench_sync');
const pool = new pg.Pool({ connectionString: db.url, max: 4 });
await migrate(pool);
const fx = await createFixture(pool);
const docs = [fx.doc];
for (let i = 1; i < DOCS; i++) docs.push(await fx.newJourneyDoc());
const clients: TestClient[] = [];
const servers: ChildServer[] = [];
try {
  const server = await spawnServer({ DATABASE_URL: db.url, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc` });
  servers.push(server);
  await sleep(500);
  const base = rssKb(server.child.pid);
  const baseHeap = await heapKb(server);

  // 100 documents open, one connection each, each filled with a journey-sized journey.
  for (const doc of docs) {
    const c = await connect(server, fx, doc);
    applyJourneyToDoc(c.doc, journeySized());
    clients.push(c);
  }
  await waitFor(() => clients.every((c) => !c.provider.hasUnsyncedChanges), 'journeys written', 30_000);
  const docState = Y.encodeStateAsUpdate(clients[0]?.doc ?? new Y.Doc()).byteLength;
  await sleep(1000);
  const withDocs = rssKb(server.child.pid);
  const docsHeap = await heapKb(server);

  const writer = await connect(server, fx, docs[0] ?? '');
  const reader = await connect(server, fx, docs[0] ?? '');
  let stop = background(clients);
  report(`one process, ${clients.length + 2} connections over ${DOCS} documents`, await probe(writer, reader, PROBES));
  stop();

  // 1,000 connections: 9 more per document.
  for (let round = 0; round < 9; round++) {
    const batch = await Promise.all(docs.map((doc) => connect(server, fx, doc)));
    clients.push(...batch);
  }
  await sleep(1000);
  const withConnections = rssKb(server.child.pid);
  const connectionsHeap = await heapKb(server);
  stop = background(clients);
  await sleep(2000);
  report(`one process, ${clients.length + 2} connections over ${DOCS} documents`, await probe(writer, reader, PROBES));
  stop();
  const extra = clients.length - DOCS;
  console.log(`memory: ${(docState / 1024).toFixed(1)} KB journey state. Heap after GC: ~${((docsHeap - baseHeap) / DOCS).toFixed(0)} KB per open document, ` +
    `~${((connectionsHeap - docsHeap) / extra).toFixed(0)} KB per extra connection. RSS: ${(base / 1024).toFixed(0)} MB idle, ` +
    `~${((withDocs - base) / DOCS).toFixed(0)} KB per open document, ~${((withConnections - withDocs) / extra).toFixed(0)} KB per extra connection`);
  for (const c of clients.splice(0)) c.destroy();
  writer.destroy();
  reader.destroy();

  // Two processes joined by Redis.
  const prefix = `gd-bench-${randomBytes(4).toString('hex')}`;
  const r1 = await spawnServer({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix });
  const r2 = await spawnServer({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix });
  servers.push(r1, r2);
  const redisDoc = await fx.newJourneyDoc();
  const a = await connect(r1, fx, redisDoc);
  const b = await connect(r2, fx, redisDoc);
  report('two processes joined by Redis', await probe(a, b, PROBES));
  a.destroy();
  b.destroy();

  // A journey document that has received 10,000 updates.
  const source = new Y.Doc();
  const updates: Uint8Array[] = [];
  source.on('update', (u: Uint8Array) => updates.push(u));
  applyJourneyToDoc(source, journeySized());
  for (let i = 0; updates.length < 10_000; i++) {
    if (i % 10 === 0) {
      const j = journeyFromDoc(source);
      const step = j.steps.find((s) => s.type === 'flowWait');
      if (step && step.type === 'flowWait') applyJourneyToDoc(source, { ...j, steps: j.steps.map((s) => (s.id === step.id ? { ...step, duration: 60 + i } : s)) });
    } else {
      source.getMap('layout').set(`step${i % 14}`, { x: i, y: i * 2 });
    }
  }
  const compact = Y.encodeStateAsUpdate(source);
  const time = (fn: () => void, n: number) => {
    const runs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      fn();
      runs.push(performance.now() - t0);
    }
    return runs.sort((x, y) => x - y);
  };
  const fromCompact = time(() => Y.applyUpdate(new Y.Doc(), compact), 30);
  const fromLog = time(() => {
    const d = new Y.Doc();
    d.transact(() => { for (const u of updates) Y.applyUpdate(d, u); });
  }, 5);
  console.log(`10,000-update journey: state ${(compact.byteLength / 1024).toFixed(1)} KB; apply compacted p50 ${fmt(percentile(fromCompact, 50))} p95 ${fmt(percentile(fromCompact, 95))}; replay update log p50 ${fmt(percentile(fromLog, 50))}`);
  const opens: number[] = [];
  for (let i = 0; i < 10; i++) {
    const name = await fx.newJourneyDoc();
    const [accountId, appId, , entityId] = name.split('/');
    await pool.query('INSERT INTO documents (name, account_id, app_id, kind, entity_id, state, size_bytes) VALUES ($1,$2,$3,$4,$5,$6,$7)',
      [name, accountId, appId, 'journey', entityId, Buffer.from(compact), compact.byteLength]);
    const t0 = performance.now();
    const c = await connect(server, fx, name);
    opens.push(performance.now() - t0);
    c.destroy();
  }
  opens.sort((x, y) => x - y);
  console.log(`open through the server (Postgres → client synced): p50 ${fmt(percentile(opens, 50))} p95 ${fmt(percentile(opens, 95))} (target < 50 ms)`);
} finally {
  for (const c of clients) c.destroy();
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await pool.end();
  await db.drop();
}
