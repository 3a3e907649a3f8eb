/**
 * One person's e-mail from a message version: the variant's content in their language with the
 * placeholders filled, an HTML body with its text alternative, the tracking (an open pixel, each
 * link through the click redirect) and the unsubscribe link (in the row's language: recipientTexts.ts)
 * and List-Unsubscribe headers (RFC 2369,
 * one-click RFC 8058), all naming the outbox row by a signed token (tracking.ts).
 *
 * The Message-ID is derived from the row's idempotency key: should a crash between the SMTP
 * server's acceptance and the row's "sent" make the row go out again, the copy carries the same
 * Message-ID, which mailbox providers treat as the same message.
 */
import { createHash } from 'node:crypto';
import type { MessageContent, MessageDraft } from '@gd/shared';
import { recipientTexts } from './recipientTexts.ts';
import { linkSignature, trackingToken } from './tracking.ts';

export interface EmailRow { id: string; idempotency_key: string; address: string; variant_id: string; language: string }
export interface EmailPerson { customer_id: string | null; email: string | null }

export interface RenderedEmail {
  from: { name: string; address: string };
  to: string;
  bcc?: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

/** `{{name}}` placeholders: built-ins from the person; an unknown name renders empty. */
export function fillPlaceholders(text: string, values: Record<string, string | null | undefined>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_m, name: string) => values[name] ?? '');
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A readable plain-text alternative of an HTML body (links kept as "text (url)"). */
export function textOf(html: string): string {
  return html
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, inner: string) => `${inner.replace(/<[^>]+>/g, '')} (${href})`)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Every http(s) link of the body through the click redirect (mailto:, anchors and app links stay as they are). */
export function trackLinks(html: string, clickUrl: (target: string) => string): string {
  return html.replace(/(<a\s[^>]*href=")(https?:\/\/[^"]+)(")/gi, (_m, before: string, href: string, after: string) =>
    `${before}${escapeHtml(clickUrl(href.replace(/&amp;/g, '&')))}${after}`);
}

export function contentFor(definition: MessageDraft, variantId: string, language: string): MessageContent | undefined {
  const variant = definition.variants.find((v) => v.id === variantId) ?? definition.variants[0];
  return variant?.content[language] ?? variant?.content[definition.defaultLanguage];
}

export function renderEmail(c: {
  definition: MessageDraft; row: EmailRow; person: EmailPerson; provider: { name: string; address: string }; baseUrl: string; secret: string;
}): RenderedEmail {
  const content = contentFor(c.definition, c.row.variant_id, c.row.language);
  if (!content) throw new Error(`message has no content for variant ${c.row.variant_id}`);
  const values = { customer_id: c.person.customer_id, email: c.person.email ?? c.row.address };
  const token = trackingToken(c.secret, c.row.id);
  const base = c.baseUrl.replace(/\/$/, '');
  const unsubscribe = `${base}/api/email/unsubscribe/${token}`;
  const html = trackLinks(fillPlaceholders(content.html_body, values), (target) => `${base}/api/email/click/${token}?u=${encodeURIComponent(target)}&s=${linkSignature(c.secret, c.row.id, target)}`);
  const texts = recipientTexts(c.row.language);
  const footer = `<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribe)}">${texts.unsubscribe}</a></p>`;
  const pixel = `<img src="${escapeHtml(`${base}/api/email/open/${token}.gif`)}" width="1" height="1" alt="" style="display:block;border:0">`;
  const withTracking = /<\/body>/i.test(html) ? html.replace(/<\/body>/i, `${footer}${pixel}</body>`) : `${html}${footer}${pixel}`;
  const digest = createHash('sha256').update(c.row.idempotency_key).digest('hex').slice(0, 40);
  const bcc = content.bcc.trim();
  return {
    from: { name: content.sender_name.trim() || c.provider.name, address: content.sender_email.trim() || c.provider.address },
    to: c.row.address,
    ...(bcc ? { bcc } : {}),
    subject: fillPlaceholders(content.subject, values),
    html: withTracking,
    text: `${textOf(fillPlaceholders(content.html_body, values))}\n\n${texts.unsubscribe}: ${unsubscribe}`,
    messageId: `<${digest}@messages.growthdeck>`,
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
