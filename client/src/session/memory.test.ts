import { describe, expect, it } from 'vitest';
import { MEMORY_KEYS, createSessionMemory, pickCurrentApp, type KeyValueStorage } from './memory.ts';

class FakeStorage implements KeyValueStorage {
  data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

describe('session memory', () => {
  it('remembers app, user and dashboard within one build', () => {
    const storage = new FakeStorage();
    const memory = createSessionMemory(storage, 'b1');
    memory.rememberUser('u1');
    memory.set('appId', 'a1');
    memory.set('dashboardId', 'd1');
    const again = createSessionMemory(storage, 'b1');
    expect(again.get('userId')).toBe('u1');
    expect(again.get('appId')).toBe('a1');
    expect(again.get('dashboardId')).toBe('d1');
  });

  it('is cleared when the build changes, and stamped with the new build', () => {
    const storage = new FakeStorage();
    const memory = createSessionMemory(storage, 'b1');
    memory.rememberUser('u1');
    memory.set('appId', 'a1');
    const next = createSessionMemory(storage, 'b2');
    expect(next.get('appId')).toBeNull();
    expect(next.get('userId')).toBeNull();
    expect(storage.getItem(MEMORY_KEYS.build)).toBe('b2');
  });

  it('starts clean for another user but keeps memory for the same user', () => {
    const memory = createSessionMemory(new FakeStorage(), 'b1');
    memory.rememberUser('u1');
    memory.set('appId', 'a1');
    memory.rememberUser('u1');
    expect(memory.get('appId')).toBe('a1');
    memory.rememberUser('u2');
    expect(memory.get('appId')).toBeNull();
    expect(memory.get('userId')).toBe('u2');
  });

  it('clear forgets everything but the build stamp', () => {
    const storage = new FakeStorage();
    const memory = createSessionMemory(storage, 'b1');
    memory.rememberUser('u1');
    memory.set('dashboardId', 'd');
    memory.clear();
    expect(memory.get('userId')).toBeNull();
    expect(memory.get('dashboardId')).toBeNull();
    expect(storage.getItem(MEMORY_KEYS.build)).toBe('b1');
  });

  it('survives a storage that throws', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const memory = createSessionMemory(broken, 'b1');
    memory.set('appId', 'a');
    expect(memory.get('appId')).toBeNull();
  });

  it('picks the remembered app when it is still available, else the first', () => {
    const apps = [{ id: 'a' }, { id: 'b' }];
    expect(pickCurrentApp(apps, 'b')?.id).toBe('b');
    expect(pickCurrentApp(apps, 'gone')?.id).toBe('a');
    expect(pickCurrentApp([], 'a')).toBeUndefined();
  });
});
