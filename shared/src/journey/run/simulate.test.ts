import { describe, expect, it } from 'vitest';
import { STEP_TYPES, type Journey, type JourneyPath } from '../model.ts';
import { normalizeJourney } from '../normalize.ts';
import { DEFAULT_JOURNEY_SETTINGS } from '../settings.ts';
import { journey, linked, mk, sampleSegment } from '../testing.ts';
import { validateJourneyGraph } from '../validate.ts';
import { advance, startEntry } from './advance.ts';
import { simulate, type SimulatedBehaviour, type SimulationEntry } from './simulate.ts';
import { DAY, HOUR, T0, fixedFacts } from './testing.ts';

const path = (id: string, next: string | null, extra: Partial<JourneyPath> = {}): JourneyPath => ({ id, name: '', next, ...extra });
const H = 3600;
const D = 86_400;

/** Every step type (the audience source is a second entry, unreachable from the first), already normal. */
function everyStep(): Journey {
  return journey('s',
    linked('sourceEvents', 's', 'push', { eventIds: ['signup'] }),
    linked('sourceAudience', 'aud', 'push', { audienceId: 'a1' }),
    linked('actionMessagePush', 'push', 'wi', { campaignId: 'c1', messageId: 'm1' }),
    { ...mk('flowWaitInteraction', 'wi'), paths: [path('a', 'tag', { action: 'click' }), path('b', 'email', { duration: 2 * D })] },
    linked('updateTagCount', 'tag', 'w1', { tagId: 't1' }),
    linked('flowWait', 'w1', 'ev', { duration: D }),
    { ...mk('flowEvent', 'ev'), paths: [path('a', 'split', { eventId: 'purchase' }), path('b', 'split')] },
    { ...mk('flowSplit', 'split'), paths: [path('a', 'rnd', { segment: sampleSegment(true) }), path('b', 'join')] },
    { ...mk('flowRandom', 'rnd'), paths: [path('a', 'join', { amount: 0.7 }), path('b', 'join', { amount: 0.3 })] },
    linked('flowJoin', 'join', 'pb'),
    linked('actionPostback', 'pb', 'inapp', { postbackUrl: 'https://example.com/hook' }),
    linked('actionMessageInApp', 'inapp', 'w2', { campaignId: 'c1', messageId: 'm2' }),
    linked('flowWait', 'w2', 'int', { duration: 3 * D }),
    { ...mk('flowInteraction', 'int'), paths: [path('a', 'email', { action: 'open' }), path('b', 'off')] },
    linked('actionMessageEmail', 'email', 'end1', { campaignId: 'c1', messageId: 'm3' }),
    linked('actionPostback', 'off', 'end2', { action: 'disable' }),
    mk('end', 'end1'),
    mk('end', 'end2'),
  );
}

const none: SimulatedBehaviour = { events: [], interactions: [], segments: {} };
const MONTH = { startAt: T0, horizonSeconds: 30 * D };
/** A timeline entry, compactly: offset in seconds, step, path, reason and detail. */
const row = (e: SimulationEntry) => [e.offsetSeconds, e.stepId, e.pathId, e.reason, e.detail ?? null];

describe('simulate', () => {
  it('the journey of every step type is already normal and passes the graph checks but for its second entry', () => {
    const j = everyStep();
    expect(new Set(j.steps.map((s) => s.type))).toEqual(new Set(STEP_TYPES));
    expect(normalizeJourney(j)).toBe(j);
    expect(validateJourneyGraph(j).map((v) => [v.stepId, v.code])).toEqual([['aud', 'entry_multiple']]);
  });

  it('runs a person who clicks, buys, is in the segment and opens through every step type in a month', () => {
    const behaviour: SimulatedBehaviour = {
      events: [{ eventId: 'purchase', atSeconds: 5 * H }, { eventId: 'purchase', atSeconds: 40 * D }],
      interactions: [{ kind: 'click', afterSeconds: H }, { kind: 'open', afterSeconds: 2 * H }],
      segments: { 'split:a': true },
    };
    const r = simulate(everyStep(), behaviour, { ...MONTH, draw: () => 0.5 });
    const t1 = H; // the click wakes the person
    const t2 = t1 + D; // after w1
    const t3 = t2 + 3 * D; // after w2
    expect(r.timeline).toEqual([
      { at: T0, offsetSeconds: 0, stepId: 's', stepType: 'sourceEvents', pathId: null, reason: 'entered' },
      { at: T0, offsetSeconds: 0, stepId: 'push', stepType: 'actionMessagePush', pathId: null, reason: 'sent', message: { channel: 'push', campaignId: 'c1', messageId: 'm1' } },
      { at: T0 + HOUR, offsetSeconds: t1, stepId: 'wi', stepType: 'flowWaitInteraction', pathId: 'a', reason: 'interaction', detail: 'click' },
      { at: T0 + HOUR, offsetSeconds: t1, stepId: 'tag', stepType: 'updateTagCount', pathId: null, reason: 'tag' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'w1', stepType: 'flowWait', pathId: null, reason: 'wait_elapsed' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'ev', stepType: 'flowEvent', pathId: 'a', reason: 'event', detail: 'purchase' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'split', stepType: 'flowSplit', pathId: 'a', reason: 'segment' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'rnd', stepType: 'flowRandom', pathId: 'a', reason: 'random' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'join', stepType: 'flowJoin', pathId: null, reason: 'passed' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'pb', stepType: 'actionPostback', pathId: null, reason: 'postback' },
      { at: T0 + t2 * 1000, offsetSeconds: t2, stepId: 'inapp', stepType: 'actionMessageInApp', pathId: null, reason: 'sent', message: { channel: 'inApp', campaignId: 'c1', messageId: 'm2' } },
      { at: T0 + t3 * 1000, offsetSeconds: t3, stepId: 'w2', stepType: 'flowWait', pathId: null, reason: 'wait_elapsed' },
      { at: T0 + t3 * 1000, offsetSeconds: t3, stepId: 'int', stepType: 'flowInteraction', pathId: 'a', reason: 'interaction', detail: 'open' },
      { at: T0 + t3 * 1000, offsetSeconds: t3, stepId: 'email', stepType: 'actionMessageEmail', pathId: null, reason: 'sent', message: { channel: 'email', campaignId: 'c1', messageId: 'm3' } },
      { at: T0 + t3 * 1000, offsetSeconds: t3, stepId: 'end1', stepType: 'end', pathId: null, reason: 'end' },
    ]);
    expect(r).toMatchObject({ ended: 'end', endedAt: T0 + t3 * 1000, truncated: false, converted: null, state: { stepId: 'end1' } });
  });

  it('a person who does nothing times out, misses the event and the segment, and the draw decides', () => {
    const r = simulate(everyStep(), none, { ...MONTH, draw: () => 0.9 });
    expect(r.timeline.map(row)).toEqual([
      [0, 's', null, 'entered', null],
      [0, 'push', null, 'sent', null],
      [2 * D, 'wi', 'b', 'timeout', null],
      [2 * D, 'email', null, 'sent', null],
      [2 * D, 'end1', null, 'end', null],
    ]);
    expect(r.ended).toBe('end');
  });

  it('the audience entry runs the same way; interactions can be given for one message step only', () => {
    const j = { ...everyStep(), entryId: 'aud' };
    const behaviour: SimulatedBehaviour = { events: [], interactions: [{ kind: 'click', afterSeconds: 10, stepId: 'push' }, { kind: 'open', afterSeconds: 10, stepId: 'email' }], segments: {} };
    const r = simulate(j, behaviour, { ...MONTH, draw: () => 0.9 });
    expect(r.timeline.map(row)).toEqual([
      [0, 'aud', null, 'entered', null],
      [0, 'push', null, 'sent', null],
      [10, 'wi', 'a', 'interaction', 'click'],
      [10, 'tag', null, 'tag', null],
      [10 + D, 'w1', null, 'wait_elapsed', null],
      [10 + D, 'ev', 'b', 'otherwise', null],
      [10 + D, 'split', 'b', 'otherwise', null],
      [10 + D, 'join', null, 'passed', null],
      [10 + D, 'pb', null, 'postback', null],
      [10 + D, 'inapp', null, 'sent', null],
      [10 + 4 * D, 'w2', null, 'wait_elapsed', null],
      [10 + 4 * D, 'int', 'b', 'otherwise', null],
      [10 + 4 * D, 'off', null, 'postback_disabled', null],
      [10 + 4 * D, 'end2', null, 'end', null],
    ]);
  });

  it('stops at the horizon while the person still waits, and can start at a given step', () => {
    const r = simulate(everyStep(), none, { startAt: T0, horizonSeconds: D });
    expect(r).toMatchObject({ ended: null, endedAt: null, truncated: true, state: { stepId: 'wi', arrivedAt: T0 } });
    expect(r.timeline.map((e) => e.stepId)).toEqual(['s', 'push']);
    const fromW2 = simulate(everyStep(), none, { ...MONTH, startStepId: 'w2' });
    expect(fromW2.timeline.map(row)).toEqual([[3 * D, 'w2', null, 'wait_elapsed', null], [3 * D, 'int', 'b', 'otherwise', null], [3 * D, 'off', null, 'postback_disabled', null], [3 * D, 'end2', null, 'end', null]]);
  });

  it('an exit event takes the person out while they wait; the goal event within its window converts', () => {
    const j: Journey = {
      ...everyStep(),
      settings: { ...DEFAULT_JOURNEY_SETTINGS, exit: { eventIds: ['unsubscribe'], segment: null }, goal: { eventId: 'purchase', windowSeconds: D } },
    };
    const behaviour: SimulatedBehaviour = { events: [{ eventId: 'purchase', atSeconds: 5 * H }, { eventId: 'unsubscribe', atSeconds: 10 * H }], interactions: [{ kind: 'click', afterSeconds: H }], segments: {} };
    const r = simulate(j, behaviour, { ...MONTH, draw: () => 0.5 });
    expect(r).toMatchObject({ ended: 'exit', endedAt: T0 + 10 * HOUR, truncated: false, converted: { eventId: 'purchase', at: T0 + 5 * HOUR }, state: { stepId: 'w1' } });
    expect(r.timeline.map((e) => e.stepId)).toEqual(['s', 'push', 'wi', 'tag']);
    const late = simulate({ ...j, settings: { ...j.settings!, goal: { eventId: 'purchase', windowSeconds: 4 * H } } }, behaviour, MONTH);
    expect(late.converted).toBeNull();
  });

  it('a journey without entry answers no_entry', () => {
    expect(simulate({ entryId: null, steps: [] }, none, MONTH)).toMatchObject({ timeline: [], ended: 'no_entry', truncated: false });
  });
});

describe('flowSplit is decided at arrival', () => {
  it('people reaching the split at different times take the path their segment gave then, and never move again', () => {
    const j = journey('s',
      linked('sourceEvents', 's', 'w', { eventIds: ['e'] }),
      linked('flowWait', 'w', 'split', { duration: H }),
      { ...mk('flowSplit', 'split'), paths: [path('in', 'wIn', { segment: sampleSegment(true) }), path('out', 'wOut')] },
      linked('flowWait', 'wIn', 'endIn', { duration: D }),
      linked('flowWait', 'wOut', 'endOut', { duration: D }),
      mk('end', 'endIn'), mk('end', 'endOut'));
    const draw = () => 0;
    // The segment holds nobody at first, then everybody.
    let member = false;
    const facts = { ...fixedFacts(), inSegment: () => member };

    const first = advance(j, startEntry('s', T0), T0, facts, draw);
    const firstAtSplit = advance(j, first.state, T0 + HOUR, facts, draw);
    expect(firstAtSplit.passed.map((p) => [p.stepId, p.pathId])).toEqual([['w', null], ['split', 'out']]);
    expect(firstAtSplit.state.stepId).toBe('wOut');

    member = true;
    const secondAtSplit = advance(j, startEntry('w', T0 + 2 * HOUR), T0 + 3 * HOUR, facts, draw);
    expect(secondAtSplit.passed.map((p) => [p.stepId, p.pathId])).toEqual([['w', null], ['split', 'in']]);
    expect(secondAtSplit.state.stepId).toBe('wIn');

    // The first person stays on the path decided at their arrival.
    const firstDone = advance(j, firstAtSplit.state, T0 + HOUR + DAY, facts, draw);
    expect(firstDone.passed.map((p) => p.stepId)).toEqual(['wOut', 'endOut']);
  });
});
