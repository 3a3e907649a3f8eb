/**
 * People's identifiers normalised as each ad platform's matching documentation asks, and hashed
 * (SHA-256, lower-case hex of the UTF-8 normalised value). Pure: the same in the API and the
 * browser (Web Crypto's digest, present in Node and browsers).
 *
 * - E-mail: trimmed and lower-cased (Meta "EMAIL", Google "hashedEmail"). Google also drops the
 *   dots before the @ of gmail.com and googlemail.com addresses (its Customer Match normalisation).
 *   A value without exactly one @ with text on both sides is not an e-mail and is not sent.
 * - Phone: E.164. `+` or `00` then the country code; spaces, dashes, dots and parentheses are
 *   dropped. Decision (people carry the number in the `phone` profile attribute, SPEC lists no phone
 *   field): a number written without `+`/`00` is taken as written with its country code, as Meta
 *   asks; one with a leading 0 (a national number) cannot be placed and is not sent. 7 to 15 digits.
 *   Meta hashes the digits alone ("16505551234"), Google the `+` form ("+16505551234").
 * - Mobile advertising ids (IDFA, GAID): UUIDs, lower case with their hyphens (Meta "MADID", The
 *   Trade Desk "DAID"): sent in the clear, as both platforms document. The all-zero id (ad tracking
 *   limited) names no device and is not sent.
 * - Customer id (Meta "EXTERN_ID"): trimmed, then hashed (Meta recommends hashing it).
 */
import { deviceIdProblem } from '../schemas/account.ts';

/** Lower-case hex SHA-256 of the UTF-8 text. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Trimmed, lower case; null when it is not an e-mail address. */
export function normaliseEmail(value: string | null | undefined): string | null {
  const v = (value ?? '').trim().toLowerCase();
  return EMAIL.test(v) ? v : null;
}

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/** Google Customer Match: as `normaliseEmail`, and no dots in the local part of gmail.com / googlemail.com addresses. */
export function normaliseEmailForGoogle(value: string | null | undefined): string | null {
  const v = normaliseEmail(value);
  if (!v) return null;
  const at = v.lastIndexOf('@');
  const domain = v.slice(at + 1);
  return GMAIL_DOMAINS.has(domain) ? `${v.slice(0, at).replaceAll('.', '')}@${domain}` : v;
}

/** The E.164 digits (country code first, no `+`), or null when the number cannot be placed. */
export function normalisePhone(value: string | null | undefined): string | null {
  let v = (value ?? '').trim().replace(/[\s().-]/g, '');
  if (v.startsWith('+')) v = v.slice(1);
  else if (v.startsWith('00')) v = v.slice(2);
  if (!/^[1-9][0-9]{6,14}$/.test(v)) return null;
  return v;
}

/** An IDFA or GAID, lower case; null when it is not one (or is the all-zero id). */
export function normaliseAdId(value: string | null | undefined): string | null {
  const v = (value ?? '').trim().toLowerCase();
  return v !== '' && deviceIdProblem('gaid', v) === null ? v : null;
}

/** A customer id, trimmed; null when empty. */
export function normaliseCustomerId(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return v === '' ? null : v;
}
