/**
 * The MIME text of one rendered e-mail (email.ts), composed directly instead of through
 * nodemailer's MailComposer, and handed with its envelope to the provider's SMTP pool
 * (mailProviders/smtpPool.ts).
 *
 * Why: the composer builds every message as a tree of streams; on the send pipeline that cost about
 * 0.35 ms of CPU per message, as much as the SMTP dialogue itself, and kept one worker under 1,000
 * e-mails a second (docs/BENCHMARKS.md). Our e-mails always have the same shape, so the structure is
 * ours to write; the encodings stay the library's (nodemailer's quoted-printable, RFC 2047 words,
 * punycode and header folding):
 *
 *   multipart/alternative
 *     text/plain; charset=utf-8   quoted-printable
 *     text/html; charset=utf-8    quoted-printable
 *
 * - The boundary contains "=_", which quoted-printable text can never contain (every "=" in it
 *   starts a hex escape or a soft line break), so no body can end a part early.
 * - Header values lose their line breaks (no header injection from a subject or a sender name);
 *   non-ASCII words become RFC 2047 encoded words; long lines are folded at 76.
 * - Address domains in non-ASCII go out in punycode. A mailbox whose local part is not ASCII needs
 *   SMTPUTF8, and an address that is not a plain dot-atom needs care this fast path does not take:
 *   for those `composeEmail` answers null and `composeForSending` uses nodemailer's own composer
 *   (`MailComposer`) instead; nodemailer's connection asks for SMTPUTF8 when the envelope needs it.
 * - Bcc recipients are in the envelope only, never in the headers.
 */
import { randomBytes } from 'node:crypto';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { encodeWords, foldLines, isPlainText, quoteString } from 'nodemailer/lib/mime-funcs';
import { toASCII } from 'nodemailer/lib/punycode';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';
import type { RenderedEmail } from './email.ts';

export interface ComposedEmail {
  envelope: { from: string; to: string[] };
  raw: string;
}

/**
 * Boundaries: a token of this process and a counter (random bytes per message cost more than the
 * rest of the composing). They only have to differ between messages; "=_" keeps them out of the text.
 */
const PROCESS_TOKEN = randomBytes(6).toString('hex');
let boundaries = 0;

const ASCII = /^[\x20-\x7e]*$/;
/** A dot-atom local part (RFC 5322 atext); anything else goes through nodemailer, which refuses what SMTP cannot carry. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
/** Characters that make a display name need quoting (RFC 5322 specials). */
const SPECIALS = /[()<>[\]:;@\\,."]/;

/** The address with its domain in ASCII; null when it is not a plain dot-atom address (a non-ASCII local part needs SMTPUTF8). */
function asciiAddress(address: string): string | null {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1);
  const asciiDomain = ASCII.test(domain) ? domain : toASCII(domain);
  return LOCAL_PART.test(local) && DOMAIN.test(asciiDomain) ? `${local}@${asciiDomain}` : null;
}

const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

/** A display name as a header word: as is, quoted, or as encoded words. */
function displayName(name: string): string {
  const value = oneLine(name);
  if (!isPlainText(value)) return encodeWords(value, 'Q', 52);
  return SPECIALS.test(value) ? quoteString(value) : value;
}

/** One header line, folded at 76 characters. */
const header = (name: string, value: string) => foldLines(`${name}: ${value}`, 76);

/** An RFC 5322 date in UTC ("Mon, 07 Dec 2026 14:00:00 +0000"). */
const rfc5322Date = (at: Date) => at.toUTCString().replace(/GMT$/, '+0000');

/** Quoted-printable text with CRLF line ends, wrapped at 76. */
function qpBody(text: string): string {
  return qpWrap(qpEncode(text.replace(/\r?\n/g, '\r\n')), 76);
}

export function composeEmail(email: RenderedEmail, extraHeaders: Readonly<Record<string, string>> = {}, at: Date = new Date()): ComposedEmail | null {
  const from = asciiAddress(email.from.address);
  const to = asciiAddress(email.to);
  const bcc = email.bcc ? addressparser(email.bcc, { flatten: true }).map((a) => asciiAddress(a.address)) : [];
  if (!from || !to || bcc.some((a) => a === null)) return null;

  const boundary = `----=_gd_${PROCESS_TOKEN}_${(++boundaries).toString(36)}`;
  const name = email.from.name.trim();
  const lines = [
    header('From', name ? `${displayName(name)} <${from}>` : from),
    header('To', to),
    header('Subject', encodeWords(oneLine(email.subject), 'Q', 52)),
    header('Date', rfc5322Date(at)),
    header('Message-ID', oneLine(email.messageId)),
    'MIME-Version: 1.0',
  ];
  for (const [key, value] of Object.entries({ ...email.headers, ...extraHeaders })) {
    lines.push(header(key, encodeWords(oneLine(value), 'Q', 52)));
  }
  lines.push(`Content-Type: multipart/alternative;\r\n boundary="${boundary}"`);
  const raw = [
    ...lines,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    qpBody(email.text),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    qpBody(email.html),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { envelope: { from, to: [to, ...(bcc as string[])] }, raw };
}

/** The e-mail composed by nodemailer's MailComposer: the path for addresses the fast path leaves alone. */
async function composeWithNodemailer(email: RenderedEmail, extraHeaders: Readonly<Record<string, string>>): Promise<ComposedEmail> {
  const node = new MailComposer({
    from: email.from, to: email.to, ...(email.bcc ? { bcc: email.bcc } : {}), subject: email.subject, html: email.html, text: email.text,
    messageId: email.messageId, headers: { ...email.headers, ...extraHeaders },
  }).compile();
  const envelope = node.getEnvelope();
  const raw = await node.build();
  return { envelope: { from: envelope.from || email.from.address, to: envelope.to }, raw: raw.toString('utf8') };
}

/** The e-mail as it goes to the SMTP server: composed here, or by nodemailer for the addresses that need it. */
export async function composeForSending(email: RenderedEmail, extraHeaders: Readonly<Record<string, string>> = {}): Promise<ComposedEmail> {
  return composeEmail(email, extraHeaders) ?? composeWithNodemailer(email, extraHeaders);
}
