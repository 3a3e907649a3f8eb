import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { isDesignatedRepairer, isSettled } from './repair.ts';

describe('isSettled', () => {
  it('is false while a received update waits for one it depends on, true once it arrived', () => {
    const source = new Y.Doc();
    const steps = source.getMap('steps');
    steps.set('a', 'first');
    const first = Y.encodeStateAsUpdate(source);
    const afterFirst = Y.encodeStateVector(source);
    steps.set('a', 'replacement'); // depends on the first write (it overwrites it)
    steps.delete('b');
    const second = Y.encodeStateAsUpdate(source, afterFirst);

    const replica = new Y.Doc();
    expect(isSettled(replica)).toBe(true);
    Y.applyUpdate(replica, second); // arrives first: held back
    expect(isSettled(replica)).toBe(false);
    expect(replica.getMap('steps').get('a')).toBeUndefined();
    Y.applyUpdate(replica, first);
    expect(isSettled(replica)).toBe(true);
    expect(replica.getMap('steps').get('a')).toBe('replacement');
  });
});

describe('isDesignatedRepairer', () => {
  const present = (ids: number[], viewers: number[] = []) =>
    new Map<number, Record<string, unknown> | null>([...ids.map((id) => [id, { user: { id: `u${id}` } }] as const), ...viewers.map((id) => [id, null] as const)]);
  it('is the present writer with the smallest client id, and only that one', () => {
    const states = present([30, 10, 20]);
    expect([10, 20, 30].map((id) => isDesignatedRepairer(id, states))).toEqual([true, false, false]);
  });
  it('ignores viewers and states without a server-stamped person', () => {
    expect(isDesignatedRepairer(20, present([20], [5]))).toBe(true);
    expect(isDesignatedRepairer(20, new Map([[5, { cursor: 1 }], [20, { user: {} }]]))).toBe(true);
  });
  it('repairs alone when nobody else is present', () => {
    expect(isDesignatedRepairer(42, new Map())).toBe(true);
  });
});
