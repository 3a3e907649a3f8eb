import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DEFAULT_JOURNEY_SETTINGS, type JourneySettings } from '../journey/settings.ts';
import { fullJourney, sampleSegment } from '../journey/testing.ts';
import { applyJourneyToDoc, journeyFromDoc, readJourneySettings, writeJourneySettings } from './journeyDoc.ts';
import { checkUpdateShape } from './updateShape.ts';

const own: JourneySettings = {
  reentry: { mode: 'afterPeriod', periodSeconds: 3600 },
  entryKey: 'orderId',
  exit: { eventIds: ['unsubscribe'], segment: sampleSegment(true) },
  goal: { eventId: 'purchase', windowSeconds: 86_400 },
};

function docWith(j = fullJourney()) {
  const doc = new Y.Doc();
  applyJourneyToDoc(doc, j);
  return doc;
}

describe('journey settings in the document', () => {
  it('a document without settings reads as a journey without them (as before settings existed)', () => {
    const doc = docWith();
    expect(journeyFromDoc(doc)).not.toHaveProperty('settings');
    expect(readJourneySettings(doc)).toBeUndefined();
  });

  it('written settings read back; applyJourneyToDoc writes a journey\'s settings and leaves them when it has none', () => {
    const doc = docWith();
    writeJourneySettings(doc, own);
    expect(journeyFromDoc(doc).settings).toEqual(own);
    applyJourneyToDoc(doc, fullJourney());
    expect(journeyFromDoc(doc).settings).toEqual(own);
    const changed = { ...own, entryKey: null };
    applyJourneyToDoc(doc, { ...fullJourney(), settings: changed });
    expect(journeyFromDoc(doc).settings).toEqual(changed);
  });

  it('writes only the groups that changed, and the sync server accepts the update', () => {
    const doc = docWith();
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    writeJourneySettings(doc, own);
    expect(updates).toHaveLength(1);
    expect(checkUpdateShape(updates[0]!, 'journey')).toBeNull();
    const map = doc.getMap('settings');
    const before = map.get('exit');
    writeJourneySettings(doc, { ...own, goal: { eventId: 'purchase', windowSeconds: 60 } });
    expect(map.get('exit')).toBe(before);
    writeJourneySettings(doc, { ...own, goal: { eventId: 'purchase', windowSeconds: 60 } });
    expect(updates).toHaveLength(2);
  });

  it('concurrent edits of different groups merge; a malformed group reads as its default', () => {
    const a = docWith();
    writeJourneySettings(a, DEFAULT_JOURNEY_SETTINGS);
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    writeJourneySettings(a, { ...DEFAULT_JOURNEY_SETTINGS, entryKey: 'orderId' });
    writeJourneySettings(b, { ...DEFAULT_JOURNEY_SETTINGS, goal: { eventId: 'purchase', windowSeconds: 60 } });
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    expect(journeyFromDoc(a).settings).toEqual({ ...DEFAULT_JOURNEY_SETTINGS, entryKey: 'orderId', goal: { eventId: 'purchase', windowSeconds: 60 } });

    a.getMap('settings').set('reentry', { mode: 'sometimes', periodSeconds: -1 });
    expect(journeyFromDoc(a).settings).toEqual({ ...DEFAULT_JOURNEY_SETTINGS, entryKey: 'orderId', goal: { eventId: 'purchase', windowSeconds: 60 } });
  });
});
