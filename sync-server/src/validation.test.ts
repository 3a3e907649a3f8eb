import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { MAX_UPDATE_BYTES } from '@gd/shared';
import { rejectReason } from './validation.ts';

const updateOf = (edit: (doc: Y.Doc) => void) => {
  const doc = new Y.Doc();
  edit(doc);
  return Y.encodeStateAsUpdate(doc);
};

describe('rejectReason', () => {
  it('accepts updates to the kind\'s roots, nested content included', () => {
    expect(rejectReason(updateOf((d) => d.getMap('steps').set('s1', new Y.Map([['type', 'wait']]))), 'journey')).toBeNull();
    expect(rejectReason(updateOf((d) => d.getMap('layout').set('s1', { x: 1, y: 2 })), 'journey')).toBeNull();
    expect(rejectReason(updateOf(() => undefined), 'journey')).toBeNull();
  });
  it('rejects empty, truncated and out-of-range bytes', () => {
    expect(rejectReason(new Uint8Array(), 'journey')).toBe('empty');
    for (const bytes of [[5], [1, 2, 3, 4, 5, 6, 7, 8], Array(10).fill(0xff)]) {
      expect(rejectReason(new Uint8Array(bytes), 'journey')).toBe('malformed');
    }
  });
  it('rejects updates above MAX_UPDATE_BYTES', () => {
    expect(rejectReason(updateOf((d) => d.getMap('layout').set('big', 'x'.repeat(MAX_UPDATE_BYTES))), 'journey')).toMatch(/^too_large:/);
  });
  it('rejects roots and meta keys the kind does not have', () => {
    expect(rejectReason(updateOf((d) => d.getMap('evil').set('x', 1)), 'journey')).toBe('unknown_root:evil');
    expect(rejectReason(updateOf((d) => d.getMap('nodes').set('x', new Y.Map())), 'journey')).toBe('unknown_root:nodes');
    expect(rejectReason(updateOf((d) => d.getMap('meta').set('owner', 'me')), 'journey')).toBe('unknown_meta_key:owner');
  });
});
