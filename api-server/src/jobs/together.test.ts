import { describe, expect, it } from 'vitest';
import { together } from './together.ts';

describe('together', () => {
  it('waits for every part before failing with the first failure', async () => {
    let slowEnded = false;
    const slow = new Promise<void>((resolve) => setTimeout(() => { slowEnded = true; resolve(); }, 30));
    await expect(together([Promise.reject(new Error('first')), slow, Promise.reject(new Error('second'))])).rejects.toThrow('first');
    expect(slowEnded).toBe(true);
  });

  it('resolves when every part does', async () => {
    await expect(together([Promise.resolve(1), Promise.resolve()])).resolves.toBeUndefined();
  });
});
