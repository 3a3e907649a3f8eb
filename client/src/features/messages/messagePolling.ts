/**
 * How often a message's delivery and metrics panels ask again, from its status: every 2 s while it
 * runs (RUNNING_STATUSES), slowly (POLL_MS) once it has an approved version that does not run (or
 * while a test send is on its way), not at all on a draft.
 */
import { APPROVED_STATUSES, RUNNING_STATUSES } from '@gd/shared/message/lifecycle';

export const LIVE_POLL_MS = 2_000;
/** How often an open message asks for its summary (approvals, status changes by others). */
export const POLL_MS = 5_000;

/** Statuses in which a message has been sent or is on its way: approved, but past "Approved". */
export const ON_ITS_WAY: ReadonlySet<string> = new Set(APPROVED_STATUSES.filter((s) => s !== 'Approved'));

export function isRunning(status: string): boolean {
  return (RUNNING_STATUSES as readonly string[]).includes(status);
}

/** `testInFlight`: a test send of this message has not finished (drafts can be tested). */
export function messagePollMs(status: string, testInFlight = false): number | null {
  if (isRunning(status)) return LIVE_POLL_MS;
  if ((APPROVED_STATUSES as readonly string[]).includes(status) || testInFlight) return POLL_MS;
  return null;
}
