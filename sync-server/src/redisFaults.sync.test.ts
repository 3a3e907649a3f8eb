/**
 * Two sync servers joined through Redis, off the happy path (redis.sync.test.ts has it):
 * - one instance is SIGKILLed while people edit on both; the load balancer sends its clients to
 *   the other instance, and every edit (those the dead one had, those made while it was down) ends
 *   on both screens and in the database;
 * - one instance loses Redis (connections reset, refused for a while) while people edit on both:
 *   after Redis is back, both screens converge and everything is stored; also when its subscriber
 *   connection comes back well after its publisher (the answers to its queued announcements went
 *   to nobody).
 */
import { Writable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { pino, type Logger } from 'pino';
import { beforeAll, expect, it } from 'vitest';
import { synced, waitFor } from './testing/clients.ts';
import type { Fixture } from './testing/fixtures.ts';
import { layoutOf, useScene } from './testing/scene.ts';
import { REDIS_URL, redisPrefix } from './testing/server.ts';

const scene = useScene();
const { open, proxy } = scene;
const meta = layoutOf;
const stored = scene.storedLayout;
let fx: Fixture;
beforeAll(() => { fx = scene.fixture(); });

it('fails over: an instance killed mid-editing loses nothing, its clients go on through the other one', async () => {
  const name = await fx.newJourneyDoc();
  const env = { REDIS_URL, REDIS_PREFIX: redisPrefix() };
  const [one, two] = [await scene.child(env), await scene.child(env)];
  // The load balancer: A's connections go to instance one until it dies.
  const balancer = await proxy({ host: '127.0.0.1', port: one.port });
  const [a, b] = [open(balancer.url, name), open(two.url, name)];
  await waitFor(() => synced(a) && synced(b), 'synced');
  for (let i = 0; i < 20; i += 1) {
    meta(a)!.set(`a${i}`, i);
    meta(b)!.set(`b${i}`, i);
  }
  await waitFor(() => meta(a)!.has('b19') && meta(b)!.has('a19'), 'edits crossed Redis');
  meta(a)!.set('inFlight', true);
  one.child.kill('SIGKILL');
  expect(await one.exited).toBeNull();
  // Nothing had been stored yet (a minute of debounce): what survives, survives in the clients and on instance two.
  expect(await stored(name)).not.toHaveProperty('a0');

  balancer.retarget({ host: '127.0.0.1', port: two.port });
  meta(a)!.set('whileFailingOver', true);
  meta(b)!.set('onTwoMeanwhile', true);
  const everything = ['a19', 'b19', 'inFlight', 'whileFailingOver', 'onTwoMeanwhile'];
  await waitFor(() => synced(a) && everything.every((k) => meta(a)!.has(k) && meta(b)!.has(k)), 'both screens have everything', 30_000);
  expect(meta(a)!.toJSON()).toEqual(meta(b)!.toJSON());

  const expected = meta(a)!.toJSON();
  two.child.kill('SIGTERM');
  expect(await two.exited).toBe(0);
  expect(await stored(name)).toEqual(expected);
});

/**
 * Instance one reaches Redis through a proxy, instance two directly; a person on each edits the
 * same journey. `split` cuts instance one off Redis while both make `edits` edits each, lets
 * `beforeHeal` set the proxy up and heals it, waits for both screens to hold everything without
 * anyone typing again, then closes them and waits for everything to be stored.
 */
async function redisSplit(log?: Logger) {
  const name = await fx.newJourneyDoc();
  const upstream = new URL(REDIS_URL);
  const redisLink = await proxy({ host: upstream.hostname, port: Number(upstream.port || 6379) });
  const prefix = redisPrefix();
  const one = await scene.server({ redis: { url: `redis://127.0.0.1:${redisLink.port}`, prefix }, debounceMs: 200, maxDebounceMs: 1000, ...(log ? { log } : {}) });
  const two = await scene.server({ redis: { url: REDIS_URL, prefix }, debounceMs: 200, maxDebounceMs: 1000 });
  const [a, b] = [open(one.url, name), open(two.url, name)];
  await waitFor(() => synced(a) && synced(b), 'synced');
  meta(a)!.set('before', 1);
  await waitFor(() => meta(b)!.get('before') === 1, 'crossed Redis');
  return {
    async split(edits: number, downMs: number, beforeHeal: () => void = () => undefined) {
      redisLink.cut();
      for (let i = 0; i < edits; i += 1) {
        meta(a)!.set(`splitA${i}`, i);
        meta(b)!.set(`splitB${i}`, i);
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, downMs));
      beforeHeal();
      redisLink.heal();
      // Nobody needs to type again for the two sides to meet.
      const last = edits - 1;
      await waitFor(() => isDeepStrictEqual(meta(a)!.toJSON(), meta(b)!.toJSON()) && meta(a)!.has(`splitB${last}`) && meta(b)!.has(`splitA${last}`), 'converged after Redis is back', 15_000);
      const expected = meta(a)!.toJSON();
      a.destroy();
      b.destroy();
      await waitFor(async () => isDeepStrictEqual(await stored(name), expected), 'everything stored', 30_000);
    },
    holdFrom: (text: string, ms: number) => redisLink.holdFrom(text, ms),
  };
}

it('heals after an instance loses Redis while people edit on both', async () => {
  const logged: { msg: string }[] = [];
  const log = pino({ level: 'info' }, new Writable({ write(chunk: Buffer, _enc, done) { logged.push(JSON.parse(chunk.toString()) as { msg: string }); done(); } }));
  const link = await redisSplit(log);
  // Redis goes away for instance one (as in a Redis restart or a network split) for two seconds.
  await link.split(10, 1000);
  // The outage is in the log once, as a warning, and so is the recovery (not an "Unhandled error event" per retry).
  expect(logged.filter((l) => l.msg.startsWith('lost Redis')).length).toBeGreaterThanOrEqual(1);
  expect(logged.filter((l) => l.msg.startsWith('lost Redis')).length).toBeLessThanOrEqual(2); // one per connection: publish, subscribe
  expect(logged.some((l) => l.msg === 'Redis is back')).toBe(true);
});

it('heals when its subscription comes back after its publishes were answered to nobody', async () => {
  const link = await redisSplit();
  // When instance one reconnects, its subscriber's SUBSCRIBE reaches Redis 1.5 s late: by then its
  // publisher has sent the queued announcements, and instance two's answers went to nobody.
  await link.split(5, 500, () => link.holdFrom('SUBSCRIBE', 1_500));
});
