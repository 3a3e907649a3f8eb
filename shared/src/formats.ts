/**
 * Formats of SPEC.md section 5. Pure predicates plus zod schemas built from them.
 * The password rule's length and special set are not given by the spec; ours: at least
 * 10 characters, with an upper-case and a lower-case letter, a digit and one of PASSWORD_SPECIALS.
 */
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_SPECIALS = '!@#$%^&*()_+-=[]{};:\'"\\|,.<>/?~`';

export type PasswordRule = 'length' | 'upper' | 'lower' | 'digit' | 'special';
export function passwordProblems(password: string): PasswordRule[] {
  const problems: PasswordRule[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('length');
  if (!/[A-Z]/.test(password)) problems.push('upper');
  if (!/[a-z]/.test(password)) problems.push('lower');
  if (!/[0-9]/.test(password)) problems.push('digit');
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c))) problems.push('special');
  return problems;
}
export const StrongPassword = z
  .string()
  .max(200)
  .refine((p) => passwordProblems(p).length === 0, {
    message: `Password needs at least ${PASSWORD_MIN_LENGTH} characters, an upper-case and a lower-case letter, a digit and a special character`,
  });

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export function isDateString(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
export const DateString = z.string().refine(isDateString, { message: 'Expected a date as YYYY-MM-DD' });

/** True for loopback, private, link-local, unspecified and similar non-public hosts. */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224
    );
  }
  if (h.includes(':')) {
    return h === '::' || h === '::1' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80') || h.startsWith('::ffff:');
  }
  return false;
}

/** URL: http, https or ftp, and not a private address. */
export function isPublicUrl(s: string, protocols: readonly string[] = ['http:', 'https:', 'ftp:']): boolean {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return false;
  }
  return protocols.includes(url.protocol) && url.hostname !== '' && !isPrivateHost(url.hostname);
}
/** The variant that requires a non-http protocol (an app scheme) and a non-localhost host. */
export function isAppSchemeUrl(s: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(s);
  if (!m) return false;
  const [scheme, host] = [(m[1] ?? '').toLowerCase(), (m[2] ?? '').toLowerCase()];
  return scheme !== 'http' && scheme !== 'https' && host !== 'localhost' && !host.startsWith('127.');
}

export const isColour = (s: string) => /^#[0-9a-fA-F]{6}$/.test(s);

export function isDomainName(s: string): boolean {
  if (s.length < 4 || s.length > 253) return false;
  const labels = s.split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1] ?? '';
  if (!/^[a-zA-Z]{2,63}$/.test(tld)) return false;
  return labels.every((l) => /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(l));
}

export const isSlug = (s: string) => /^[A-Za-z0-9_~.-]+$/.test(s);

export function isCertificateFingerprint(s: string): boolean {
  const pairs = s.split(':');
  return pairs.length >= 17 && pairs.length <= 33 && pairs.every((p) => /^[0-9A-F]{2}$/.test(p));
}

export const Email = z.string().trim().toLowerCase().max(254).email('Enter a valid e-mail address');
