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

/** No NUL character and no unpaired UTF-16 surrogate: text Postgres can store (it refuses both). */
export function isStorableText(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/**
 * Where a request value holds text Postgres cannot store (`isStorableText`), object keys included:
 * the path of the first such string ('' for the value itself), or null when there is none.
 */
export function unstorableTextAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextAt(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return at;
      const found = unstorableTextAt(inner, at);
      if (found !== null) return found;
    }
  }
  return null;
}

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export function isDateString(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
export const DateString = z.string().refine(isDateString, { message: 'Expected a date as YYYY-MM-DD' });

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (tail) {
    const bytes = tail.slice(1).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = bytes;
    a = `${a.slice(0, tail.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const part = (text: string | undefined) => (text ? text.split(':') : []);
  const head = part(halves[0]);
  const rest = part(halves[1]);
  if (halves.length === 1 && head.length !== 8) return null;
  if (halves.length === 2 && head.length + rest.length > 7) return null;
  const groups = [...head, ...Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address carries, in any of the forms that reach it: IPv4-compatible
 * (::a.b.c.d, ::7f00:1), IPv4-mapped (::ffff:0:0/96), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96
 * and the local-use 64:ff9b:1::/48) and 6to4 (2002::/16); null for any other address.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const [g0 = 0, g1 = 0, g2 = 0, , g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (zero(0, 5) && (g5 === 0 || g5 === 0xffff) && (g6 !== 0 || g7 > 1 || g5 === 0xffff)) return dotted(g6, g7);
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) return dotted(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && (zero(2, 6) || g2 === 1)) return dotted(g6, g7);
  if (g0 === 0x2002) return dotted(g1, g2);
  return null;
}

function isPrivateIpv4(h: string): boolean | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (!v4) return null;
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return (
    a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224
  );
}

/**
 * True for loopback, private, link-local, unspecified and similar non-public hosts, in any spelling
 * (a trailing dot, IPv4 inside IPv6). A syntactic check for forms; the API checks the resolved
 * address again when it connects.
 */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (h === '' || h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  const v4 = isPrivateIpv4(h);
  if (v4 !== null) return v4;
  if (h.includes(':')) {
    const groups = ipv6Groups(h);
    if (!groups) return true;
    const embedded = embeddedIpv4(h);
    if (embedded) return isPrivateIpv4(embedded) ?? true;
    const [g0 = 0] = groups;
    return groups.every((x, i) => x === 0 || (i === 7 && x === 1)) // :: and ::1
      || (g0 & 0xfe00) === 0xfc00 // unique local
      || (g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0 // link- and site-local
      || (g0 & 0xff00) === 0xff00; // multicast
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
