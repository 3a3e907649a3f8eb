import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journeyInvariantIssues } from './invariants.ts';
import { DEFAULT_WAIT_SECONDS, type JourneyStep } from './model.ts';
import { allowedInteractions, normalizeJourney } from './normalize.ts';
import { byId, journey, linked, mk, target } from './testing.ts';

const src = (next: string | null = null) => linked('sourceEvents', 's', next, { eventIds: ['e1'] });
const wait = (id: string, next: string | null, duration: number | null = 3600, auto?: boolean) =>
  linked('flowWait', id, next, auto ? { duration, auto } : { duration });
const end = (id: string) => mk('end', id);

describe('open ends', () => {
  it('closes a null next with an automatic end', () => {
    const n = normalizeJourney(journey('s', src()));
    expect(target(n, 's')).toBe('auto-end-s');
    expect(byId(n, 'auto-end-s')).toEqual({ id: 'auto-end-s', type: 'end', auto: true });
  });

  it('closes every open path of a branching step with its own end', () => {
    const n = normalizeJourney(journey('s', src('r'), linked('flowRandom', 'r', [null, null])));
    expect(target(n, 'r', 0)).toBe('auto-end-r-p1');
    expect(target(n, 'r', 1)).toBe('auto-end-r-p2');
  });

  it('treats a link to a missing step as open', () => {
    const n = normalizeJourney(journey('s', src('ghost')));
    expect(target(n, 's')).toBe('auto-end-s');
  });

  it('cuts a link into a source (sources have no predecessors)', () => {
    const n = normalizeJourney(journey('s', src('p'), linked('actionMessagePush', 'p', 's')));
    expect(target(n, 'p')).toBe('auto-end-p');
  });

  it('gives a branching step without paths one path', () => {
    const n = normalizeJourney(journey('s', src('r'), { ...mk('flowRandom', 'r'), paths: [] }));
    const r = byId(n, 'r');
    expect(r && 'paths' in r ? r.paths.length : 0).toBe(1);
  });

  it('reuses a free end of the derived id instead of adding another', () => {
    const n = normalizeJourney(journey('s', src(null), end('auto-end-s')));
    expect(n.steps.filter((s) => s.type === 'end')).toHaveLength(1);
    expect(target(n, 's')).toBe('auto-end-s');
  });

  it('picks a fresh id when the derived one is taken by another step', () => {
    const n = normalizeJourney(journey('s', src('auto-end-s'), linked('actionMessagePush', 'auto-end-s', null)));
    expect(target(n, 'auto-end-s')).toBe('auto-end-auto-end-s');
    const sNext = normalizeJourney(journey('s', src(null), linked('actionMessagePush', 'auto-end-s', 'x'), linked('flowJoin', 'x', 'auto-end-s')));
    expect(target(sNext, 's')).toBe('auto-end-s-2');
  });
});

describe('entry', () => {
  it('points at the first source when null or not a source', () => {
    expect(normalizeJourney(journey(null, src())).entryId).toBe('s');
    expect(normalizeJourney(journey('e', src(), end('e'))).entryId).toBe('s');
    expect(normalizeJourney(journey('e', end('e'))).entryId).toBeNull();
  });
});

describe('consecutive waits', () => {
  it('merge two user waits with durations summed', () => {
    const n = normalizeJourney(journey('s', src('a'), wait('a', 'b', 3600), wait('b', null, 7200)));
    expect(byId(n, 'a')).toMatchObject({ duration: 10_800, next: 'auto-end-a' });
    expect(byId(n, 'b')).toBeUndefined();
  });

  it('merge a chain of three', () => {
    const n = normalizeJourney(journey('s', src('a'), wait('a', 'b', 60), wait('b', 'c', 60), wait('c', null, 60)));
    expect(n.steps.filter((s) => s.type === 'flowWait')).toEqual([expect.objectContaining({ id: 'a', duration: 180 })]);
  });

  it('keep the second wait for its other predecessors', () => {
    const n = normalizeJourney(
      journey('s', src('r'), linked('flowRandom', 'r', ['a', 'b']), wait('a', 'b', 60), wait('b', 'p', 120), linked('actionMessagePush', 'p', null)),
    );
    expect(byId(n, 'a')).toMatchObject({ duration: 180, next: 'p' });
    expect(byId(n, 'b')).toMatchObject({ duration: 120, next: 'p' });
    expect(target(n, 'r', 1)).toBe('b');
  });

  it('count a missing duration as nothing', () => {
    const n = normalizeJourney(journey('s', src('a'), wait('a', 'b', null), wait('b', null, 60)));
    expect(byId(n, 'a')).toMatchObject({ duration: 60 });
  });

  it('dissolve an automatic wait next to a user wait without adding its duration', () => {
    const before = normalizeJourney(journey('s', src('u'), wait('u', 'w', 3600), wait('w', 'e', DEFAULT_WAIT_SECONDS, true), linked('flowEvent', 'e', [null, null])));
    expect(byId(before, 'u')).toMatchObject({ duration: 3600, next: 'e' });
    expect(byId(before, 'w')).toBeUndefined();
    const after = normalizeJourney(journey('s', src('w'), wait('w', 'u', DEFAULT_WAIT_SECONDS, true), wait('u', null, 3600)));
    expect(target(after, 's')).toBe('u');
    expect(byId(after, 'u')).toMatchObject({ duration: 3600 });
    expect(byId(after, 'w')).toBeUndefined();
  });

  it('break a loop of waits', () => {
    const n = normalizeJourney(journey('s', src('a'), wait('a', 'b', 60), wait('b', 'a', 60)));
    expect(journeyInvariantIssues(n)).toEqual([]);
    expect(byId(n, 'a')).toMatchObject({ duration: 120, next: 'auto-end-a' });
  });
});

describe('interaction actions', () => {
  const after = (msg: JourneyStep['type'], actions: (string | null)[]) => {
    const paths = actions.map((action, i) => ({ id: `p${i}`, name: '', next: null, action }));
    return journey(
      's',
      src('m'),
      linked(msg, 'm', 'w'),
      wait('w', 'i'),
      { ...mk('flowInteraction', 'i'), paths } as JourneyStep,
    );
  };
  const actionsOf = (j: ReturnType<typeof normalizeJourney>) => {
    const i = byId(j, 'i');
    return i && 'paths' in i ? i.paths.map((p) => p.action) : [];
  };

  it('keep open after an in-app message and clear the others', () => {
    expect(actionsOf(normalizeJourney(after('actionMessageInApp', ['open', 'click', 'impression', 'dismissed_click'])))).toEqual(['open', null, null, null]);
  });

  it('keep click, impression and dismissed click after push or email, clear open', () => {
    for (const msg of ['actionMessagePush', 'actionMessageEmail'] as const) {
      expect(actionsOf(normalizeJourney(after(msg, ['click', 'impression', 'dismissed_click', 'open'])))).toEqual(['click', 'impression', 'dismissed_click', null]);
    }
  });

  it('clear every action when no message precedes the interaction', () => {
    const j = journey('s', src('w'), wait('w', 'i'), { ...mk('flowInteraction', 'i'), paths: [{ id: 'p', name: '', next: null, action: 'click' }] });
    expect(actionsOf(normalizeJourney(j))).toEqual([null]);
  });

  it('require the action to fit every message that can precede it', () => {
    const j = journey(
      's',
      src('r'),
      linked('flowRandom', 'r', ['a', 'b']),
      linked('actionMessagePush', 'a', 'w'),
      linked('actionMessageEmail', 'b', 'w'),
      wait('w', 'i'),
      { ...mk('flowInteraction', 'i'), paths: [{ id: 'p', name: '', next: null, action: 'click' }] },
    );
    expect(actionsOf(normalizeJourney(j))).toEqual(['click']);
    expect(allowedInteractions(normalizeJourney(j), 'i')).toEqual(['impression', 'click', 'dismissed_click']);
    const mixed = { ...j, steps: j.steps.map((s) => (s.id === 'b' ? linked('actionMessageInApp', 'b', 'w') : s)) };
    expect(actionsOf(normalizeJourney(mixed))).toEqual([null]);
  });

  it('apply to wait-interaction steps too', () => {
    const j = journey('s', src('m'), linked('actionMessagePush', 'm', 'i'), {
      ...mk('flowWaitInteraction', 'i'),
      paths: [{ id: 'p', name: '', next: null, action: 'open' }, { id: 'q', name: '', next: null, duration: 60 }],
    });
    const i = byId(normalizeJourney(j), 'i');
    expect(i && 'paths' in i ? i.paths[0]?.action : 'x').toBeNull();
  });
});

describe('automatic waits', () => {
  it('go before an interaction or event step not preceded by a wait', () => {
    for (const type of ['flowInteraction', 'flowEvent'] as const) {
      const n = normalizeJourney(journey('s', src('m'), linked('actionMessagePush', 'm', 'x'), linked(type, 'x', [null, null])));
      expect(target(n, 'm')).toBe('auto-wait-x');
      expect(byId(n, 'auto-wait-x')).toEqual({ id: 'auto-wait-x', type: 'flowWait', auto: true, next: 'x', duration: DEFAULT_WAIT_SECONDS });
    }
  });

  it('are not added after a wait or a wait-interaction', () => {
    const n = normalizeJourney(journey('s', src('w'), wait('w', 'x'), linked('flowEvent', 'x', [null, null])));
    expect(target(n, 'w')).toBe('x');
    const m = normalizeJourney(
      journey('s', src('m'), linked('actionMessagePush', 'm', 'wi'), linked('flowWaitInteraction', 'wi', ['x', null]), linked('flowEvent', 'x', [null, null])),
    );
    expect(target(m, 'wi', 0)).toBe('x');
  });

  it('go after an in-app message before any step that is not a wait, an end included', () => {
    const n = normalizeJourney(journey('s', src('m'), linked('actionMessageInApp', 'm', 'p'), linked('actionMessagePush', 'p', null)));
    expect(target(n, 'm')).toBe('auto-wait-p');
    const e = normalizeJourney(journey('s', src('m'), linked('actionMessageInApp', 'm', null)));
    expect(target(e, 'm')).toBe('auto-wait-auto-end-m');
    expect(target(e, 'auto-wait-auto-end-m')).toBe('auto-end-m');
    const w = normalizeJourney(journey('s', src('m'), linked('actionMessageInApp', 'm', 'wi'), linked('flowWaitInteraction', 'wi', [null, null])));
    expect(target(w, 'm')).toBe('wi');
  });

  it('are shared by all the links into one step that need them', () => {
    const n = normalizeJourney(
      journey('s', src('r'), linked('flowRandom', 'r', ['a', 'b']), linked('actionMessagePush', 'a', 'x'), linked('actionMessageEmail', 'b', 'x'), linked('flowEvent', 'x', [null, null])),
    );
    expect([target(n, 'a'), target(n, 'b')]).toEqual(['auto-wait-x', 'auto-wait-x']);
    expect(n.steps.filter((s) => s.type === 'flowWait')).toHaveLength(1);
  });

  it('go away when nothing links to them any more', () => {
    const n = normalizeJourney(journey('s', src('p'), linked('actionMessagePush', 'p', null), wait('auto-wait-x', 'auto-end-q', 60, true), { ...end('auto-end-q'), auto: true }));
    expect(byId(n, 'auto-wait-x')).toBeUndefined();
    expect(byId(n, 'auto-end-q')).toBeUndefined();
  });
});

describe('fixed point', () => {
  it('returns the same object for a normal journey and the same result for the same input', () => {
    const j = journey('s', src('m'), linked('actionMessageInApp', 'm', 'x'), linked('flowInteraction', 'x', [null, null]));
    const n = normalizeJourney(j);
    expect(normalizeJourney(n)).toBe(n);
    expect(journeyInvariantIssues(n)).toEqual([]);
    expect(normalizeJourney(j)).toEqual(n);
  });

  it('keeps user steps that are unreachable', () => {
    const n = normalizeJourney(journey('s', src(), linked('actionMessagePush', 'lonely', null)));
    expect(byId(n, 'lonely')).toBeDefined();
  });

  it('drops duplicate step ids and duplicate path ids (keeping the first)', () => {
    const r = linked('flowRandom', 'r', [null, null]);
    const dup = { ...r, paths: r.paths.map((p) => ({ ...p, id: 'same' })) };
    const n = normalizeJourney(journey('s', src('r'), dup, linked('actionMessagePush', 'r', null)));
    const got = byId(n, 'r');
    expect(got?.type).toBe('flowRandom');
    const ids = got && 'paths' in got ? got.paths.map((p) => p.id) : [];
    expect(ids[0]).toBe('same');
    expect(ids.filter((id) => id === 'same')).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(n.steps.filter((s) => s.id === 'r')).toHaveLength(1);
  });
});

describe('loops of waits', () => {
  it('never throws on a loop of waits entered from another wait (w1 → w2 ↔ w3), and settles', () => {
    const j = journey('s', src('w1'), wait('w1', 'w2'), wait('w2', 'w3'), wait('w3', 'w2'));
    const n = normalizeJourney(j);
    expect(normalizeJourney(n)).toBe(n);
    expect(journeyInvariantIssues(n)).toEqual([]);
  });

  it('never throws on any loop of waits, however entered (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (count, backs, autoFirst) => {
      // A chain of `count` waits from the source; each wait may point back to an earlier one.
      const ids = Array.from({ length: count }, (_, i) => `w${i}`);
      const steps = ids.map((id, i) => {
        const back = backs[i];
        const next = back !== undefined && back <= i && i === count - 1 ? ids[back]! : (ids[i + 1] ?? null);
        return wait(id, next, 60 * (i + 1), autoFirst && i === 0);
      });
      const n = normalizeJourney(journey('s', src('w0'), ...steps));
      expect(normalizeJourney(n)).toBe(n);
      expect(journeyInvariantIssues(n)).toEqual([]);
    }));
  });
});

describe('loops through other steps', () => {
  it('merges consecutive waits that lead into a loop through a message (a regression the property test found)', () => {
    const j = journey('s', src('s4'), linked('actionMessageInApp', 's2', 's5'), wait('s4', 's5', null), wait('s5', 's2', null));
    const n = normalizeJourney(j);
    expect(journeyInvariantIssues(n)).toEqual([]);
    expect(normalizeJourney(n)).toBe(n);
  });
});
