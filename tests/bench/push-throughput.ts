/**
 * Push throughput (issue 13 target: at least 20,000 notifications/s from one worker): one process
 * sends N notifications (BENCH_PUSH_N, default 100,000) through the real APNs client and then the
 * real FCM v1 client (api-server/src/features/delivery/push) to the loopback servers, which speak
 * the real protocols over TLS and HTTP/2: the APNs server verifies the ES256 provider token and
 * every header, the FCM server checks the OAuth access token it issued (after verifying the RS256
 * assertion) and the v1 message.
 *
 * The servers run in other processes (support-push.ts: BENCH_PUSH_SERVER_PROCESSES workers,
 * default 2, serving the same ports and taking the connections in turn), as a provider's front
 * ends are many machines; the sender is this one
 * process, as a worker sending to Apple or Google would be. Each client opens HTTP/2 connections
 * as it needs them (http2Endpoint.ts: another only when every open one has BENCH_PUSH_STREAMS
 * streams in flight, default 1,000, APNs' usual limit; the benchmark prints how many the servers
 * saw), and the sender keeps BENCH_PUSH_WINDOW sends in flight (default 2,000, so two connections;
 * the rest would queue in the client for a stream). Every notification has its own device token,
 * title, body and data; payloads are built and sized by the client as in production. Printed:
 * notifications/s, p50/p99 of a send (queue time included), and the outcomes (every one must be
 * `sent`).
 *
 * Calibration: the same run first measures bare node:http2 on this machine at this moment (a
 * minimal TLS HTTP/2 server answering 200 to every stream, node's own client on one session with
 * the same window and a similar request), since the figures depend on what else the shared machine
 * is running. Our clients do not use node's HTTP/2 client (push/http2/connection.ts says why), so
 * they can pass that figure; it shows what node:http2 alone would allow here.
 *
 * CPU: after each part, the CPU time per request of the sender (this process) and of the servers
 * (all their processes), read from the kernel. On a machine whose cores are shared by both sides,
 * their sum bounds what any sender can reach: two cores carry at most 2,000,000 / (sender + server) µs
 * requests a second.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http2 from 'node:http2';
import { createApnsClient } from '../../api-server/src/features/delivery/push/apns.ts';
import { createFcmClient } from '../../api-server/src/features/delivery/push/fcm.ts';
import type { PushClient, PushNotification } from '../../api-server/src/features/delivery/push/notification.ts';
import { loopbackPolicy } from '../../api-server/src/features/delivery/push/testing/keys.ts';
import { cpuSnapshot, fmt, percentile } from './support.ts';
import { APNS, FCM, SERVER_PROCESSES, STREAMS, startPushServers } from './support-push.ts';

const N = Number(process.env.BENCH_PUSH_N ?? 100_000);
const WINDOW = Number(process.env.BENCH_PUSH_WINDOW ?? 2_000);

function notification(i: number, token: string): PushNotification {
  return {
    token, id: undefined, title: `Offer ${i}`, body: `Hello person ${i}, your weekly picks are ready.`,
    data: { message_id: 'bench', variant: String(i % 2), person: String(i) }, lifeSeconds: 86_400, collapseId: 'weekly-picks',
  };
}

/** Prints each side's CPU per request over `work`: what one core of either can carry, whatever the other needs. */
async function withCpu<T>(serverPids: number[], requests: number, work: () => Promise<T>): Promise<T> {
  const before = cpuSnapshot(serverPids);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const after = cpuSnapshot(serverPids);
  const side = (us: number) => `${(us / requests).toFixed(1)} µs/request (${Math.round((us / 1000 / ms) * 100)}% of a core; one core carries ${Math.round(1e6 / (us / requests)).toLocaleString('en')}/s)`;
  console.log(`  CPU: sender ${side(after.self - before.self)}; servers ${side(after.pids - before.pids)}`);
  return result;
}

async function run(name: string, client: PushClient, tokens: string[]): Promise<{ rate: number; outcomes: Record<string, number> }> {
  const latencies = new Float64Array(tokens.length);
  const outcomes: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(WINDOW, tokens.length) }, async () => {
    for (let i = next++; i < tokens.length; i = next++) {
      const t0 = performance.now();
      const result = await client.send(notification(i, tokens[i] ?? ''));
      latencies[i] = performance.now() - t0;
      const key = result.outcome === 'sent' ? 'sent' : `${result.outcome}:${result.reason}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const rate = tokens.length / seconds;
  console.log(`${name}: ${tokens.length.toLocaleString('en')} notifications in ${seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en')} notifications/s; send p50 ${fmt(percentile(sorted, 50))}, p99 ${fmt(percentile(sorted, 99))}; outcomes ${JSON.stringify(outcomes)}`);
  return { rate, outcomes };
}

/** Bare node:http2 requests per second on this machine now: the ceiling the clients are read against. */
async function calibrate(url: string, ca: string, count: number): Promise<number> {
  const session = http2.connect(url, { ca });
  session.on('error', () => undefined);
  const body = Buffer.from(JSON.stringify(notification(0, '')));
  const one = () => new Promise<void>((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': `/3/device/${'ab'.repeat(32)}`, 'apns-topic': APNS.bundleId, authorization: `bearer ${'x'.repeat(180)}` });
    stream.on('error', reject);
    stream.resume();
    stream.on('end', () => resolve());
    stream.end(body);
  });
  await Promise.all(Array.from({ length: 200 }, one));
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(WINDOW, STREAMS) }, async () => {
    while (next++ < count) await one();
  }));
  const rate = count / ((performance.now() - started) / 1000);
  session.close();
  return rate;
}

async function main(): Promise<void> {
  const apnsKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const fcmKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ready = await startPushServers({ apnsPublicPem: apnsKey.publicKey.export({ type: 'spki', format: 'pem' }).toString(), fcmPublicPem: fcmKey.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const policy = loopbackPolicy(ready.ca);
  const pem = (k: typeof apnsKey.privateKey) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

  console.log(`push throughput: N=${N.toLocaleString('en')}, ${STREAMS} streams per connection, ${WINDOW} sends in flight, servers in ${SERVER_PROCESSES} process(es) sharing their ports (TLS + HTTP/2)`);
  const calibrationN = Math.max(10_000, Math.round(N / 5));
  const ceiling = await withCpu(ready.pids, calibrationN, () => calibrate(ready.bareUrl, ready.ca, calibrationN));
  console.log(`calibration: bare node:http2 (TLS, one session, minimal server) = ${Math.round(ceiling).toLocaleString('en')} requests/s on this machine now`);
  const apnsTokens = Array.from({ length: N }, () => randomBytes(32).toString('hex'));
  const fcmTokens = Array.from({ length: N }, () => `bench-${randomBytes(60).toString('base64url')}`);

  const apns = createApnsClient({ ...APNS, privateKeyPem: pem(apnsKey.privateKey), endpoint: ready.apnsUrl, policy, maxConcurrentStreams: STREAMS });
  // A short warm-up (the session, the provider token, the JIT) before the clock starts.
  await Promise.all(Array.from({ length: 200 }, () => apns.send(notification(0, randomBytes(32).toString('hex')))));
  const a = await withCpu(ready.pids, N, () => run('APNs (HTTP/2, ES256 provider token)', apns, apnsTokens));
  await apns.close();

  const fcm = createFcmClient({ ...FCM, privateKeyPem: pem(fcmKey.privateKey), tokenUri: ready.tokenUri, endpoint: ready.fcmUrl, policy, maxConcurrentStreams: STREAMS });
  await Promise.all(Array.from({ length: 200 }, () => fcm.send(notification(0, 'warm-up'))));
  const f = await withCpu(ready.pids, N, () => run('FCM v1 (HTTP/2, OAuth access token)', fcm, fcmTokens));
  await fcm.close();

  const stats = await ready.stats();
  console.log(`servers: APNs accepted ${stats.apns.accepted.toLocaleString('en')} on ${stats.apns.sessions} HTTP/2 connection(s), at most ${stats.apns.maxInFlight} streams at once on one server process, ${stats.apns.verified} provider token(s) verified; FCM accepted ${stats.fcm.accepted.toLocaleString('en')} on ${stats.fcm.sessions} HTTP/2 connection(s), ${stats.fcm.tokenRequests} token exchange(s)`);
  ready.stop();
  const ok = (a.outcomes.sent ?? 0) === N && (f.outcomes.sent ?? 0) === N && stats.apns.accepted === N + 200 && stats.fcm.accepted === N + 200;
  console.log(`target ≥ 20,000 notifications/s: APNs ${a.rate >= 20_000 ? 'met' : 'NOT met'}, FCM ${f.rate >= 20_000 ? 'met' : 'NOT met'}; of the bare HTTP/2 ceiling: APNs ${Math.round((100 * a.rate) / ceiling)}%, FCM ${Math.round((100 * f.rate) / ceiling)}%${ok ? '' : '; NOT every notification was accepted'}`);
  if (!ok) process.exitCode = 1;
}

await main();
