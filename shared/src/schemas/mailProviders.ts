/**
 * Mail providers of an account (/manage/mail-providers): the SMTP servers its e-mail messages go
 * out through (SPEC.md section 2; ARCHITECTURE.md: nodemailer over SMTP per configured provider).
 *
 * - The password is write-only: answers say only whether one is set (`hasPassword`). On update, a
 *   missing `password` keeps the stored one; an empty username means the server takes no login
 *   (the stored password is dropped).
 * - At most one provider of an account is active: the one its e-mail goes out through.
 * - A connection test answers what happened as a value (`MailConnectionTest`): ok, or the reason
 *   it failed, never an error of the API.
 */
import { z } from 'zod';
import { Email } from '../formats.ts';
import { Name } from './common.ts';

export const MailTlsMode = z.enum(['tls', 'starttls', 'none']);
export type MailTlsMode = z.infer<typeof MailTlsMode>;

/** The usual port of each TLS mode (what the form proposes). */
export const MAIL_DEFAULT_PORT: Record<MailTlsMode, number> = { tls: 465, starttls: 587, none: 25 };

const HOST_LABEL = /^[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
/** A host name (labels of letters, digits, - and _) or an IP address; no scheme, port or path. */
export function isMailHost(host: string): boolean {
  const bare = host.replace(/\.$/, '');
  if (bare.length === 0 || bare.length > 253) return false;
  if (/^\[?[0-9a-fA-F:]*:[0-9a-fA-F:.]*\]?$/.test(bare)) return true; // IPv6 literal
  return bare.split('.').every((label) => HOST_LABEL.test(label));
}

export const MailProviderInput = z.object({
  name: Name,
  host: z.string().trim().min(1, 'Required').max(253).refine(isMailHost, { message: 'A host name or IP address, without scheme or port', params: { rule: 'host' } }),
  port: z.number().int().min(1).max(65535),
  tls: MailTlsMode,
  /** Empty: the server takes no login. */
  username: z.string().trim().max(320).default(''),
  /** Write-only. Absent on update: the stored password stays. Required with a username on create. */
  password: z.string().min(1, 'Required').max(1024).optional(),
  senderName: z.string().trim().min(1, 'Required').max(120),
  senderEmail: Email,
  /** At most this many e-mails a second through this server (its own limit, a plan's quota); null: no limit. */
  ratePerSecond: z.number().int().min(1).max(100_000).nullable().default(null),
});
export type MailProviderInput = z.infer<typeof MailProviderInput>;

export const MailProvider = z.object({
  id: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  tls: MailTlsMode,
  username: z.string(),
  /** Whether a password is stored (it is never answered). */
  hasPassword: z.boolean(),
  senderName: z.string(),
  senderEmail: z.string(),
  ratePerSecond: z.number().int().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MailProvider = z.infer<typeof MailProvider>;

/** Why a connection test failed, for the screen to say in the person's language. */
export const MailConnectionFailure = z.enum([
  /** The host is, or resolves to, a private address (a local network or this server). */
  'private_address',
  /** The host name does not resolve. */
  'host_not_found',
  /** Nothing listens on that host and port. */
  'connection_refused',
  /** No answer in time (a firewall that drops, a wrong port). */
  'timeout',
  /** The TLS handshake failed: a certificate that is not trusted or not for this host, a server that speaks no TLS, or no STARTTLS offered. */
  'tls_failed',
  /** The server refused the username and password, or asked for a login when none is set. */
  'auth_failed',
  /** The stored password does not open (the server secret changed): enter it again. */
  'credentials_unreadable',
  /** Anything else the server answered (its text is in `message`). */
  'smtp_error',
]);
export type MailConnectionFailure = z.infer<typeof MailConnectionFailure>;

export const MailConnectionTest = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), ms: z.number().int() }),
  z.object({ ok: z.literal(false), reason: MailConnectionFailure, message: z.string() }),
]);
export type MailConnectionTest = z.infer<typeof MailConnectionTest>;
