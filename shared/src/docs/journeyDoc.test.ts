import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { connect, removeStep, updateStep } from '../journey/edit.ts';
import { journeyInvariantIssues } from '../journey/invariants.ts';
import { createStep, type Journey } from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { byId, fullJourney, sortSteps } from '../journey/testing.ts';
import { applyJourneyToDoc, initJourneyDoc, initialJourney, journeyFromDoc, readLayout, writeLayoutPosition } from './journeyDoc.ts';
import { replica, sync } from './testing.ts';

const NAME = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222/journey/33333333-3333-4333-8333-333333333333';

function docWith(j: Journey): Y.Doc {
  const doc = new Y.Doc();
  applyJourneyToDoc(doc, j);
  return doc;
}
function updatesOf(doc: Y.Doc, f: () => void): Uint8Array[] {
  const got: Uint8Array[] = [];
  const on = (u: Uint8Array) => got.push(u);
  doc.on('update', on);
  f();
  doc.off('update', on);
  return got;
}

describe('journey ⇄ doc', () => {
  it('round-trips every step type, through an encoded replica too', () => {
    const j = fullJourney();
    expect(journeyFromDoc(docWith(j))).toEqual(sortSteps(j));
    expect(journeyFromDoc(replica(docWith(j)))).toEqual(sortSteps(j));
  });

  it('stores steps as maps and paths as arrays of maps', () => {
    const doc = docWith(fullJourney());
    const split = doc.getMap('steps').get('split');
    expect(split).toBeInstanceOf(Y.Map);
    const paths = (split as Y.Map<unknown>).get('paths');
    expect(paths).toBeInstanceOf(Y.Array);
    expect((paths as Y.Array<unknown>).get(0)).toBeInstanceOf(Y.Map);
    expect(doc.getMap('meta').get('entryId')).toBe('s');
  });

  it('writes nothing when nothing changed, and one small update for one changed field', () => {
    const j = fullJourney();
    const doc = docWith(j);
    expect(updatesOf(doc, () => applyJourneyToDoc(doc, j))).toEqual([]);
    const changedKeys: string[] = [];
    doc.getMap('steps').observeDeep((events) => {
      for (const e of events) changedKeys.push(...[...e.keys.keys()].map((k) => `${String(e.path.join('.'))}:${k}`));
    });
    const w = byId(j, 'w');
    if (w?.type !== 'flowWait') throw new Error('fixture');
    const edited = updateStep(j, { ...w, duration: 60 });
    const updates = updatesOf(doc, () => applyJourneyToDoc(doc, edited));
    expect(updates).toHaveLength(1);
    expect(changedKeys).toEqual(['w:duration']);
    expect(journeyFromDoc(doc)).toEqual(sortSteps(edited));
  });

  it('merges concurrent edits of different steps and of different fields of one step', () => {
    const base = docWith(fullJourney());
    const a = replica(base);
    const b = replica(base);
    const ja = journeyFromDoc(a);
    const push = byId(ja, 'push');
    const wait = byId(ja, 'w');
    if (push?.type !== 'actionMessagePush' || wait?.type !== 'flowWait') throw new Error('fixture');
    applyJourneyToDoc(a, updateStep(ja, { ...push, campaignId: 'c-from-a' }));
    applyJourneyToDoc(b, updateStep(journeyFromDoc(b), { ...wait, duration: 120 }));
    const jb = journeyFromDoc(b);
    const pushB = byId(jb, 'push');
    if (pushB?.type !== 'actionMessagePush') throw new Error('fixture');
    applyJourneyToDoc(b, updateStep(jb, { ...pushB, messageId: 'm-from-b' }));
    sync(a, b);
    expect(journeyFromDoc(a)).toEqual(journeyFromDoc(b));
    expect(byId(journeyFromDoc(a), 'push')).toMatchObject({ campaignId: 'c-from-a', messageId: 'm-from-b' });
    expect(byId(journeyFromDoc(a), 'w')).toMatchObject({ duration: 120 });
  });

  it('repairs a merge of two valid edits that breaks the graph (both replicas repair alike)', () => {
    const push = (id: string) => ({ ...createStep('actionMessagePush', id), campaignId: 'c', messageId: id });
    const start = normalizeJourney({
      entryId: 's',
      steps: [{ ...createStep('sourceEvents', 's'), eventIds: ['e'], next: 'r' }, { ...createStep('flowRandom', 'r'), paths: createStep('flowRandom', 'r').paths.map((p, i) => ({ ...p, next: i ? 'b' : 'a' })) }, push('a'), push('b')],
    });
    const base = docWith(start);
    const a = replica(base);
    const b = replica(base);
    applyJourneyToDoc(a, removeStep(journeyFromDoc(a), 'a'));
    applyJourneyToDoc(b, connect(journeyFromDoc(b), 'b', null, 'a'));
    sync(a, b);
    const merged = journeyFromDoc(a);
    expect(journeyInvariantIssues(merged).map((i) => `${i.stepId}:${i.code}`)).toContain('b:dangling_next');
    applyJourneyToDoc(a, normalizeJourney(journeyFromDoc(a)));
    applyJourneyToDoc(b, normalizeJourney(journeyFromDoc(b)));
    sync(a, b);
    const repaired = journeyFromDoc(a);
    expect(repaired).toEqual(journeyFromDoc(b));
    expect(journeyInvariantIssues(repaired)).toEqual([]);
    expect(normalizeJourney(repaired)).toEqual(repaired);
  });

  it('removes layout entries of removed steps', () => {
    const j = fullJourney();
    const doc = docWith(j);
    writeLayoutPosition(doc, 'push', { x: 10, y: 20 });
    writeLayoutPosition(doc, 'email', { x: 1, y: 2 });
    applyJourneyToDoc(doc, removeStep(j, 'email'));
    expect(readLayout(doc)).toEqual({ push: { x: 10, y: 20 } });
  });

  it('reads leniently: unknown types are dropped, broken fields fall back to defaults', () => {
    const doc = docWith(fullJourney());
    doc.transact(() => {
      const bogus = new Y.Map<unknown>();
      doc.getMap('steps').set('bogus', bogus);
      bogus.set('type', 'flowTeleport');
      const w = doc.getMap('steps').get('w') as Y.Map<unknown>;
      w.set('duration', 'soon');
      w.delete('next');
    });
    const j = journeyFromDoc(doc);
    expect(byId(j, 'bogus')).toBeUndefined();
    expect(byId(j, 'w')).toEqual({ id: 'w', type: 'flowWait', next: null, duration: 86_400 });
  });
});

describe('initJourneyDoc and layout', () => {
  it('creates meta and an events source with an end, once', () => {
    const doc = new Y.Doc();
    expect(initJourneyDoc(doc, NAME)).toBe(true);
    expect(doc.getMap('meta').toJSON()).toEqual({ schemaVersion: 1, kind: 'journey', entryId: 'source' });
    expect(journeyFromDoc(doc)).toEqual(sortSteps(initialJourney()));
    expect(initialJourney().steps.map((s) => s.type)).toEqual(['sourceEvents', 'end']);
    expect(updatesOf(doc, () => initJourneyDoc(doc, NAME))).toEqual([]);
    expect(() => initJourneyDoc(new Y.Doc(), NAME.replace('/journey/', '/segment/'))).toThrow();
  });

  it('writes a position only when it changed', () => {
    const doc = new Y.Doc();
    initJourneyDoc(doc, NAME);
    expect(writeLayoutPosition(doc, 'source', { x: 1, y: 2 })).toBe(true);
    expect(updatesOf(doc, () => expect(writeLayoutPosition(doc, 'source', { x: 1, y: 2 })).toBe(false))).toEqual([]);
    doc.getMap('layout').set('junk', 'x');
    expect(readLayout(doc)).toEqual({ source: { x: 1, y: 2 } });
  });
});
