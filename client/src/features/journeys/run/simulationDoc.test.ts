import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { journeyFromDoc } from '@gd/shared/docs/journeyDoc';
import { checkUpdateShape } from '@gd/shared/docs/updateShape';
import { MAX_STORED_SIMULATION_CHARS, readSimulation, writeSimulation, type StoredSimulation } from './simulationDoc.ts';

const stored: StoredSimulation = {
  request: { source: 'draft', behaviour: { events: [{ eventId: 'purchase', atSeconds: 3_600 }], interactions: [], segments: {} } },
  answer: {
    source: 'draft', version: null, startAt: '2026-01-01T00:00:00.000Z', horizonAt: '2026-04-01T00:00:00.000Z',
    timeline: [{ at: '2026-01-01T00:00:00.000Z', offsetSeconds: 0, stepId: 's', stepType: 'sourceEvents', pathId: null, reason: 'entered' }],
    ended: 'end', endedAt: '2026-01-01T00:00:00.000Z', truncated: false, stepId: 'end', converted: null, segments: {}, segmentProblems: [],
  },
  by: { userId: '7', name: 'Marta' },
  at: '2026-01-01T10:00:00.000Z',
};

describe('the shared simulation in the journey document', () => {
  it('reads back what was written, and reaches another copy of the document', () => {
    const doc = new Y.Doc();
    expect(readSimulation(doc)).toBeNull();
    expect(writeSimulation(doc, stored)).toBe(true);
    expect(readSimulation(doc)).toEqual(stored);
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    expect(readSimulation(other)).toEqual(stored);
  });

  it('is no part of the journey, and the sync server accepts its update', () => {
    const doc = new Y.Doc();
    doc.getMap('meta').set('entryId', null);
    const before = journeyFromDoc(doc);
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    writeSimulation(doc, stored);
    expect(journeyFromDoc(doc)).toEqual(before);
    expect(updates.map((u) => checkUpdateShape(u, 'journey'))).toEqual([null]);
  });

  it('keeps a simulation too large to share off the document, and reads a malformed one as none', () => {
    const doc = new Y.Doc();
    const huge = { ...stored, answer: { ...stored.answer, segmentProblems: ['x'.repeat(MAX_STORED_SIMULATION_CHARS)] } };
    expect(writeSimulation(doc, huge)).toBe(false);
    expect(readSimulation(doc)).toBeNull();
    doc.getMap('simulation').set('request', { source: 'nonsense' });
    expect(readSimulation(doc)).toBeNull();
  });
});
