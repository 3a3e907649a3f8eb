/** Draft checks for message content (a first version; the spec lists no message rules). */
import { z } from 'zod';
import { Email, isAppSchemeUrl, isPublicUrl } from '../formats.ts';
import type { CommunicationParameter, MessageDraft, MessageOrigin } from './draft.ts';
import { communicationGroup, positionsFor, type MessageContent } from './model.ts';

export const MessageViolationCode = z.enum([
  'message_missing',
  'subject_missing',
  'body_missing',
  'sender_email_invalid',
  'bcc_invalid',
  'content_missing',
  'position_invalid',
  'promo_code_missing',
  'url_invalid',
  'button_text_missing',
  'button_url_invalid',
]);
export type MessageViolationCode = z.infer<typeof MessageViolationCode>;

export interface MessageViolation {
  path: (string | number)[];
  code: MessageViolationCode;
}

const blank = (s: string) => s.trim() === '';
const isEmail = (s: string) => Email.safeParse(s).success;
/** A link target: a public web address or an app deeplink. */
export const isLinkTarget = (s: string) => isPublicUrl(s, ['http:', 'https:']) || isAppSchemeUrl(s);

export function validateMessage(c: MessageContent): MessageViolation[] {
  const out: MessageViolation[] = [];
  const add = (code: MessageViolationCode, ...path: (string | number)[]) => out.push({ code, path });
  const group = communicationGroup(c.type);
  if (c.type === 'push' && blank(c.message)) add('message_missing', 'message');
  if (c.type === 'email') {
    if (blank(c.subject)) add('subject_missing', 'subject');
    if (blank(c.html_body) && c.template_id === null) add('body_missing', 'html_body');
    if (!isEmail(c.sender_email)) add('sender_email_invalid', 'sender_email');
    const bcc = c.bcc.split(',').map((s) => s.trim()).filter(Boolean);
    if (!bcc.every(isEmail)) add('bcc_invalid', 'bcc');
  }
  if (group === 'inApp' && c.type !== 'blank') {
    if ([c.title, c.message, c.html_body, c.image_url].every(blank)) add('content_missing', 'message');
    const positions = positionsFor(c.type);
    if (positions.length && (c.position === null || !positions.includes(c.position))) add('position_invalid', 'position');
    if (c.type === 'coupon' && blank(c.promo_code)) add('promo_code_missing', 'promo_code');
  }
  if (!blank(c.image_url) && !isPublicUrl(c.image_url, ['http:', 'https:'])) add('url_invalid', 'image_url');
  if (!blank(c.target_url) && !isLinkTarget(c.target_url)) add('url_invalid', 'target_url');
  c.buttons.forEach((b, i) => {
    if (blank(b.text)) add('button_text_missing', 'buttons', i, 'text');
    if (b.action !== 'tap' && !isLinkTarget(b.target_url)) add('button_url_invalid', 'buttons', i, 'target_url');
  });
  return out;
}

/** The placeholders every message may use; tags and communication parameters add theirs. */
export const BUILT_IN_PLACEHOLDERS = ['customer_id', 'email', 'name', 'first_name', 'last_name'] as const;
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** The names written as `{{name}}` in a text, in order of appearance. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

export const DraftViolationCode = z.enum([
  'name_missing',
  'target_missing',
  'variants_too_few',
  'shares_not_100',
  'language_missing',
  'default_language_invalid',
  'placeholder_unknown',
  'parameter_unknown',
  'parameter_value_invalid',
  'schedule_end_before_start',
  'quiet_hours_empty',
]);
export type DraftViolationCode = z.infer<typeof DraftViolationCode>;

export interface DraftViolation {
  path: (string | number)[];
  code: DraftViolationCode | MessageViolationCode;
  params?: Record<string, string>;
}

/** What a draft is checked against: the app's tag names and communication parameters. */
export interface DraftKnownNames {
  tags: readonly string[];
  parameters: readonly CommunicationParameter[];
}

const TEXT_FIELDS = ['title', 'message', 'subject', 'html_body', 'image_url', 'target_url', 'promo_code'] as const;

/**
 * Whether a message of this origin is sent to a target and on a schedule of its own (a classic
 * message, played by hand), rather than by a journey's message step or an automatic rule that
 * decide who receives it and when (SPEC §3 origins). Automatic messages keep their delivery rules
 * (frequency cap, quiet hours): those hold whoever sends them.
 */
export const sendsOwnAudience = (origin: MessageOrigin): boolean => origin === 'classic';

/**
 * Every problem of a draft (the editor shows them live, submit refuses while there are any): the
 * content rules of each variant in each language (`validateMessage`), an A/B test's variants and
 * shares, languages, placeholders against known names, parameters, target and schedule.
 */
export function validateDraft(d: MessageDraft, known: DraftKnownNames): DraftViolation[] {
  const out: DraftViolation[] = [];
  const add = (code: DraftViolation['code'], path: (string | number)[], params?: Record<string, string>) => out.push({ code, path, ...(params ? { params } : {}) });
  if (blank(d.name)) add('name_missing', ['name']);
  // A journey step or an automatic rule decides who receives an automatic message and when
  // (sendsOwnAudience): only a message sent by hand needs its target.
  if (sendsOwnAudience(d.origin) && d.target.kind === 'none') add('target_missing', ['target']);
  if (!d.languages.includes(d.defaultLanguage)) add('default_language_invalid', ['defaultLanguage']);
  if (d.type === 'test_ab') {
    if (d.variants.length < 2) add('variants_too_few', ['variants']);
    if (d.variants.reduce((sum, v) => sum + v.share, 0) !== 100) add('shares_not_100', ['variants']);
  }
  const parameters = new Map(known.parameters.map((p) => [p.name, p]));
  const names = new Set<string>([...BUILT_IN_PLACEHOLDERS, ...known.tags, ...parameters.keys()]);
  d.variants.forEach((v, i) => {
    for (const lang of d.languages) {
      const content = v.content[lang];
      if (!content) {
        add('language_missing', ['variants', i, 'content', lang], { language: lang });
        continue;
      }
      for (const p of validateMessage(content)) add(p.code, ['variants', i, 'content', lang, ...p.path]);
      for (const field of TEXT_FIELDS) {
        for (const name of placeholdersIn(content[field])) {
          if (!names.has(name)) add('placeholder_unknown', ['variants', i, 'content', lang, field], { name });
        }
      }
    }
  });
  for (const [name, value] of Object.entries(d.parameters)) {
    const def = parameters.get(name);
    if (!def) add('parameter_unknown', ['parameters', name], { name });
    else if (def.type === 'valueSelection' && !def.values.includes(value)) add('parameter_value_invalid', ['parameters', name], { name });
  }
  if (d.schedule.kind === 'recurring' && d.schedule.endsAt !== null && d.schedule.endsAt <= d.schedule.startsAt) add('schedule_end_before_start', ['schedule', 'endsAt']);
  if (d.delivery.quietHours && d.delivery.quietHours.from === d.delivery.quietHours.to) add('quiet_hours_empty', ['delivery', 'quietHours']);
  return out;
}
