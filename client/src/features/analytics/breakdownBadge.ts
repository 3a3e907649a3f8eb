/**
 * How a breakdown mark looks in the catalogue's "Breakdowns" cell (BreakdownsCell.tsx), by the
 * state of its backfill (pure). Ready: a filled blue badge, no tooltip. Counting: outlined grey
 * with an hourglass, its tooltip saying explore reads the events meanwhile. Failed: orange with a
 * warning sign, its tooltip giving the attempts and the last error (or that the run stopped without
 * one) and saying explore keeps reading the events, and a retry button for who may edit.
 */
import type { BreakdownMark } from '@gd/shared/schemas/behaviour';
import type { TFunction } from '../../i18n/keys.ts';

export interface MarkLook {
  color: 'blue' | 'gray' | 'orange';
  variant: 'light' | 'outline';
  icon: { kind: 'hourglass' | 'warning'; label: string } | null;
  tooltip: string | null;
  /** The retry button's label, when it is offered. */
  retry: string | null;
}

export function markLook(t: TFunction, mark: BreakdownMark, canEdit: boolean): MarkLook {
  switch (mark.state) {
    case 'ready':
      return { color: 'blue', variant: 'light', icon: null, tooltip: null, retry: null };
    case 'counting':
      return { color: 'gray', variant: 'outline', icon: { kind: 'hourglass', label: t('manageEventsScreen.pendingBadge') }, tooltip: t('manageEventsScreen.breakdownsPending'), retry: null };
    case 'failed':
      return {
        color: 'orange', variant: 'light',
        icon: { kind: 'warning', label: t('manageEventsScreen.failedBadge') },
        tooltip: t('manageEventsScreen.breakdownFailed', { attempts: mark.attempts, reason: mark.error ?? t('manageEventsScreen.breakdownFailedNoReason') }),
        retry: canEdit ? t('manageEventsScreen.retryBreakdown', { property: mark.property }) : null,
      };
    default: {
      const never: never = mark.state;
      throw new Error(`unknown breakdown state ${String(never)}`);
    }
  }
}
