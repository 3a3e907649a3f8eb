/**
 * Three people edit one document through networks that delay, drop connections (what an old
 * connection still carries arrives after the reconnect) and partition, driven by fast-check over
 * random scripts: real providers, two real sync instances joined by Redis (each new connection goes
 * to the next instance, as behind a load balancer), real WebSockets, each person's network its own
 * loopback link (testing/netsim.ts). Each replica behaves as the browser's editor of its kind does
 * (testing/editors.ts, testing/simulation.ts).
 *
 * After healing, every replica and both instances hold the same document, and it is normal.
 * Journeys: every SPEC §4 invariant holds and every step a person added (and saw connected) that
 * nobody removed is reachable. Segments: every node a person added is there unless someone removed
 * it or a group above it, and every value added to a condition is there unless someone removed it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import { journeyEditor, segmentEditor } from './testing/editors.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { REDIS_URL, redisPrefix, startSync, type RunningSync } from './testing/server.ts';
import { arbAction, runScript } from './testing/simulation.ts';

let servers: RunningSync[];
let fx: Fixture;

beforeAll(async () => {
  const redis = { url: REDIS_URL, prefix: redisPrefix() };
  servers = [await startSync({ redis }), await startSync({ redis })];
  fx = await createFixture((servers[0] as RunningSync).db);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const env = () => ({ fx, servers });

it('a fixed case: edits on a slow, dropping connection meet a colleague\'s inserts and removals', async () => {
  // The shape of what was seen (issue 10): high latency and a toggling connection on one side while
  // the others insert after and remove the same steps. (The half-arrived state itself, a replacement
  // held back by Yjs until the write it depends on arrives, never reaches a client through the
  // server, which relays only what it integrated: it is the case of client/src/sync/repair.test.ts.)
  await runScript(journeyEditor, env(), [
    { kind: 'edit', who: 0, op: { kind: 'add', from: 0, path: 0, type: 'flowWait' } },
    { kind: 'wait', ms: 100 },
    { kind: 'delay', who: 1, ms: 400 },
    { kind: 'edit', who: 1, op: { kind: 'add', from: 1, path: 0, type: 'flowInteraction' } },
    { kind: 'edit', who: 0, op: { kind: 'add', from: 1, path: 0, type: 'actionMessageInApp' } },
    { kind: 'drop', who: 1 },
    { kind: 'edit', who: 1, op: { kind: 'add', from: 3, path: 1, type: 'updateTagCount' } },
    { kind: 'edit', who: 2, op: { kind: 'remove', step: 2 } },
    { kind: 'wait', ms: 150 },
    { kind: 'partition', who: 0 },
    { kind: 'edit', who: 0, op: { kind: 'add', from: 2, path: 0, type: 'flowSplit' } },
    { kind: 'edit', who: 1, op: { kind: 'add', from: 5, path: 0, type: 'flowWait' } },
    { kind: 'drop', who: 1 },
    { kind: 'wait', ms: 120 },
    { kind: 'heal', who: 0 },
    { kind: 'edit', who: 2, op: { kind: 'add', from: 4, path: 1, type: 'flowInteraction' } },
  ]);
}, 60_000);

it('journeys: random edits by three people through delays, drops and partitions; after healing, one valid journey, no step someone added and nobody removed cut off', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(arbAction(journeyEditor.arbOp), { minLength: 4, maxLength: 18 }), (script) => runScript(journeyEditor, env(), script)),
    { numRuns: 10, endOnFailure: true },
  );
}, 300_000);

it('segments: random edits by three people through delays, drops and partitions; after healing, one normal segment holding every node and value someone added and nobody removed', async () => {
  await fc.assert(
    // Every script starts from a condition that everyone has, so that values meet early.
    fc.asyncProperty(fc.array(arbAction(segmentEditor.arbOp), { minLength: 4, maxLength: 18 }), (script) =>
      runScript(segmentEditor, env(), [{ kind: 'edit', who: 0, op: { kind: 'condition', parent: 0, values: 1 } }, { kind: 'wait', ms: 50 }, ...script]),
    ),
    { numRuns: 10, endOnFailure: true },
  );
}, 300_000);
