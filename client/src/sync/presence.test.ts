import { describe, expect, it } from 'vitest';
import { distinctPeople, peerDrags, presencePatch, readPeers } from './presence.ts';

const user = (id: string, name: string, color = '#4363d8') => ({ id, name, color });

describe('readPeers', () => {
  it('lists other clients stamped with a user, never this one or unstamped ones', () => {
    const states = new Map<number, unknown>([
      [1, { user: user('u1', 'Me'), selectedStepId: 's1' }],
      [2, { user: user('u2', 'Bea'), selectedStepId: 's2', pointer: { x: 10, y: 20 }, dragging: { stepId: 's2', x: 5, y: 6 } }],
      [3, { selectedStepId: 'x' }],
      [4, { user: user('u3', 'Al', 'javascript:alert(1)'), pointer: { x: 'a', y: 1 }, view: { center: { x: 1, y: 2 }, zoom: -1 } }],
      [5, { user: user('u4', 'Cy'), view: { center: { x: 100, y: -40 }, zoom: 1.5 } }],
    ]);
    expect(readPeers(states, 1)).toEqual([
      { clientId: 4, userId: 'u3', name: 'Al', color: '#868e96', selectedStepId: null, pointer: null, dragging: null, view: null },
      { clientId: 2, userId: 'u2', name: 'Bea', color: '#4363d8', selectedStepId: 's2', pointer: { x: 10, y: 20 }, dragging: { stepId: 's2', x: 5, y: 6 }, view: null },
      { clientId: 5, userId: 'u4', name: 'Cy', color: '#4363d8', selectedStepId: null, pointer: null, dragging: null, view: { center: { x: 100, y: -40 }, zoom: 1.5 } },
    ]);
  });

  it('shows one avatar per person and collects live drags by step', () => {
    const peers = readPeers(
      new Map<number, unknown>([
        [2, { user: user('u2', 'Bea'), dragging: { stepId: 'a', x: 1, y: 2 } }],
        [3, { user: user('u2', 'Bea') }],
      ]),
      1,
    );
    expect(distinctPeople(peers).map((p) => p.clientId)).toEqual([2]);
    expect(peerDrags(peers)).toEqual({ a: { x: 1, y: 2 } });
  });
});

describe('presencePatch', () => {
  it('keeps only what a client may publish (never its user)', () => {
    const patch = presencePatch({ pointer: { x: 1, y: 2 }, user: { name: 'Mallory' } } as never);
    expect(patch).toEqual({ pointer: { x: 1, y: 2 } });
    expect(presencePatch({ dragging: null, selectedStepId: undefined })).toEqual({ dragging: null, selectedStepId: null });
    expect(presencePatch({ view: { center: { x: 1, y: 2 }, zoom: 2, extra: true } as never })).toEqual({ view: { center: { x: 1, y: 2 }, zoom: 2 } });
  });
});
