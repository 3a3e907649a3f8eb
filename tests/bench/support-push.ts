/**
 * The loopback push servers of the push benchmarks (push-throughput.ts, delivery-push.ts): the
 * APNs and FCM servers of push/testing, and a bare node:http2 server for calibration, in other
 * processes than the sender's. A cluster primary (this file with PUSH_BENCH_ROLE=server) runs
 * BENCH_PUSH_SERVER_PROCESSES workers (default 2) that serve the same ports and take the
 * connections in turn, as a provider's front ends are many machines. One certificate and one FCM
 * token secret for all, so a token from any worker's token endpoint works on any worker's
 * connection. `startPushServers` starts them and answers their addresses, their process ids (for
 * their CPU time) and a way to read their counts.
 */
import { fork } from 'node:child_process';
import cluster from 'node:cluster';
import { createPublicKey, randomBytes } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startApnsServer } from '../../api-server/src/features/delivery/push/testing/apnsServer.ts';
import { startFcmServer } from '../../api-server/src/features/delivery/push/testing/fcmServer.ts';
import { loopbackCert, type LoopbackCert } from '../../api-server/src/features/delivery/push/testing/tls.ts';

export const STREAMS = Number(process.env.BENCH_PUSH_STREAMS ?? 1_000);
/** How long the APNs servers hold each notification before answering (BENCH_PUSH_APNS_DELAY_MS, default 0). */
export const APNS_DELAY_MS = Number(process.env.BENCH_PUSH_APNS_DELAY_MS ?? 0);
export const APNS = { keyId: 'BENCHKEY01', teamId: 'BENCHTEAM1', bundleId: 'com.growthdeck.bench' };
export const FCM = { projectId: 'growthdeck-bench', clientEmail: 'bench@growthdeck-bench.iam.gserviceaccount.com' };

export const SERVER_PROCESSES = Math.max(1, Number(process.env.BENCH_PUSH_SERVER_PROCESSES ?? 2));

export interface ServerReady { type: 'ready'; apnsUrl: string; fcmUrl: string; tokenUri: string; bareUrl: string; ca: string; pids: number[] }
export interface FixtureStats { apns: { accepted: number; sessions: number; maxInFlight: number; verified: number }; fcm: { accepted: number; sessions: number; tokenRequests: number } }
export interface ServerStats extends FixtureStats { type: 'stats' }
type ToServer = { type: 'keys'; apnsPublicPem: string; fcmPublicPem: string } | { type: 'stats' } | { type: 'stop' };
type ToWorker = { type: 'start'; apnsPublicPem: string; fcmPublicPem: string; tls: LoopbackCert; tokenSecret: string } | { type: 'stats' } | { type: 'stop' };
type FromWorker = { type: 'ready'; apnsUrl: string; fcmUrl: string; tokenUri: string; bareUrl: string } | ({ type: 'stats' } & FixtureStats);

/** Sends `message` to a child process (or cluster worker) and answers its first reply of `type`. */
function ask<T>(child: { send(m: unknown): unknown; on(e: 'message', f: (m: { type: string }) => void): unknown; off(e: 'message', f: (m: { type: string }) => void): unknown }, message: unknown, type: string): Promise<T> {
  return new Promise<T>((resolve) => {
    const on = (r: { type: string }) => {
      if (r.type !== type) return;
      child.off('message', on);
      resolve(r as T);
    };
    child.on('message', on);
    child.send(message);
  });
}

/** The cluster primary: starts the workers, relays the parent's questions to them, sums their counts. */
function serve(): void {
  const workers = Array.from({ length: SERVER_PROCESSES }, () => cluster.fork({ ...process.env, PUSH_BENCH_ROLE: 'server-worker' }));
  const replies = <T extends FromWorker>(m: ToWorker, type: T['type']) => Promise.all(workers.map((w) => ask<T>(w, m, type)));
  process.on('message', (m: ToServer) => {
    void (async () => {
      if (m.type === 'keys') {
        const tls = await loopbackCert();
        const ready = await replies<Extract<FromWorker, { type: 'ready' }>>({ type: 'start', apnsPublicPem: m.apnsPublicPem, fcmPublicPem: m.fcmPublicPem, tls, tokenSecret: randomBytes(32).toString('hex') }, 'ready');
        const first = ready[0];
        if (!first || ready.some((r) => r.apnsUrl !== first.apnsUrl || r.fcmUrl !== first.fcmUrl)) throw new Error('the server workers do not share their ports');
        process.send?.({ ...first, type: 'ready', ca: tls.cert, pids: workers.map((w) => w.process.pid ?? 0) } satisfies ServerReady);
      } else if (m.type === 'stats') {
        const all = await replies<Extract<FromWorker, { type: 'stats' }>>({ type: 'stats' }, 'stats');
        const sum = (f: (s: FixtureStats) => number) => all.reduce((n, s) => n + f(s), 0);
        process.send?.({
          type: 'stats',
          apns: { accepted: sum((s) => s.apns.accepted), sessions: sum((s) => s.apns.sessions), maxInFlight: Math.max(...all.map((s) => s.apns.maxInFlight)), verified: sum((s) => s.apns.verified) },
          fcm: { accepted: sum((s) => s.fcm.accepted), sessions: sum((s) => s.fcm.sessions), tokenRequests: sum((s) => s.fcm.tokenRequests) },
        } satisfies ServerStats);
      } else if (m.type === 'stop') {
        await Promise.all(workers.map((w) => new Promise((resolve) => { w.once('exit', resolve); w.send({ type: 'stop' } satisfies ToWorker); })));
        process.exit(0);
      }
    })();
  });
}

function serveWorker(): void {
  const send = (m: FromWorker) => process.send?.(m);
  let fixtures: { apns: Awaited<ReturnType<typeof startApnsServer>>; fcm: Awaited<ReturnType<typeof startFcmServer>> } | null = null;
  process.on('message', (m: ToWorker) => {
    void (async () => {
      if (m.type === 'start') {
        const apns = await startApnsServer({ ...APNS, publicKey: createPublicKey(m.apnsPublicPem), maxConcurrentStreams: STREAMS, keepPayloads: false, tls: m.tls });
        // A provider's round trip, as from a worker to Apple (default none: loopback).
        apns.delayMs = APNS_DELAY_MS;
        const fcm = await startFcmServer({ ...FCM, publicKey: createPublicKey(m.fcmPublicPem), maxConcurrentStreams: STREAMS, keepMessages: false, tls: m.tls, tokenSecret: Buffer.from(m.tokenSecret, 'hex') });
        fixtures = { apns, fcm };
        // The calibration server: HTTP/2 over TLS answering 200 at once, nothing checked.
        const bare = http2.createSecureServer({ key: m.tls.key, cert: m.tls.cert, settings: { maxConcurrentStreams: STREAMS } });
        bare.on('stream', (stream) => {
          stream.on('error', () => undefined);
          stream.resume();
          stream.on('end', () => stream.respond({ ':status': 200 }, { endStream: true }));
        });
        await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
        send({ type: 'ready', apnsUrl: apns.url, fcmUrl: fcm.url, tokenUri: fcm.tokenUri, bareUrl: `https://127.0.0.1:${(bare.address() as AddressInfo).port}` });
      } else if (m.type === 'stats' && fixtures) {
        const { apns, fcm } = fixtures;
        send({ type: 'stats', apns: { accepted: apns.accepted.length, sessions: apns.sessions, maxInFlight: apns.maxInFlight, verified: apns.verifiedTokens.size }, fcm: { accepted: fcm.accepted.length, sessions: fcm.sessions, tokenRequests: fcm.tokenRequests } });
      } else if (m.type === 'stop') {
        await Promise.all([fixtures?.apns.close(), fixtures?.fcm.close()]);
        process.exit(0);
      }
    })();
  });
}

/** Starts the servers for these public keys; `stats` sums every worker's counts, `stop` ends them. */
export async function startPushServers(keys: { apnsPublicPem: string; fcmPublicPem: string }): Promise<ServerReady & { stats: () => Promise<ServerStats>; stop: () => void }> {
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, PUSH_BENCH_ROLE: 'server' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await ask<ServerReady>(child, { type: 'keys', ...keys } satisfies ToServer, 'ready');
  return { ...ready, stats: () => ask<ServerStats>(child, { type: 'stats' } satisfies ToServer, 'stats'), stop: () => child.send({ type: 'stop' } satisfies ToServer) };
}

if (process.env.PUSH_BENCH_ROLE === 'server') serve();
else if (process.env.PUSH_BENCH_ROLE === 'server-worker') serveWorker();
