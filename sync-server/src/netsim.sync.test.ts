/**
 * Three people edit one journey through networks that delay, drop connections (what an old
 * connection still carries arrives after the reconnect) and partition, driven by fast-check over
 * random scripts: real providers, two real sync instances joined by Redis (each new connection goes
 * to the next instance, as behind a load balancer), real WebSockets, each person's network its own
 * loopback link (testing/netsim.ts). A reconnect to the other instance while the old connection's
 * last updates still travel is how a replica receives an update before one it depends on. Each person's replica behaves as the editor does: edits are
 * normalized journeys written as diffs, lost links are put back on a settled document
 * (watchJourneyConflicts), and the present writer with the smallest client id repairs a settled,
 * quiet document that breaks the rules (client/src/sync/repair.ts).
 *
 * After healing, every replica and both instances hold the same journey, it satisfies every invariant
 * of SPEC §4, and every step a person added (and saw connected) that nobody removed is reachable.
 */
import { isDesignatedRepairer, isSettled } from '@gd/shared/docs/settled';
import { watchJourneyConflicts } from '@gd/shared/docs/journeyConflicts';
import { applyJourneyToDoc, journeyFromDoc } from '@gd/shared/docs/journeyDoc';
import { arbInsertOrRemove, applyInsertOrRemove, type InsertOrRemove } from '@gd/shared/journey/arbitraries';
import { reachable } from '@gd/shared/journey/graph';
import { journeyInvariantIssues } from '@gd/shared/journey/invariants';
import { normalizeJourney } from '@gd/shared/journey/normalize';
import { WebSocketStatus } from '@hocuspocus/provider';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import { openLiveDocState } from './live.ts';
import { openClient, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startLink, type SimLink } from './testing/netsim.ts';
import { REDIS_URL, redisPrefix, startSync, type RunningSync } from './testing/server.ts';

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

type Action =
  | { kind: 'edit'; who: number; op: InsertOrRemove }
  | { kind: 'delay'; who: number; ms: number }
  | { kind: 'drop'; who: number }
  | { kind: 'partition'; who: number }
  | { kind: 'heal'; who: number }
  | { kind: 'wait'; ms: number };

const who = fc.integer({ min: 0, max: 2 });
const arbAction: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), who, op: arbInsertOrRemove }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delay' as const), who, ms: fc.constantFrom(0, 30, 120, 400) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('partition' as const), who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('heal' as const), who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 150 }) }) },
);

/** The editor waits this long after the last change before a repair (client/src/sync/repair.ts). */
const REPAIR_QUIET_MS = 400;
const LOCAL = Symbol('local edit');
const REPAIR = Symbol('repair');

interface Person {
  client: TestClient;
  link: SimLink;
  stop(): void;
}

const online = (c: TestClient) => c.provider.isAuthenticated && c.provider.isSynced && !c.provider.hasUnsyncedChanges && c.socket.status === WebSocketStatus.Connected;

function openPerson(i: number, link: SimLink, name: string): Person {
  const doc = new Y.Doc();
  doc.clientID = 1_000 + i;
  const client = openClient({ url: link.url, name, doc, token: () => fx.token(fx.users.manager, { doc: name }) });
  const stopConflicts = watchJourneyConflicts(doc, { canWrite: () => true, onConflicts: () => undefined, origin: REPAIR });
  let lastChange = Date.now();
  const touched = () => {
    lastChange = Date.now();
  };
  doc.on('update', touched);
  // The editor's safe repair: online, settled, quiet, the designated writer, a journey the rules change.
  const repairs = setInterval(() => {
    if (Date.now() - lastChange < REPAIR_QUIET_MS || !online(client) || !isSettled(doc)) return;
    if (!isDesignatedRepairer(doc.clientID, client.provider.awareness?.getStates() ?? new Map())) return;
    const raw = journeyFromDoc(doc);
    const normal = normalizeJourney(raw);
    if (normal !== raw && normal.steps.length > 0) applyJourneyToDoc(doc, normal, REPAIR);
  }, 50);
  return {
    client,
    link,
    stop: () => {
      clearInterval(repairs);
      stopConflicts();
      doc.off('update', touched);
      client.destroy();
    },
  };
}

async function liveJourneyState(server: RunningSync, name: string) {
  const { state } = await openLiveDocState(server.sync, name);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc;
}

async function runScript(script: readonly Action[]) {
  const name = await fx.newJourneyDoc();
  const targets = servers.map((s) => ({ host: '127.0.0.1', port: Number(new URL(s.url).port) }));
  // People start on different instances (the links' rotations start apart).
  const links = await Promise.all([0, 1, 2].map((i) => startLink([...targets.slice(i % 2), ...targets.slice(0, i % 2)])));
  const people = links.map((link, i) => openPerson(i, link, name));
  try {
    await waitFor(() => people.every((p) => online(p.client)), 'everyone connected');
    const added = new Set<string>();
    const removed = new Set<string>();
    let n = 0;
    for (const action of script) {
      if (action.kind === 'wait') {
        await new Promise((resolve) => setTimeout(resolve, action.ms));
        continue;
      }
      const person = people[action.who] as Person;
      if (action.kind === 'delay') person.link.setDelay(action.ms);
      else if (action.kind === 'drop') person.link.drop();
      else if (action.kind === 'partition') person.link.partition();
      else if (action.kind === 'heal') person.link.heal();
      else {
        const doc = person.client.doc;
        const before = normalizeJourney(journeyFromDoc(doc));
        const id = `p${action.who}-u${++n}`;
        const after = applyInsertOrRemove(before, action.op, id);
        for (const s of before.steps) if (!after.steps.some((t) => t.id === s.id)) removed.add(s.id);
        if (after.entryId !== null && reachable(after, [after.entryId]).has(id)) added.add(id);
        applyJourneyToDoc(doc, after, LOCAL);
      }
      // Edits and faults of one person happen in their own time, not in one tick.
      await new Promise((resolve) => setImmediate(resolve));
    }

    // Healing: every network recovers; wait until everyone and the server agree and nothing moves.
    for (const link of links) {
      link.heal();
      link.setDelay(0);
    }
    let last = '';
    let stableSince = Date.now();
    await waitFor(
      async () => {
        if (!people.every((p) => online(p.client))) return false;
        const live = await Promise.all(servers.map((s) => liveJourneyState(s, name)));
        const vectors = [...live, ...people.map((p) => p.client.doc)].map((d) => Buffer.from(Y.encodeStateVector(d)).toString('base64'));
        const now = vectors.join('|');
        if (now !== last || new Set(vectors).size !== 1) {
          last = now;
          stableSince = Date.now();
          return false;
        }
        return Date.now() - stableSince > REPAIR_QUIET_MS + 600;
      },
      'every replica and the server agree, and nothing moves',
      30_000,
    );

    const final = journeyFromDoc(await liveJourneyState(servers[0] as RunningSync, name));
    for (const p of people) expect(journeyFromDoc(p.client.doc)).toEqual(final);
    expect(journeyInvariantIssues(final)).toEqual([]);
    const live = final.entryId === null ? new Set<string>() : reachable(final, [final.entryId]);
    for (const id of added) {
      if (!removed.has(id) && final.steps.some((s) => s.id === id)) expect(live.has(id), `${id} is reachable`).toBe(true);
    }
  } finally {
    for (const p of people) p.stop();
    await Promise.all(links.map((l) => l.close()));
  }
}

it('a fixed case: edits on a slow, dropping connection meet a colleague\'s inserts and removals', async () => {
  // The shape of what was seen (issue 10): high latency and a toggling connection on one side while
  // the others insert after and remove the same steps. (The half-arrived state itself, a replacement
  // held back by Yjs until the write it depends on arrives, never reaches a client through the
  // server, which relays only what it integrated: it is the case of client/src/sync/repair.test.ts.)
  await runScript([
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

it('random edits by three people through delays, drops and partitions: after healing, one valid journey, no step someone added and nobody removed cut off', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(arbAction, { minLength: 4, maxLength: 18 }), (script) => runScript(script)),
    { numRuns: 10, endOnFailure: true },
  );
}, 300_000);
