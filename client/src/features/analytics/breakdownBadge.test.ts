import { describe, expect, it } from 'vitest';
import { en } from '@gd/shared/i18n/all';
import type { BreakdownMark } from '@gd/shared/schemas/behaviour';
import type { TFunction } from '../../i18n/keys.ts';
import { markLook } from './breakdownBadge.ts';

/** The English catalogue's text with its variables filled, as i18next does. */
const t: TFunction = (key, vars = {}) => {
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);
  return String(text).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
};
const mark = (change: Partial<BreakdownMark>): BreakdownMark => ({ property: 'plan', ready: false, state: 'counting', attempts: 0, maxAttempts: 5, error: null, ...change });

describe('a breakdown mark in the catalogue', () => {
  it('is a plain badge when ready, and an hourglass while counting', () => {
    expect(markLook(t, mark({ ready: true, state: 'ready', attempts: 1 }), true)).toEqual({ color: 'blue', variant: 'light', icon: null, tooltip: null, retry: null });
    const counting = markLook(t, mark({ attempts: 2, error: 'deadlock detected' }), true);
    expect(counting).toMatchObject({ color: 'gray', variant: 'outline', icon: { kind: 'hourglass', label: 'counting past events' }, retry: null });
    expect(counting.tooltip).toContain('explore reads the events themselves');
  });

  it('is a warning when failed, with the reason, the attempts and explore still on the events, and a retry for editors', () => {
    const failed = mark({ state: 'failed', attempts: 5, error: 'time zone "Mars/Olympus_Mons" not recognized' });
    const look = markLook(t, failed, true);
    expect(look).toMatchObject({ color: 'orange', icon: { kind: 'warning', label: 'counting past events failed' }, retry: 'Count the past events of plan again' });
    expect(look.tooltip).toBe(
      'Counting the past events failed 5 times, the last with: time zone "Mars/Olympus_Mons" not recognized. ' +
      'Explore keeps reading the events themselves for this property, so its figures stay right, only slower.',
    );
    expect(markLook(t, failed, false).retry).toBeNull();
    expect(markLook(t, mark({ state: 'failed', attempts: 5 }), true).tooltip).toContain('the last with: the run stopped before it finished.');
  });
});
