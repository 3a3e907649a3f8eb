/**
 * A message draft: everything a team writes together in a `message` document (docs/messageDoc.ts)
 * and what a submission freezes. SPEC.md section 3 ("Communications") names the types, origins,
 * schedule bases, frequencies and parameter types; the shape around them is ours:
 *
 * - **Campaigns and messages.** A campaign (a Postgres row, with a name and the app) holds one or
 *   more messages; each message is one document and one lifecycle (lifecycle.ts). A journey's
 *   message step names a campaign and one of its messages.
 * - **Variants and languages.** Every message has at least one variant; an A/B test (`test_ab`)
 *   has two to ten, each with its share of the audience (the shares sum to 100). Each variant
 *   carries its content per language of the message (`en` and `es` by default, more addable; the
 *   default language is what a person whose language the message lacks receives). Variants of an
 *   A/B test choose their own content type among the sendable ones (push, e-mail, in-app).
 * - **Communication parameters** (`communicationParameter__<name>`): values an app defines at
 *   /manage/communication-parameters (a choice among values, or open text), set per message and
 *   usable as `{{communicationParameter__name}}` in its content.
 * - **Targeting and schedule** live in the draft too, so the what-if is shared by co-editors.
 */
import { z } from 'zod';
import { CommunicationType, MessageContent, createMessageContent } from './model.ts';
import { MessageConversion, defaultConversion } from './conversion.ts';
import { AbTestSettings, defaultAbTest } from './abTest.ts';

export const MessageOrigin = z.enum(['classic', 'automaticRule', 'automaticJourney']);
export type MessageOrigin = z.infer<typeof MessageOrigin>;

export const COMMUNICATION_PARAMETER_PREFIX = 'communicationParameter__';
export const CommunicationParameterType = z.enum(['valueSelection', 'openText']);
export type CommunicationParameterType = z.infer<typeof CommunicationParameterType>;
/** A parameter's full name: the prefix, then a lower-case identifier. */
export const CommunicationParameterName = z.string().regex(/^communicationParameter__[a-z][a-z0-9_]{0,63}$/);

/** An app's parameter definition (/manage/communication-parameters). */
export const CommunicationParameter = z.object({
  name: CommunicationParameterName,
  label: z.string().trim().min(1).max(120),
  type: CommunicationParameterType,
  /** The choices of a valueSelection parameter (empty for openText). */
  values: z.array(z.string().trim().min(1).max(200)).max(100),
}).refine((p) => p.type === 'openText' ? p.values.length === 0 : p.values.length > 0, { message: 'valueSelection needs values, openText none', path: ['values'] });
export type CommunicationParameter = z.infer<typeof CommunicationParameter>;

/** A content language: ISO 639 code, optionally with a region (`pt-BR`). */
export const MessageLanguage = z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/);
export const DEFAULT_MESSAGE_LANGUAGES = ['en', 'es'] as const;
export const MAX_MESSAGE_LANGUAGES = 20;

export const MAX_AB_VARIANTS = 10;
export const VariantId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);

export const MessageVariant = z.object({
  id: VariantId,
  name: z.string().max(120),
  /** Percent of the audience (0 to 100); the variants' shares sum to 100. */
  share: z.number().int().min(0).max(100),
  /** Content per language of the message. */
  content: z.record(MessageLanguage, MessageContent),
});
export type MessageVariant = z.infer<typeof MessageVariant>;

/** Who receives it: an audience or a segment of the app, or the app's test devices. */
export const MessageTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('audience'), id: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('segment'), id: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('testDevices') }),
]);
export type MessageTarget = z.infer<typeof MessageTarget>;

export const ScheduleBasis = z.enum(['deviceLocal', 'userTimezone']);
export const Frequency = z.enum(['daily', 'weekly', 'monthly']);
/** A wall-clock date and time (`2026-12-01T09:00`), read in the basis's time zone. */
export const LocalDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
export const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const MessageSchedule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('now') }),
  z.object({ kind: z.literal('at'), at: LocalDateTime, basis: ScheduleBasis }),
  z.object({ kind: z.literal('recurring'), startsAt: LocalDateTime, basis: ScheduleBasis, frequency: Frequency, endsAt: LocalDateTime.nullable() }),
]);
export type MessageSchedule = z.infer<typeof MessageSchedule>;

export const MessageDelivery = z.object({
  /** At most this many messages per person per calendar day in their time zone (null: no cap). */
  frequencyCap: z.number().int().min(1).max(100).nullable(),
  /** Sends held between these local times (null: none); the window may wrap past midnight. */
  quietHours: z.object({ from: ClockTime, to: ClockTime }).nullable(),
});
export type MessageDelivery = z.infer<typeof MessageDelivery>;

export const MessageDraft = z.object({
  name: z.string().max(120),
  type: CommunicationType,
  origin: MessageOrigin,
  languages: z.array(MessageLanguage).min(1).max(MAX_MESSAGE_LANGUAGES),
  defaultLanguage: MessageLanguage,
  variants: z.array(MessageVariant).min(1).max(MAX_AB_VARIANTS),
  /** Parameter name → its value for this message. */
  parameters: z.record(CommunicationParameterName, z.string().max(2000)),
  target: MessageTarget,
  schedule: MessageSchedule,
  delivery: MessageDelivery,
  /** The conversion goal and window (conversion.ts); drafts and versions from before it read the default. */
  conversion: MessageConversion.default(defaultConversion),
  /** An A/B test's test portion (abTest.ts); drafts and versions from before it read the default (everyone). */
  abTest: AbTestSettings.default(defaultAbTest),
});
export type MessageDraft = z.infer<typeof MessageDraft>;

/** The content types an A/B variant may take: the sendable ones (not native ads, not another test). */
export function variantTypes(): CommunicationType[] {
  return CommunicationType.options.filter((t) => t !== 'test_ab' && t !== 'native_ad');
}

/** Even shares summing to 100 (the first variants take the remainder). */
export function evenShares(count: number): number[] {
  const base = Math.floor(100 / count);
  return Array.from({ length: count }, (_, i) => base + (i < 100 - base * count ? 1 : 0));
}

/** A new variant's content in every language of the draft. */
export function variantContent(type: CommunicationType, languages: readonly string[]): Record<string, MessageContent> {
  return Object.fromEntries(languages.map((lang) => [lang, createMessageContent(type)]));
}

/**
 * A new draft of `type`: one variant (two, A and B, for an A/B test of push messages), in English
 * and Spanish, sent to nobody yet, now, without cap or quiet hours.
 */
export function createMessageDraft(type: CommunicationType, origin: MessageOrigin = 'classic'): MessageDraft {
  const languages = [...DEFAULT_MESSAGE_LANGUAGES];
  const variantType = type === 'test_ab' ? 'push' : type;
  const names = type === 'test_ab' ? ['A', 'B'] : [''];
  const shares = evenShares(names.length);
  return {
    name: '',
    type,
    origin,
    languages,
    defaultLanguage: 'en',
    variants: names.map((name, i) => ({ id: name || 'main', name, share: shares[i] ?? 0, content: variantContent(variantType, languages) })),
    parameters: {},
    target: { kind: 'none' },
    schedule: { kind: 'now' },
    delivery: { frequencyCap: null, quietHours: null },
    conversion: defaultConversion(),
    abTest: defaultAbTest(),
  };
}
