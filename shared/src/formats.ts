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
/** A real calendar day, years 0001 to 9999 (Postgres has no year 0: '0000-01-01'::date fails). */
export function isDateString(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || s.startsWith('0000')) return false;
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

/**
 * Addresses that are not globally reachable (the IANA special-purpose registries): unspecified
 * ("this network"), private (RFC 1918), carrier-grade NAT, loopback, link-local (with the cloud
 * metadata address 169.254.169.254), IETF protocol assignments, documentation, 6to4 relay,
 * benchmarking, multicast and reserved (with broadcast). The same ranges as the API's connection
 * guard (api-server/src/net/addresses.ts; a property test keeps the two equal).
 */
const NON_PUBLIC_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
/** IPv6: unspecified, loopback, unique local, link-local, site-local, multicast, documentation (both), discard-only, IETF protocol assignments. */
const NON_PUBLIC_IPV6: readonly (readonly [string, number])[] = [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['3fff::', 20],
  ['100::', 64], ['2001::', 23],
];

const dottedNumber = (dotted: string) => dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const v4Ranges = NON_PUBLIC_IPV4.map(([net, prefix]) => ({ net: dottedNumber(net), size: 2 ** (32 - prefix) }));
const isNonPublicIpv4Number = (n: number) => v4Ranges.some((r) => n >= r.net && n < r.net + r.size);
const v6Ranges = NON_PUBLIC_IPV6.map(([net, prefix]) => ({ groups: ipv6Groups(net) ?? [], prefix }));
function inV6Range(groups: readonly number[], range: { groups: readonly number[]; prefix: number }): boolean {
  for (let bit = 0; bit < range.prefix; bit += 16) {
    const take = Math.min(16, range.prefix - bit);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[bit / 16] ?? 0) & mask) !== ((range.groups[bit / 16] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * A host as the URL standard reads IPv4 (each of 1 to 4 dot-separated parts decimal, 0x hex or
 * 0-prefixed octal; the last part fills the remaining bytes: 2130706433, 0x7f.1, 0177.0.0.1 and
 * 127.1 are all 127.0.0.1): the address as a number, null when the host is not an IPv4 address
 * (it does not end in a number), NaN when it ends in a number but is no address.
 */
export function ipv4HostNumber(host: string): number | null {
  const parts = host.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  const last = parts[parts.length - 1] ?? '';
  if (!/^(\d+|0[xX][0-9a-fA-F]*)$/.test(last)) return null;
  if (parts.length > 4) return Number.NaN;
  const numbers = parts.map((p) => {
    if (/^0[xX][0-9a-fA-F]*$/.test(p)) return p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    if (/^0\d+$/.test(p)) return /^0[0-7]+$/.test(p) ? parseInt(p.slice(1), 8) : Number.NaN;
    return /^\d+$/.test(p) ? Number(p) : Number.NaN;
  });
  if (numbers.some((n) => !Number.isFinite(n)) || numbers.slice(0, -1).some((n) => n > 255)) return Number.NaN;
  const tail = numbers[numbers.length - 1] ?? 0;
  if (tail >= 256 ** (5 - numbers.length)) return Number.NaN;
  return numbers.slice(0, -1).reduce((n, part, i) => n + part * 256 ** (3 - i), 0) + tail;
}

/** True for an IPv4 or IPv6 address (any spelling above, IPv4 inside IPv6 included) that is not public; false for a public one; null for a name. */
export function isNonPublicAddress(address: string): boolean | null {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (!a.includes(':')) {
    const v4 = ipv4HostNumber(a);
    return v4 === null ? null : Number.isNaN(v4) || isNonPublicIpv4Number(v4);
  }
  const groups = ipv6Groups(a);
  if (!groups) return true;
  const embedded = embeddedIpv4(a);
  if (embedded) return isNonPublicIpv4Number(dottedNumber(embedded));
  return v6Ranges.some((r) => inV6Range(groups, r));
}

/**
 * True for loopback, private, link-local, unspecified and similar non-public hosts, in any spelling
 * (a trailing dot, IPv4 numbers in decimal, hex or octal, IPv4 inside IPv6). A syntactic check for
 * forms; the API checks the resolved address again when it connects.
 */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (h === '' || h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  return isNonPublicAddress(h) ?? false;
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
/** Schemes that mean the web, files or sockets, never an app's own scheme. */
const NOT_APP_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'sftp', 'file', 'ws', 'wss']);

/**
 * An app-scheme link (myapp://product/42): a scheme of the app's own (not http(s), ftp, file or
 * ws) and no host that names this machine or a private address, with any port, user info, case,
 * trailing dot or percent-encoding (myapp://localhost:8080/x, myapp://[::1]/x, myapp://LOCALHOST./x
 * are refused, as isPrivateHost refuses them). An empty host (myapp:///x) names no host.
 */
export function isAppSchemeUrl(s: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(s);
  if (!m) return false;
  if (NOT_APP_SCHEMES.has((m[1] ?? '').toLowerCase())) return false;
  const hostPort = (m[2] ?? '').slice((m[2] ?? '').lastIndexOf('@') + 1);
  const host = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1 || hostPort.length) : hostPort.replace(/:[^:]*$/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(host);
  } catch {
    return false;
  }
  return decoded === '' || !isPrivateHost(decoded);
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

/**
 * Card number (SPEC.md 5: "patterns exist, exact rules not shown"; ours, the payment and loyalty
 * card rule of ISO/IEC 7812): 12 to 19 digits only (callers strip spaces and hyphens first,
 * shared/src/wallet/model.ts `normaliseCardNumber`) whose last digit is the Luhn check digit.
 */
export function isCardNumber(s: string): boolean {
  if (!/^\d{12,19}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = s.charCodeAt(s.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Security code (SPEC.md 5, rule not shown; ours, as on cards): exactly 3 or 4 digits. */
export const isSecurityCode = (s: string) => /^\d{3,4}$/.test(s);

export const Email = z.string().trim().toLowerCase().max(254).email('Enter a valid e-mail address');
