/** Human text for steps, paths and durations. Pure given a translation function. */
import { messageChannel, type JourneyStep } from '@gd/shared/journey/model';
import { countryName } from '@gd/shared/segment/countries';
import { firstSegmentCondition, type Segment } from '@gd/shared/segment/model';
import type { TFunction } from '../../../i18n/keys.ts';
import { splitDuration } from './duration.ts';
import { pathLabel } from './toFlow.ts';
import type { PathLabel } from './types.ts';

export function formatDuration(t: TFunction, seconds: number): string {
  const { value, unit } = splitDuration(seconds);
  return t(`journeyEditor.duration.${unit}`, { count: value });
}

/** The step's own name, else the name of its type. */
export const stepLabel = (t: TFunction, step: JourneyStep): string => step.name?.trim() || t(`stepType.${step.type}`);

export function pathLabelText(t: TFunction, label: PathLabel): string {
  switch (label.kind) {
    case 'none':
      return '';
    case 'name':
      return label.text;
    case 'otherwise':
      return t('journeyEditor.path.otherwise');
    case 'action':
      return t(`journeyEditor.interaction.${label.action}`);
    case 'event':
      return label.eventId;
    case 'segment':
      return t('journeyEditor.path.segment', { index: label.index });
    case 'percent':
      return t('journeyEditor.path.percent', { value: label.value });
    case 'timeout':
      return t('journeyEditor.path.timeout', { duration: formatDuration(t, label.seconds) });
    default: {
      const never: never = label;
      throw new Error(`unknown path label ${JSON.stringify(never)}`);
    }
  }
}

/** Names for what steps hold by id: an audience's name, a message's name, a country's name in the person's language. */
export interface SummaryNames {
  audience: (id: string) => string | undefined;
  /** A message's name; null when the app's messages are known and it is not one of them. */
  message?: (campaignId: string, messageId: string) => string | null | undefined;
  language: string;
}

/** "country equals Spain": the first condition of a segment, or null when it has none. */
export function conditionText(t: TFunction, segment: Segment | null, names?: SummaryNames): string | null {
  const c = segment ? firstSegmentCondition(segment) : undefined;
  if (!c) return null;
  const shown = (v: unknown) => {
    const text = String(v);
    if (names && c.id === 'country') return countryName(text, names.language);
    if (names && c.id === 'audience') return names.audience(text) ?? text;
    return text;
  };
  const value = c.input !== null && c.input !== undefined ? shown(c.input) : c.multiSelect.length ? c.multiSelect.map(shown).join(', ') : String(c.dateDays ?? c.dateRange?.startDay ?? '');
  return [c.id ?? '', c.condition ? t(`segments.operator.${c.condition}`) : '', value].filter(Boolean).join(' ');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The one-line summary under a node's title ("Wait 1 day", "Push · campaign 12"). */
export function stepSummary(t: TFunction, step: JourneyStep, names?: SummaryNames): string {
  const filled = (s: string | null | undefined) => (s ?? '').trim();
  switch (step.type) {
    case 'sourceAudience': {
      const audienceId = filled(step.audienceId);
      if (audienceId) return t('journeyEditor.summary.audience', { id: names?.audience(audienceId) ?? audienceId });
      const condition = conditionText(t, step.segment, names);
      return condition ? t('journeyEditor.summary.segment', { condition }) : t('journeyEditor.summary.audienceMissing');
    }
    case 'sourceEvents': {
      const events = step.eventIds.map(filled).filter(Boolean);
      return events.length ? t('journeyEditor.summary.events', { events: events.join(', ') }) : t('journeyEditor.summary.eventsMissing');
    }
    case 'flowWait':
      return step.duration ? t('journeyEditor.summary.wait', { duration: formatDuration(t, step.duration) }) : t('journeyEditor.summary.waitMissing');
    case 'flowInteraction':
    case 'flowEvent':
    case 'flowRandom':
    case 'flowSplit':
    case 'flowWaitInteraction':
      return step.paths.map((_, i) => pathLabelText(t, pathLabel(step, i)) || t('journeyEditor.path.unset')).join(' · ');
    case 'flowJoin':
      return t('journeyEditor.summary.join');
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail': {
      const channel = t(`journeyEditor.channel.${messageChannel(step.type) ?? 'push'}`);
      if (!filled(step.campaignId) || !filled(step.messageId)) return t('journeyEditor.summary.messageMissing', { channel });
      const name = names?.message?.(filled(step.campaignId), filled(step.messageId));
      if (name === null) return t('journeyEditor.summary.messageGone', { channel });
      return name ? t('journeyEditor.summary.messageNamed', { channel, name }) : t('journeyEditor.summary.message', { channel, campaign: filled(step.campaignId) });
    }
    case 'actionPostback':
      if (step.target === 'integration') {
        return filled(step.integrationId) ? t('journeyEditor.summary.integration', { id: filled(step.integrationId) }) : t('journeyEditor.summary.integrationMissing');
      }
      return filled(step.postbackUrl)
        ? t('journeyEditor.summary.postback', { method: step.postbackMethod, host: hostOf(filled(step.postbackUrl)) })
        : t('journeyEditor.summary.postbackMissing');
    case 'updateTagCount':
      return filled(step.tagId)
        ? t('journeyEditor.summary.tag', { tag: filled(step.tagId), amount: step.amount >= 0 ? `+${step.amount}` : String(step.amount) })
        : t('journeyEditor.summary.tagMissing');
    case 'end':
      return t('journeyEditor.summary.end');
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}
