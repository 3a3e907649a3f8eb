/**
 * The e-mails the pipeline composes itself (mime.ts), read back by a real MIME parser (mailparser):
 * what a mail client shows must be what was rendered, whatever the text holds.
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { RenderedEmail } from './email.ts';
import { composeEmail, composeForSending } from './mime.ts';

const base: RenderedEmail = {
  from: { name: 'Growth team', address: 'news@example.com' },
  to: 'p1@example.com',
  subject: 'Winter sale',
  html: '<html><body><p>Hello</p><a href="https://gd.example.com/api/email/click/t?u=https%3A%2F%2Fshop.example.com&s=x">Shop</a></body></html>',
  text: 'Hello\n\nShop (https://shop.example.com)',
  messageId: '<abc123@messages.growthdeck>',
  headers: { 'List-Unsubscribe': '<https://gd.example.com/api/email/unsubscribe/t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
};

const addresses = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => ({ name: v.name, address: v.address })));

async function parsed(email: RenderedEmail, extra: Record<string, string> = {}) {
  const composed = composeEmail(email, extra, new Date('2026-12-07T09:30:00Z'));
  expect(composed).not.toBeNull();
  return { composed: composed!, mail: await simpleParser(composed!.raw) };
}

describe('composeEmail', () => {
  it('writes a multipart/alternative message that a parser reads back field for field', async () => {
    const { composed, mail } = await parsed(base, { 'X-Growthdeck-Test': 'no' });
    expect(addresses(mail.from)).toEqual([{ name: 'Growth team', address: 'news@example.com' }]);
    expect(addresses(mail.to)).toEqual([{ name: '', address: 'p1@example.com' }]);
    expect(mail.subject).toBe('Winter sale');
    expect(mail.messageId).toBe('<abc123@messages.growthdeck>');
    expect(mail.date?.toISOString()).toBe('2026-12-07T09:30:00.000Z');
    expect(mail.html).toBe(base.html);
    expect(mail.text).toBe(base.text);
    const line = (key: string) => mail.headerLines.find((h) => h.key === key)?.line;
    expect(line('list-unsubscribe')).toBe('List-Unsubscribe: <https://gd.example.com/api/email/unsubscribe/t>');
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail.headers.get('x-growthdeck-test')).toBe('no');
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(composed.envelope).toEqual({ from: 'news@example.com', to: ['p1@example.com'] });
    // Every line within SMTP's limit, every line end CRLF.
    expect(composed.raw.split('\r\n').every((line) => line.length <= 998 && !line.includes('\n'))).toBe(true);
  });

  it('keeps non-ASCII subjects, names and bodies, long lines and lines that look like boundaries', async () => {
    const html = `<p>${'Rebajas de invierno — ñandú, 50 % de descuento. '.repeat(12)}</p>\n--boundary\n.\n<p>=_ = =3D</p>`;
    const email: RenderedEmail = {
      ...base,
      from: { name: 'Équipe Croissance', address: 'news@example.com' },
      subject: 'Rebajas de invierno para José: ¡hasta el 50 %! 🎉 Una oferta que no querrás perderte esta semana',
      html,
      text: `Línea uno\r\nLínea dos\n${'x'.repeat(300)}`,
    };
    const { composed, mail } = await parsed(email);
    // Folded and soft-wrapped: no line over 76 characters, however long the subject and the body lines.
    expect(Math.max(...composed.raw.split('\r\n').map((l) => l.length))).toBeLessThanOrEqual(76);
    expect(addresses(mail.from)).toEqual([{ name: 'Équipe Croissance', address: 'news@example.com' }]);
    expect(mail.subject).toBe(email.subject);
    // The parser gives line ends as LF.
    expect(mail.html).toBe(html);
    expect(mail.text).toBe(`Línea uno\nLínea dos\n${'x'.repeat(300)}`);
  });

  it('quotes a sender name with specials and drops line breaks from header values (no header injection)', async () => {
    const { composed, mail } = await parsed({
      ...base,
      from: { name: 'Acme, Inc. "Deals"', address: 'deals@example.com' },
      subject: 'Hello\r\nBcc: victim@example.com',
    });
    expect(addresses(mail.from)).toEqual([{ name: 'Acme, Inc. "Deals"', address: 'deals@example.com' }]);
    expect(mail.subject).toBe('Hello Bcc: victim@example.com');
    expect(mail.headers.has('bcc')).toBe(false);
    expect(composed.raw).not.toMatch(/^Bcc:/m);
  });

  it('puts bcc recipients in the envelope only, and IDN domains in punycode', async () => {
    const { composed, mail } = await parsed({ ...base, to: 'ana@jõgeva.ee', bcc: 'audit@example.com, Archive <archive@example.com>' });
    expect(composed.envelope.to).toEqual(['ana@xn--jgeva-dua.ee', 'audit@example.com', 'archive@example.com']);
    expect(composed.raw).toMatch(/^To: ana@xn--jgeva-dua\.ee\r$/m);
    // A reader shows the domain in Unicode again.
    expect(addresses(mail.to)).toEqual([{ name: '', address: 'ana@jõgeva.ee' }]);
    expect(mail.headers.has('bcc')).toBe(false);
  });

  it('leaves addresses it cannot write plainly to nodemailer, which composes them for SMTPUTF8', async () => {
    const email: RenderedEmail = { ...base, to: 'josé@example.com' };
    expect(composeEmail(email)).toBeNull();
    expect(composeEmail({ ...base, to: 'not an address' })).toBeNull();
    expect(composeEmail({ ...base, bcc: 'josé@example.com' })).toBeNull();
    const composed = await composeForSending(email, { 'X-Growthdeck-Test': 'yes' });
    expect(composed.envelope).toEqual({ from: 'news@example.com', to: ['josé@example.com'] });
    const mail = await simpleParser(composed.raw);
    expect(addresses(mail.to)).toEqual([{ name: '', address: 'josé@example.com' }]);
    expect(mail.subject).toBe('Winter sale');
    expect(mail.html).toBe(base.html);
    expect(mail.messageId).toBe('<abc123@messages.growthdeck>');
    expect(mail.headers.get('x-growthdeck-test')).toBe('yes');
  });

  it('gives each message its own boundary', () => {
    const boundary = (raw: string) => /boundary="([^"]+)"/.exec(raw)?.[1];
    const a = boundary(composeEmail(base)!.raw);
    const b = boundary(composeEmail(base)!.raw);
    expect(a).toMatch(/=_/);
    expect(a).not.toBe(b);
  });
});
