import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addStepAfter } from '../journey/edit.ts';
import { reachable } from '../journey/graph.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { addSegmentNode } from '../segment/edit.ts';
import { createConditionNode } from '../segment/model.ts';
import { applyJourneyToDoc, initialJourney, journeyFromDoc, readLayout, writeLayoutPosition } from './journeyDoc.ts';
import { restoreJourney, restoreSegment } from './restore.ts';
import { applySegmentToDoc, segmentFromDoc } from './segmentDoc.ts';

const copyOf = (doc: Y.Doc, clientID?: number) => {
  const c = new Y.Doc();
  if (clientID !== undefined) c.clientID = clientID;
  Y.applyUpdate(c, Y.encodeStateAsUpdate(doc));
  return c;
};
const journeyOf = (doc: Y.Doc) => normalizeJourney(journeyFromDoc(doc));

describe('restoreJourney', () => {
  // Which of two writes to one link wins depends on the Yjs client ids: both ways are tried.
  it.each([
    [1, 2],
    [2, 1],
  ])('brings back the kept copy\'s changes on top of what others did meanwhile, without what the server refused (client ids %i, %i)', (martaId, adrianId) => {
    const server = new Y.Doc();
    applyJourneyToDoc(server, normalizeJourney(initialJourney()));
    // Marta's browser copy: a step added offline, then something the server refuses.
    const marta = copyOf(server, martaId);
    applyJourneyToDoc(marta, addStepAfter(journeyOf(marta), 'source', null, 'flowWait', 'martas-wait'));
    writeLayoutPosition(marta, 'martas-wait', { x: 40, y: 200 });
    marta.getMap('stray').set('x', 1);
    // Meanwhile Adrián inserted a step on the same link, and the server has it.
    const adrian = copyOf(server, adrianId);
    applyJourneyToDoc(adrian, addStepAfter(journeyOf(adrian), 'source', null, 'actionMessageInApp', 'adrians-message'));
    Y.applyUpdate(server, Y.encodeStateAsUpdate(adrian));

    // Marta's copy was dropped; the editor reloaded the server's document.
    const reloaded = copyOf(server);
    expect(restoreJourney(reloaded, Y.encodeStateAsUpdate(marta), 'restore')).toBe(true);
    const j = journeyOf(reloaded);
    const live = reachable(j, [j.entryId ?? 'source']);
    expect(live.has('martas-wait')).toBe(true);
    expect(live.has('adrians-message')).toBe(true);
    expect(readLayout(reloaded)['martas-wait']).toEqual({ x: 40, y: 200 });
    expect(reloaded.share.has('stray')).toBe(false);
    // Restoring the same copy again changes nothing.
    expect(restoreJourney(reloaded, Y.encodeStateAsUpdate(marta), 'restore')).toBe(false);
  });
});

describe('restoreSegment', () => {
  it('merges the kept copy\'s conditions and values with the current ones', () => {
    const server = new Y.Doc();
    applySegmentToDoc(server, { rootKey: 'root', nodes: [{ key: 'root', kind: 'group', combinator: 'and', children: [] }] });
    const mine = copyOf(server);
    applySegmentToDoc(mine, addSegmentNode(segmentFromDoc(mine), 'root', createConditionNode('mine', { multiSelect: ['ES'] })));
    const theirs = copyOf(server);
    applySegmentToDoc(theirs, addSegmentNode(segmentFromDoc(theirs), 'root', createConditionNode('theirs')));
    Y.applyUpdate(server, Y.encodeStateAsUpdate(theirs));
    const reloaded = copyOf(server);
    expect(restoreSegment(reloaded, Y.encodeStateAsUpdate(mine))).toBe(true);
    expect(segmentFromDoc(reloaded).nodes.map((n) => n.key).sort()).toEqual(['mine', 'root', 'theirs']);
    expect(restoreSegment(reloaded, Y.encodeStateAsUpdate(mine))).toBe(false);
  });
});
