/**
 * Event naming rules, checked before an event is queued so a bad name fails at the call site.
 *
 * A copy of shared/src/behaviour/events.ts (EVENT_NAME_PATTERN, BUILT_IN_EVENT_KEYS,
 * eventNameProblem): the SDK imports nothing from @gd/shared at run time, which would pull zod
 * into the bundle. names.test.ts fails when the copies drift apart; the server applies the
 * originals either way.
 */
import type { BuiltInEventKey } from '@gd/shared';

export const EVENT_PREFIX = 'gd_';
export const SCREEN_EVENT = 'e_screen_name';

const KEYS = [
  'install', 'register', 'login', 'login2', 'start_session', 'end_session', 'transaction',
  'uninstall', 'reinstall', 'reopen', 'retargeting_open', 'auto_event',
] as const satisfies readonly BuiltInEventKey[];
export const BUILT_IN_EVENTS: readonly string[] = KEYS.map((k) => EVENT_PREFIX + k);

const PATTERN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/** Why `name` cannot be sent as an event, or null when it can. */
export function eventNameProblem(name: string): 'pattern' | 'reserved' | null {
  if (!PATTERN.test(name)) return 'pattern';
  if (name.startsWith(EVENT_PREFIX) && !BUILT_IN_EVENTS.includes(name)) return 'reserved';
  return null;
}
