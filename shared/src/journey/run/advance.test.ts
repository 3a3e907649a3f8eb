import { describe, expect, it } from 'vitest';
import type { JourneyPath } from '../model.ts';
import { journey, linked, mk } from '../testing.ts';
import { MAX_PASSAGES_PER_ADVANCE, advance, startEntry } from './advance.ts';
import { DAY, HOUR, T0, fixedFacts, type FixedFacts } from './testing.ts';
import type { EntryState } from './types.ts';

const noDraw = () => {
  throw new Error('no draw expected');
};
const path = (id: string, next: string | null, extra: Partial<JourneyPath> = {}): JourneyPath => ({ id, name: '', next, ...extra });
const end = (id: string) => mk('end', id);
/** The state of someone who arrived at `stepId` at `arrivedAt`. */
const at = (stepId: string, arrivedAt: number, extra: Partial<EntryState> = {}): EntryState => ({ ...startEntry(stepId, T0), stepId, arrivedAt, ...extra });
const pushSent = (at: number) => ({ stepId: 'push', channel: 'push' as const, at });

describe('sources, join, end', () => {
  it('a source passes at once to its next, a join passes, an end closes the entry', () => {
    const j = journey('s', linked('sourceEvents', 's', 'join', { eventIds: ['e'] }), linked('flowJoin', 'join', 'x'), end('x'));
    const r = advance(j, startEntry('s', T0), T0, fixedFacts(), noDraw);
    expect(r.passed).toEqual([
      { stepId: 's', pathId: null, at: T0, reason: 'entered' },
      { stepId: 'join', pathId: null, at: T0, reason: 'passed' },
      { stepId: 'x', pathId: null, at: T0, reason: 'end' },
    ]);
    expect(r.next).toEqual({ kind: 'end', reason: 'end' });
    expect(r.state).toEqual({ stepId: 'x', arrivedAt: T0, enteredAt: T0, since: T0, lastMessage: null });
    expect(r.effects).toEqual([]);
  });

  it('an audience source passes like an events source', () => {
    const j = journey('a', linked('sourceAudience', 'a', 'x', { audienceId: 'aud' }), end('x'));
    expect(advance(j, startEntry('a', T0), T0, fixedFacts(), noDraw).passed.map((p) => p.reason)).toEqual(['entered', 'end']);
  });
});

describe('flowWait', () => {
  const j = journey('s', linked('sourceEvents', 's', 'w'), linked('flowWait', 'w', 'x', { duration: 2 * 3600 }), end('x'));

  it('holds until arrival + duration, then passes and starts the event window at its arrival', () => {
    const first = advance(j, startEntry('s', T0), T0, fixedFacts(), noDraw);
    expect(first.next).toEqual({ kind: 'wake', at: T0 + 2 * HOUR, waitingFor: null });
    expect(first.state).toMatchObject({ stepId: 'w', arrivedAt: T0, since: T0 });
    // Early: nothing moves.
    const early = advance(j, first.state, T0 + 2 * HOUR - 1, fixedFacts(), noDraw);
    expect(early).toEqual({ state: first.state, passed: [], effects: [], next: { kind: 'wake', at: T0 + 2 * HOUR, waitingFor: null } });
    // Woken late (the worker lagged): the passage is at the wake's now.
    const due = advance(j, at('w', T0 + HOUR), T0 + 3 * HOUR + 5, fixedFacts(), noDraw);
    expect(due.passed[0]).toEqual({ stepId: 'w', pathId: null, at: T0 + 3 * HOUR + 5, reason: 'wait_elapsed' });
    expect(due.state).toMatchObject({ stepId: 'x', arrivedAt: T0 + 3 * HOUR + 5, since: T0 + HOUR });
  });

  it('waits 24 h when it has no duration', () => {
    const open = journey('s', linked('flowWait', 'w', 'x', { duration: null }), end('x'));
    expect(advance(open, at('w', T0), T0, fixedFacts(), noDraw).next).toEqual({ kind: 'wake', at: T0 + DAY, waitingFor: null });
    expect(advance(open, at('w', T0), T0 + DAY, fixedFacts(), noDraw).passed[0]?.reason).toBe('wait_elapsed');
  });
});

describe('flowWaitInteraction', () => {
  const wi = (timeout: number | null) => ({
    ...mk('flowWaitInteraction', 'wi'),
    paths: [path('clicked', 'c', { action: 'click' }), path('seen', 'i', { action: 'impression' }), path('timeout', 't', { duration: timeout })],
  });
  const j = (timeout: number | null = 6 * 3600) => journey('s', wi(timeout), end('c'), end('i'), end('t'));
  const waiting = at('wi', T0 + HOUR, { lastMessage: pushSent(T0) });
  const run = (now: number, f: FixedFacts, state = waiting, timeout: number | null = 6 * 3600) => advance(j(timeout), state, now, fixedFacts(f), noDraw);

  it('listens until the timeout when nothing happened yet', () => {
    expect(run(T0 + 2 * HOUR, {}).next).toEqual({ kind: 'wake', at: T0 + 7 * HOUR, waitingFor: 'interaction' });
  });

  it('the earliest awaited interaction with the last message wins its path, even one made before arriving', () => {
    const r = run(T0 + 3 * HOUR, { interactions: [{ stepId: 'push', kind: 'click', at: T0 + 2 * HOUR }, { stepId: 'push', kind: 'impression', at: T0 + 30 * 60_000 }] });
    expect(r.passed[0]).toEqual({ stepId: 'wi', pathId: 'seen', at: T0 + 3 * HOUR, reason: 'interaction', detail: 'impression' });
    expect(r.state).toMatchObject({ stepId: 'i', since: T0 + HOUR });
  });

  it('on a tie the path listed first wins; interactions with other messages or before the send do not count', () => {
    const tie = run(T0 + 3 * HOUR, { interactions: [{ stepId: 'push', kind: 'impression', at: T0 + 2 * HOUR }, { stepId: 'push', kind: 'click', at: T0 + 2 * HOUR }] });
    expect(tie.passed[0]).toMatchObject({ pathId: 'clicked', detail: 'click' });
    const others = run(T0 + 3 * HOUR, { interactions: [{ stepId: 'email', kind: 'click', at: T0 + 2 * HOUR }, { stepId: 'push', kind: 'click', at: T0 - 1 }] });
    expect(others.next).toEqual({ kind: 'wake', at: T0 + 7 * HOUR, waitingFor: 'interaction' });
  });

  it('takes the timeout path once due; an interaction after the timeout does not count, one at the timeout does', () => {
    const late = run(T0 + 9 * HOUR, { interactions: [{ stepId: 'push', kind: 'click', at: T0 + 8 * HOUR }] });
    expect(late.passed[0]).toEqual({ stepId: 'wi', pathId: 'timeout', at: T0 + 9 * HOUR, reason: 'timeout' });
    expect(late.state).toMatchObject({ stepId: 't', since: T0 + HOUR });
    const atDeadline = run(T0 + 7 * HOUR, { interactions: [{ stepId: 'push', kind: 'click', at: T0 + 7 * HOUR }] });
    expect(atDeadline.passed[0]).toMatchObject({ pathId: 'clicked', reason: 'interaction' });
  });

  it('times out after 24 h without a duration; with no message before it only the timeout moves the person', () => {
    expect(run(T0 + 2 * HOUR, {}, waiting, null).next).toEqual({ kind: 'wake', at: T0 + 25 * HOUR, waitingFor: 'interaction' });
    const alone = at('wi', T0);
    expect(run(T0 + HOUR, { interactions: [{ stepId: 'push', kind: 'click', at: T0 }] }, alone).next).toEqual({ kind: 'wake', at: T0 + 6 * HOUR, waitingFor: null });
    expect(run(T0 + 6 * HOUR, {}, alone).passed[0]).toMatchObject({ pathId: 'timeout', reason: 'timeout' });
  });
});

describe('flowInteraction (decided at arrival)', () => {
  const j = journey('s',
    { ...mk('flowInteraction', 'fi'), paths: [path('clicked', 'c', { action: 'click' }), path('seen', 'i', { action: 'impression' }), path('else', 'o')] },
    end('c'), end('i'), end('o'));
  const state = at('fi', T0 + DAY, { lastMessage: pushSent(T0) });
  const run = (f: FixedFacts, s = state) => advance(j, s, T0 + DAY, fixedFacts(f), noDraw).passed[0];

  it('the first path in path order whose interaction the person did wins, not the earliest interaction', () => {
    expect(run({ interactions: [{ stepId: 'push', kind: 'impression', at: T0 + HOUR }, { stepId: 'push', kind: 'click', at: T0 + 5 * HOUR }] }))
      .toEqual({ stepId: 'fi', pathId: 'clicked', at: T0 + DAY, reason: 'interaction', detail: 'click' });
    expect(run({ interactions: [{ stepId: 'push', kind: 'impression', at: T0 + HOUR }] })).toMatchObject({ pathId: 'seen', detail: 'impression' });
  });

  it('otherwise the last path: no interaction since the send, none with this message, or no message at all', () => {
    expect(run({})).toEqual({ stepId: 'fi', pathId: 'else', at: T0 + DAY, reason: 'otherwise' });
    expect(run({ interactions: [{ stepId: 'push', kind: 'click', at: T0 - HOUR }] })).toMatchObject({ pathId: 'else' });
    expect(run({ interactions: [{ stepId: 'push', kind: 'click', at: T0 + DAY + 1 }] })).toMatchObject({ pathId: 'else' });
    expect(run({ interactions: [{ stepId: 'other', kind: 'click', at: T0 + HOUR }] })).toMatchObject({ pathId: 'else' });
    expect(run({ interactions: [{ stepId: 'push', kind: 'click', at: T0 + HOUR }] }, at('fi', T0 + DAY))).toMatchObject({ pathId: 'else', reason: 'otherwise' });
  });
});

describe('flowEvent (decided at arrival)', () => {
  const j = journey('s',
    { ...mk('flowEvent', 'ev'), paths: [path('buy', 'b', { eventId: 'purchase' }), path('cart', 'c', { eventId: 'cart' }), path('else', 'o')] },
    end('b'), end('c'), end('o'));
  const state = at('ev', T0 + DAY, { since: T0 + HOUR });
  const run = (events: FixedFacts['events']) => advance(j, state, T0 + DAY, fixedFacts({ events }), noDraw).passed[0];

  it('the earliest event of the paths since the last wait began wins', () => {
    expect(run([{ eventId: 'purchase', at: T0 + 5 * HOUR }, { eventId: 'cart', at: T0 + 2 * HOUR }]))
      .toEqual({ stepId: 'ev', pathId: 'cart', at: T0 + DAY, reason: 'event', detail: 'cart' });
  });

  it('on a tie the event listed first wins', () => {
    expect(run([{ eventId: 'cart', at: T0 + 2 * HOUR }, { eventId: 'purchase', at: T0 + 2 * HOUR }])).toMatchObject({ pathId: 'buy', detail: 'purchase' });
  });

  it('otherwise the last path: events before the window, after now, or of other names do not count', () => {
    expect(run([{ eventId: 'purchase', at: T0 }, { eventId: 'cart', at: T0 + DAY + 1 }, { eventId: 'other', at: T0 + 2 * HOUR }]))
      .toEqual({ stepId: 'ev', pathId: 'else', at: T0 + DAY, reason: 'otherwise' });
  });
});

describe('flowRandom', () => {
  const j = (amounts: (number | null)[]) => journey('s',
    { ...mk('flowRandom', 'r'), paths: amounts.map((amount, i) => path(`p${i}`, `x${i}`, { amount })) },
    ...amounts.map((_, i) => end(`x${i}`)));
  const pick = (amounts: (number | null)[], draw: number) => advance(j(amounts), at('r', T0), T0, fixedFacts(), () => draw).passed[0]?.pathId;

  it('picks by the draw over the weights divided by their sum', () => {
    // 0.2 / 0.6 / 0.2 → [0, 0.2) [0.2, 0.8) [0.8, 1)
    expect([0, 0.19, 0.2, 0.79, 0.8, 0.999].map((d) => pick([0.1, 0.3, 0.1], d))).toEqual(['p0', 'p0', 'p1', 'p1', 'p2', 'p2']);
  });

  it('a missing amount counts 0.5, a zero amount is never picked, all zero takes the last path', () => {
    expect([0.3, 0.7].map((d) => pick([null, 0.5], d))).toEqual(['p0', 'p1']);
    expect([0, 0.5, 0.99].map((d) => pick([0, 1, 0], d))).toEqual(['p1', 'p1', 'p1']);
    expect(pick([0, 0], 0.1)).toBe('p1');
  });

  it('asks the draw for its own step', () => {
    const asked: string[] = [];
    advance(j([0.5, 0.5]), at('r', T0), T0, fixedFacts(), (id) => (asked.push(id), 0.1));
    expect(asked).toEqual(['r']);
  });
});

describe('flowSplit', () => {
  const j = journey('s',
    { ...mk('flowSplit', 'sp'), paths: [path('vip', 'v'), path('new', 'n'), path('rest', 'r')] },
    end('v'), end('n'), end('r'));
  const run = (segments: Record<string, boolean>) => advance(j, at('sp', T0), T0, fixedFacts({ segments }), noDraw).passed[0];

  it('the first path whose segment holds the person wins, else the last path', () => {
    expect(run({ 'sp:new': true, 'sp:vip': true })).toEqual({ stepId: 'sp', pathId: 'vip', at: T0, reason: 'segment' });
    expect(run({ 'sp:new': true })).toMatchObject({ pathId: 'new', reason: 'segment' });
    // The last path's segment is never asked: it is the otherwise.
    expect(run({ 'sp:rest': false })).toEqual({ stepId: 'sp', pathId: 'rest', at: T0, reason: 'otherwise' });
  });
});

describe('actions', () => {
  it('a message step sends and becomes the last message; one without message passes with no effect', () => {
    const j = journey('s',
      linked('actionMessageEmail', 'mail', 'inapp', { campaignId: 'c1', messageId: 'm1' }),
      linked('actionMessageInApp', 'inapp', 'push', { campaignId: 'c1', messageId: null }),
      linked('actionMessagePush', 'push', 'x', { campaignId: 'c2', messageId: 'm2' }),
      end('x'));
    const r = advance(j, at('mail', T0), T0 + 5, fixedFacts(), noDraw);
    expect(r.effects).toEqual([
      { kind: 'send', stepId: 'mail', channel: 'email', campaignId: 'c1', messageId: 'm1' },
      { kind: 'send', stepId: 'push', channel: 'push', campaignId: 'c2', messageId: 'm2' },
    ]);
    expect(r.passed.map((p) => [p.stepId, p.reason])).toEqual([['mail', 'sent'], ['inapp', 'message_missing'], ['push', 'sent'], ['x', 'end']]);
    expect(r.state.lastMessage).toEqual({ stepId: 'push', channel: 'push', at: T0 + 5 });
  });

  it('a postback calls unless disabled; a tag update updates its tag, or nothing without one', () => {
    const j = journey('s',
      linked('actionPostback', 'on', 'off', { postbackUrl: 'https://example.com' }),
      linked('actionPostback', 'off', 'tag', { action: 'disable' }),
      linked('updateTagCount', 'tag', 'untagged', { tagId: 't1', amount: -3 }),
      linked('updateTagCount', 'untagged', 'x', { tagId: null }),
      end('x'));
    const r = advance(j, at('on', T0), T0, fixedFacts(), noDraw);
    expect(r.effects).toEqual([{ kind: 'postback', stepId: 'on' }, { kind: 'tag', stepId: 'tag', tagId: 't1', amount: -3 }]);
    expect(r.passed.map((p) => p.reason)).toEqual(['postback', 'postback_disabled', 'tag', 'tag_missing', 'end']);
  });

  it('moves on through several steps in one call and stops at the first that holds', () => {
    const j = journey('s',
      linked('sourceEvents', 's', 'push', { eventIds: ['e'] }),
      linked('actionMessagePush', 'push', 'w', { campaignId: 'c', messageId: 'm' }),
      linked('flowWait', 'w', 'x', { duration: 60 }),
      end('x'));
    const r = advance(j, startEntry('s', T0), T0 + 7, fixedFacts(), noDraw);
    expect(r.passed.map((p) => p.stepId)).toEqual(['s', 'push']);
    expect(r.state).toEqual({ stepId: 'w', arrivedAt: T0 + 7, enteredAt: T0, since: T0, lastMessage: { stepId: 'push', channel: 'push', at: T0 + 7 } });
    expect(r.next).toEqual({ kind: 'wake', at: T0 + 7 + 60_000, waitingFor: null });
  });
});

describe('links to nowhere and loops', () => {
  it('a null next, an unknown step and a state on a missing step end the entry as dangling', () => {
    const open = advance(journey('s', linked('flowJoin', 'j', null)), at('j', T0), T0, fixedFacts(), noDraw);
    expect(open).toMatchObject({ passed: [{ stepId: 'j', reason: 'passed' }], next: { kind: 'end', reason: 'dangling' }, state: { stepId: 'j' } });
    const unknown = advance(journey('s', linked('flowJoin', 'j', 'gone')), at('j', T0), T0, fixedFacts(), noDraw);
    expect(unknown.next).toEqual({ kind: 'end', reason: 'dangling' });
    const missing = advance(journey('s', end('x')), at('removed', T0), T0, fixedFacts(), noDraw);
    expect(missing).toEqual({ state: at('removed', T0), passed: [], effects: [], next: { kind: 'end', reason: 'dangling' } });
    const noPaths = advance(journey('s', { ...mk('flowSplit', 'sp'), paths: [] }), at('sp', T0), T0, fixedFacts(), noDraw);
    expect(noPaths).toMatchObject({ passed: [{ stepId: 'sp', pathId: null, reason: 'otherwise' }], next: { kind: 'end', reason: 'dangling' } });
  });

  it('a cycle without waits stops after MAX_PASSAGES_PER_ADVANCE passages', () => {
    const j = journey('a', linked('flowJoin', 'a', 'b'), linked('flowJoin', 'b', 'a'));
    const r = advance(j, at('a', T0), T0, fixedFacts(), noDraw);
    expect(r.next).toEqual({ kind: 'end', reason: 'loop' });
    expect(r.passed).toHaveLength(MAX_PASSAGES_PER_ADVANCE);
  });
});
