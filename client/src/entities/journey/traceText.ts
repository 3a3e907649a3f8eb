/**
 * What a journey entry's trace says (schemas/journeyRun.ts), as people read it: why a step was left
 * (the engine's reason with its detail), what the step did (a send queued or skipped and why, a
 * postback's result, a tag), and how the entry stands. Pure given a translation function; codes
 * this version does not know are shown as they are (the engine may add some).
 */
import type { JourneyEntryTrace, JourneyPassageEffect } from '@gd/shared/schemas/journeyRun';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { eventLabel } from '../person/format.ts';

const REASONS = [
  'entered', 'passed', 'wait_elapsed', 'interaction', 'timeout', 'event', 'otherwise', 'random', 'segment', 'sent', 'message_missing',
  'postback', 'postback_disabled', 'tag', 'tag_missing', 'end', 'exit_event', 'exit_segment', 'stopped', 'goal', 'journey_gone',
] as const;
type Reason = (typeof REASONS)[number];
const isReason = (r: string): r is Reason => (REASONS as readonly string[]).includes(r);

const INTERACTIONS = ['impression', 'click', 'open', 'dismissed_click'] as const;
type Interaction = (typeof INTERACTIONS)[number];
const isInteraction = (k: string): k is Interaction => (INTERACTIONS as readonly string[]).includes(k);

/** An interaction kind or an event id as people read it. */
export function detailText(t: TFunction, reason: string, detail: string | null | undefined): string | null {
  if (!detail) return null;
  if (reason === 'interaction' || reason === 'timeout') return isInteraction(detail) ? t(`journeyEditor.interaction.${detail}`) : detail;
  if (reason === 'event' || reason === 'exit_event' || reason === 'goal') return eventLabel(detail, t);
  return detail;
}

/** Why the step was left, e.g. "Did purchase", "Wait over", "Exited: left the segment". */
export function reasonText(t: TFunction, reason: string, detail?: string | null): string {
  if (!isReason(reason)) return reason;
  const d = detailText(t, reason, detail);
  switch (reason) {
    case 'interaction':
      return d ? t('journeyRun.trace.reason.interaction', { detail: d }) : t('journeyRun.trace.reason.interactionAny');
    case 'event':
      return d ? t('journeyRun.trace.reason.event', { detail: d }) : t('journeyRun.trace.reason.eventAny');
    case 'exit_event':
      return d ? t('journeyRun.trace.reason.exit_event', { detail: d }) : t('journeyRun.trace.reason.exit_eventAny');
    default:
      return t(`journeyRun.trace.reason.${reason}`);
  }
}

const SKIPS = ['message_gone', 'not_approved', 'paused', 'no_address', 'wrong_origin', 'person_gone', 'capped', 'frequency_cap', 'quiet_hours'] as const;
type Skip = (typeof SKIPS)[number];
const isSkip = (r: string): r is Skip => (SKIPS as readonly string[]).includes(r);

export type EffectTone = 'ok' | 'warn' | 'neutral';

/** What the step did, e.g. "Message queued", "Not sent: frequency cap"; null when it did nothing. */
export function effectText(t: TFunction, effect: JourneyPassageEffect | null): { text: string; tone: EffectTone } | null {
  if (!effect) return null;
  const reason = effect.reason ? (isSkip(effect.reason) ? t(`journeyRun.trace.skip.${effect.reason}`) : effect.reason) : '';
  switch (effect.kind) {
    case 'send':
      if (effect.status === 'queued') return { text: t('journeyRun.trace.effect.queued'), tone: 'ok' };
      if (effect.status === 'duplicate') return { text: t('journeyRun.trace.effect.duplicate'), tone: 'neutral' };
      if (effect.status === 'skipped') return { text: t('journeyRun.trace.effect.skipped', { reason: reason || '—' }), tone: 'warn' };
      break;
    case 'postback':
      if (effect.status === 'pending') return { text: t('journeyRun.trace.effect.postbackPending'), tone: 'neutral' };
      if (effect.status === 'ok') return { text: t('journeyRun.trace.effect.postbackOk'), tone: 'ok' };
      if (effect.status === 'failed') return { text: t('journeyRun.trace.effect.postbackFailed', { reason: reason || '—' }), tone: 'warn' };
      break;
    case 'tag':
      if (effect.status === 'applied') return { text: t('journeyRun.trace.effect.tagApplied'), tone: 'ok' };
      if (effect.status === 'skipped') return { text: t('journeyRun.trace.effect.tagSkipped'), tone: 'warn' };
      break;
    default: {
      const never: never = effect.kind;
      throw new Error(`unknown effect ${String(never)}`);
    }
  }
  return { text: t('journeyRun.trace.effect.other', { status: reason ? `${effect.status}: ${reason}` : effect.status }), tone: 'neutral' };
}

export const STATUS_COLOR: Record<JourneyEntryTrace['status'], string> = { active: 'blue', waiting: 'yellow', ended: 'gray', exited: 'orange' };

const END_REASONS = ['end', 'dangling', 'loop', 'exit_event', 'exit_segment', 'stopped', 'journey_gone'] as const;
type EndReason = (typeof END_REASONS)[number];
const isEndReason = (r: string): r is EndReason => (END_REASONS as readonly string[]).includes(r);

/** Why an entry ended or exited ("reached the end"), or the code itself when unknown. */
export const endReasonText = (t: TFunction, reason: string | null): string | null =>
  reason === null ? null : isEndReason(reason) ? t(`journeyRun.trace.endReason.${reason}`) : reason;

/** The key of the line that says what a waiting entry waits for (without a time). */
export const waitingForKey = (waitingFor: 'interaction' | 'segment'): TKey => `journeyRun.trace.waitingForOnly.${waitingFor}`;
