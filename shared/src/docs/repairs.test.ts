import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createConditionNode, createSegment } from '../segment/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { applyJourneyToDoc, initialJourney } from './journeyDoc.ts';
import { journeyRepair, normalSegmentOf, segmentRepair } from './repairs.ts';
import { applySegmentToDoc } from './segmentDoc.ts';

describe('repairs', () => {
  it('repairs a journey the rules change, never a normal or an empty one', () => {
    const doc = new Y.Doc();
    expect(journeyRepair(doc)).toBeNull();
    applyJourneyToDoc(doc, normalizeJourney(initialJourney()));
    expect(journeyRepair(doc)).toBeNull();
    // A concurrent change left the entry pointing at a step that is gone.
    (doc.getMap('steps').get('source') as Y.Map<unknown>).set('next', 'gone');
    const repaired = journeyRepair(doc);
    expect(repaired?.steps.find((s) => s.id === 'source')).not.toMatchObject({ next: 'gone' });
    applyJourneyToDoc(doc, repaired ?? initialJourney());
    expect(journeyRepair(doc)).toBeNull();
  });

  it('repairs a segment with content the rules change (a child listed that does not exist)', () => {
    const doc = new Y.Doc();
    applySegmentToDoc(doc, createSegment('root'));
    expect(segmentRepair(doc)).toBeNull(); // no content yet: never seeded by a client
    doc.getMap('meta').set('kind', 'segment');
    expect(segmentRepair(doc)).toBeNull();
    applySegmentToDoc(doc, { rootKey: 'root', nodes: [{ key: 'root', kind: 'group', combinator: 'and', children: ['c', 'missing'] }, createConditionNode('c')] });
    expect(normalSegmentOf(doc).normal).toBe(false);
    expect(segmentRepair(doc)?.nodes.find((n) => n.key === 'root')).toMatchObject({ children: ['c'] });
  });
});
