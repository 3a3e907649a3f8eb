/** A step field's name as people read it ("the wait", "the name"), for conflict notices and the launch review. */
import type { TFunction } from '../../i18n/keys.ts';

const FIELDS = ['name', 'duration', 'eventIds', 'audienceId', 'eventId', 'action', 'segment', 'weight', 'postbackUrl', 'postbackBody', 'postbackHeader', 'tagId', 'messageId', 'campaignId'] as const;
type Field = (typeof FIELDS)[number];
const KNOWN: ReadonlySet<string> = new Set(FIELDS);

export const fieldLabel = (t: TFunction, field: string): string => (KNOWN.has(field) ? t(`journeys.conflict.fields.${field as Field}`) : t('journeys.conflict.fields.other'));
