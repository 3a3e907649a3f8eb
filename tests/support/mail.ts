import { existsSync, readFileSync } from 'node:fs';
import { MAIL_FILE } from './env.ts';

export interface CapturedMail { to: string; raw: string; text: string }

/** Quoted-printable soft breaks and escapes, as nodemailer writes long text bodies. */
const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Waits for a mail to `to` whose body matches `pattern`, as the SMTP sink received it. */
export async function waitForMail(to: string, pattern: RegExp, timeoutMs = 15_000): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(MAIL_FILE)) {
      const mails = readFileSync(MAIL_FILE, 'utf8').split('\n').filter(Boolean)
        .map((l) => JSON.parse(l) as { to: string; raw: string })
        .map((m) => ({ ...m, text: decodeQuotedPrintable(m.raw) }));
      const found = mails.reverse().find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && pattern.test(m.text));
      if (found) return found;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

export function linkIn(mail: CapturedMail, pattern: RegExp): string {
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`no link matching ${pattern} in: ${mail.text}`);
  return match[0];
}
