import { describe, expect, it } from 'vitest';
import type { Peer } from '../../sync/presence.ts';
import { reviewersOf } from './reviewPresence.ts';

const peer = (clientId: number, name: string): Peer => ({ clientId, userId: `u${clientId}`, name, color: '#228be6', selectedStepId: null, pointer: null, dragging: null, view: null });

describe('reviewersOf', () => {
  it('keeps the people whose state says they review this submission, not those editing or reviewing another one', () => {
    const peers = [peer(1, 'Adrián'), peer(2, 'Carmen'), peer(3, 'Marta'), peer(4, 'Inés')];
    const states = new Map<number, unknown>([
      [1, { user: {}, reviewing: 'sub-2' }],
      [2, { user: {}, reviewing: 'sub-2' }],
      [3, { user: {} }],
      [4, { user: {}, reviewing: 'sub-1' }],
    ]);
    expect(reviewersOf(peers, states, 'sub-2').map((p) => p.name)).toEqual(['Adrián', 'Carmen']);
    expect(reviewersOf(peers, states, 'sub-3')).toEqual([]);
  });

  it('ignores a state that is not an object', () => {
    expect(reviewersOf([peer(1, 'Adrián')], new Map([[1, 'reviewing']]), 'sub-1')).toEqual([]);
  });
});
