import { describe, expect, it } from 'vitest';
import { addStepAfter, removeStep, updateStep } from './edit.ts';
import { canonicalJson } from './json.ts';
import { normalizeJourney } from './normalize.ts';
import { diffIsEmpty, diffJourneys, journeyFingerprint } from './review.ts';
import { byId, journey, linked } from './testing.ts';

const base = normalizeJourney(journey('s', linked('sourceEvents', 's', 'w', { eventIds: ['e1'] }), linked('flowWait', 'w', 't', { duration: 3600 }), linked('updateTagCount', 't', null, { tagId: 'tag' })));
const ids = (steps: { id: string }[]) => steps.map((s) => s.id);

describe('diffJourneys', () => {
  it('a first launch lists every step a person made as added, never the automatic ones', () => {
    const d = diffJourneys(null, base);
    expect(ids(d.added).sort()).toEqual(['s', 't', 'w']);
    expect(d.removed).toEqual([]);
    expect(base.steps.some((s) => s.auto)).toBe(true);
  });

  it('the same journey is no change', () => {
    expect(diffIsEmpty(diffJourneys(base, structuredClone(base)))).toBe(true);
  });

  it('an insertion is the new step, not its neighbour changed', () => {
    const d = diffJourneys(base, addStepAfter(base, 'w', null, 'actionPostback', 'p'));
    expect(ids(d.added)).toEqual(['p']);
    expect(d.changed).toEqual([]);
    expect(d.relinked).toBe(false);
  });

  it('a removal, and a changed setting with the fields that changed', () => {
    const w = byId(base, 'w');
    if (!w || w.type !== 'flowWait') throw new Error('w');
    const after = updateStep(removeStep(base, 't'), { ...w, duration: 7200, name: 'Two hours' });
    const d = diffJourneys(base, after);
    expect(ids(d.removed)).toEqual(['t']);
    expect(d.changed.map((c) => [c.step.id, c.fields])).toEqual([['w', ['duration', 'name']]]);
  });

  it('only reconnected links show as relinked', () => {
    const t = byId(base, 't');
    const s = byId(base, 's');
    if (!t || !s || t.type !== 'updateTagCount' || s.type !== 'sourceEvents') throw new Error('steps');
    // The entry goes straight to the tag step; the wait stays, unreachable.
    const d = diffJourneys(base, updateStep(base, { ...s, next: 't' }));
    expect([d.added, d.removed, d.changed, d.relinked]).toEqual([[], [], [], true]);
  });
});

describe('journeyFingerprint', () => {
  it('is the same for the same journey whatever the key order, and differs for any change', async () => {
    const reordered = { steps: base.steps.map((s) => Object.fromEntries(Object.entries(s).reverse())), entryId: base.entryId } as typeof base;
    expect(canonicalJson(reordered)).toBe(canonicalJson(base));
    expect(await journeyFingerprint(reordered)).toBe(await journeyFingerprint(base));
    expect(await journeyFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(await journeyFingerprint(addStepAfter(base, 'w', null, 'actionPostback', 'p'))).not.toBe(await journeyFingerprint(base));
  });
});
