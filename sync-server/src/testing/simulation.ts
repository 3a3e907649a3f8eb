/**
 * People editing one document through networks that misbehave (netsim.ts), each replica behaving
 * as the browser's editor does for its kind (an `EditorKind`): edits written as diffs of the
 * normalized content, the kind's reactions to lost writes, and the editor's safe repair (online,
 * settled, quiet for REPAIR_QUIET_MS, the present writer with the smallest client id; see
 * client/src/sync/repair.ts). `runScript` plays a script of edits and faults, heals every network,
 * waits until every replica and every sync instance hold the same state and nothing moves, then
 * hands the final state to the kind's checks.
 */
import { WebSocketStatus } from '@hocuspocus/provider';
import { isDesignatedRepairer, isSettled } from '@gd/shared/docs/settled';
import fc from 'fast-check';
import { expect } from 'vitest';
import * as Y from 'yjs';
import { openLiveDocState } from '../live.ts';
import { openClient, waitFor, type TestClient } from './clients.ts';
import type { Fixture } from './fixtures.ts';
import { startLink, type SimLink } from './netsim.ts';
import type { RunningSync } from './server.ts';

/** The editor waits this long after the last change before a repair (client/src/sync/repair.ts). */
export const REPAIR_QUIET_MS = 400;
export const LOCAL = Symbol('local edit');
export const REPAIR = Symbol('repair');

/** How one kind of document is edited, repaired and judged. */
export interface EditorKind<Op, Record> {
  newDoc(fx: Fixture): Promise<string>;
  arbOp: fc.Arbitrary<Op>;
  /** What a replica does from the start (lost-write handling); returns a stop function. */
  watch?(doc: Y.Doc): () => void;
  /** Applies `op` as person `who`'s editor would, noting what it added and removed. */
  edit(doc: Y.Doc, op: Op, id: string, record: Record): void;
  newRecord(): Record;
  /** The repair the editor writes on a settled document, or null when it is normal. */
  repair(doc: Y.Doc): (() => void) | null;
  /** The content as the editor reads it (compared across replicas). */
  read(doc: Y.Doc): unknown;
  /** Checks the healed document (the same on every replica and instance). */
  check(final: Y.Doc, record: Record): void;
}

export type Action<Op> =
  | { kind: 'edit'; who: number; op: Op }
  | { kind: 'delay'; who: number; ms: number }
  | { kind: 'drop'; who: number }
  | { kind: 'partition'; who: number }
  | { kind: 'heal'; who: number }
  | { kind: 'wait'; ms: number };

const who = fc.integer({ min: 0, max: 2 });
export function arbAction<Op>(arbOp: fc.Arbitrary<Op>): fc.Arbitrary<Action<Op>> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), who, op: arbOp }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delay' as const), who, ms: fc.constantFrom(0, 30, 120, 400) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), who }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('partition' as const), who }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('heal' as const), who }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 150 }) }) },
  );
}

const online = (c: TestClient) =>
  c.provider.isAuthenticated && c.provider.isSynced && !c.provider.hasUnsyncedChanges && c.socket.status === WebSocketStatus.Connected;

interface Person {
  client: TestClient;
  link: SimLink;
  stop(): void;
}

function openPerson<Op, R>(kind: EditorKind<Op, R>, fx: Fixture, i: number, link: SimLink, name: string): Person {
  const doc = new Y.Doc();
  doc.clientID = 1_000 + i;
  const client = openClient({ url: link.url, name, doc, token: () => fx.token(fx.users.manager, { doc: name }) });
  const stopWatching = kind.watch?.(doc) ?? (() => undefined);
  let lastChange = Date.now();
  const touched = () => {
    lastChange = Date.now();
  };
  doc.on('update', touched);
  const repairs = setInterval(() => {
    if (Date.now() - lastChange < REPAIR_QUIET_MS || !online(client) || !isSettled(doc)) return;
    if (!isDesignatedRepairer(doc.clientID, client.provider.awareness?.getStates() ?? new Map())) return;
    kind.repair(doc)?.();
  }, 50);
  return {
    client,
    link,
    stop: () => {
      clearInterval(repairs);
      stopWatching();
      doc.off('update', touched);
      client.destroy();
    },
  };
}

async function liveState(server: RunningSync, name: string): Promise<Y.Doc> {
  const { state } = await openLiveDocState(server.sync, name);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc;
}

export async function runScript<Op, R>(kind: EditorKind<Op, R>, env: { fx: Fixture; servers: RunningSync[] }, script: readonly Action<Op>[]) {
  const name = await kind.newDoc(env.fx);
  const targets = env.servers.map((s) => ({ host: '127.0.0.1', port: Number(new URL(s.url).port) }));
  // People start on different instances (the links' rotations start apart).
  const links = await Promise.all([0, 1, 2].map((i) => startLink([...targets.slice(i % targets.length), ...targets.slice(0, i % targets.length)])));
  const people = links.map((link, i) => openPerson(kind, env.fx, i, link, name));
  try {
    await waitFor(() => people.every((p) => online(p.client)), 'everyone connected');
    const record = kind.newRecord();
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
      else kind.edit(person.client.doc, action.op, `p${action.who}-u${++n}`, record);
      // Edits and faults of one person happen in their own time, not in one tick.
      await new Promise((resolve) => setImmediate(resolve));
    }

    // Healing: every network recovers; wait until everyone and every instance agree and nothing moves.
    for (const link of links) {
      link.heal();
      link.setDelay(0);
    }
    let last = '';
    let stableSince = Date.now();
    await waitFor(
      async () => {
        if (!people.every((p) => online(p.client))) return false;
        const live = await Promise.all(env.servers.map((s) => liveState(s, name)));
        const vectors = [...live, ...people.map((p) => p.client.doc)].map((d) => Buffer.from(Y.encodeStateVector(d)).toString('base64'));
        const now = vectors.join('|');
        if (now !== last || new Set(vectors).size !== 1) {
          last = now;
          stableSince = Date.now();
          return false;
        }
        return Date.now() - stableSince > REPAIR_QUIET_MS + 600;
      },
      'every replica and instance agree, and nothing moves',
      30_000,
    );
    const final = await liveState(env.servers[0] as RunningSync, name);
    for (const p of people) expect(kind.read(p.client.doc), `replica ${p.client.doc.clientID}`).toEqual(kind.read(final));
    kind.check(final, record);
  } finally {
    for (const p of people) p.stop();
    await Promise.all(links.map((l) => l.close()));
  }
}
