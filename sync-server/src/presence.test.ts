import { describe, expect, it } from 'vitest';
import type { SyncContext } from './auth.ts';
import { rewritePresence } from './presence.ts';

const writer: SyncContext = { userId: 'u1', name: 'Ada', color: '#111111', readOnly: false, kind: 'journey', tokenAccess: 'write' };
const user = { id: 'u1', name: 'Ada', color: '#111111' };

describe('rewritePresence', () => {
  it('overwrites whatever user a client claims, keeping its other fields', () => {
    const states = new Map<number, Record<string, unknown>>([[1, { user: { id: 'u2', name: 'Mallory' }, cursor: { x: 1 } }], [2, {}]]);
    rewritePresence(states, writer, () => false);
    expect(states.get(1)).toEqual({ user, cursor: { x: 1 } });
    expect(states.get(2)).toEqual({ user });
  });
  it('replaces states that are not objects', () => {
    const states = new Map<number, Record<string, unknown>>([[1, 'text' as unknown as Record<string, unknown>]]);
    rewritePresence(states, writer, () => false);
    expect(states.get(1)).toEqual({ user });
  });
  it('drops client ids another connection owns', () => {
    const states = new Map<number, Record<string, unknown>>([[1, {}], [2, {}]]);
    rewritePresence(states, writer, (id) => id === 2);
    expect([...states.keys()]).toEqual([1]);
  });
  it('publishes nothing for read-only connections', () => {
    const states = new Map<number, Record<string, unknown>>([[1, { cursor: 1 }]]);
    rewritePresence(states, { ...writer, readOnly: true }, () => false);
    expect(states.size).toBe(0);
  });
});
