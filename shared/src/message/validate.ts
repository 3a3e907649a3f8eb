/** Draft checks for message content (a first version; the spec lists no message rules). */
import { z } from 'zod';
import { Email, isAppSchemeUrl, isPublicUrl } from '../formats.ts';
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
