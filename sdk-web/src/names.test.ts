import { describe, expect, it } from 'vitest';
import { BUILT_IN_EVENTS as SHARED_BUILT_INS, SCREEN_EVENT as SHARED_SCREEN, eventNameProblem as sharedProblem } from '@gd/shared';
import { BUILT_IN_EVENTS, SCREEN_EVENT, eventNameProblem } from './names.ts';

describe('event names (a copy of the shared rules)', () => {
  it('knows the same built-in events and screen event as @gd/shared', () => {
    expect([...BUILT_IN_EVENTS].sort()).toEqual([...SHARED_BUILT_INS].sort());
    expect(SCREEN_EVENT).toBe(SHARED_SCREEN);
  });

  it('judges names as the shared rule does', () => {
    const names = [
      'purchase', 'Level.Up:2-b', 'e_screen_name', 'gd_install', 'gd_transaction', 'gd_custom', 'gd_', '1st', '_x', '',
      'a'.repeat(64), 'a'.repeat(65), 'with space', 'ñandú', 'a/b',
    ];
    for (const name of names) expect(eventNameProblem(name), name).toBe(sharedProblem(name));
    expect(eventNameProblem('gd_custom')).toBe('reserved');
    expect(eventNameProblem('with space')).toBe('pattern');
  });
});
