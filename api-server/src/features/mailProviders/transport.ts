/**
 * SMTP connections to an account's mail providers, with nodemailer. Every connection goes to an
 * address checked when it connects (`net` `guardedConnect`, handed to nodemailer as its socket
 * through `getSocket`): a host that is or resolves to a private address is refused, whatever it
 * resolved to when the provider was saved (DNS rebinding), except the loopback addresses tests let
 * through (OUTGOING_ALLOW_LOOPBACK). Implicit TLS and STARTTLS upgrade that checked socket; TLS
 * certificates are always verified (OUTGOING_EXTRA_CA_FILE adds authorities).
 *
 * - `activeMailTransport`: the send pipeline's connections to an account's active provider (smtpPool.ts), or null.
 * - `testConnection`: connect and log in once, bounded in time, the outcome as a value.
 */
import { rootCertificates } from 'node:tls';
import * as nodemailer from 'nodemailer';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { MailConnectionFailure, MailConnectionTest } from '@gd/shared/schemas/mailProviders';
import { loadConfig } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import { NetError, guardedConnect, netPolicy, publicOnly, type NetPolicy } from '../../net/index.ts';
import { openSecrets, sealSecrets } from '../imports/secretBox.ts';
import { providerSettings, type ProviderSettings } from './repository.ts';
import { SmtpPool } from './smtpPool.ts';

/** Longest a connection test (connect, TLS, greeting, login) may take. */
export const TEST_TIMEOUT_MS = 10_000;
/** Connection and greeting limits of the send pipeline's transport. */
const SEND_CONNECT_MS = 10_000;
export const SEND_SOCKET_MS = 60_000;
/** SMTP connections per provider and worker process: the sends in flight of its senders (delivery/send.ts) share them. */
const SEND_CONNECTIONS = 20;

export const sealPassword = (serverSecret: string, providerId: string, password: string): Buffer => sealSecrets(serverSecret, providerId, { password });

/** The stored password; null when none is stored; undefined when it does not open (the server secret changed). */
export function openPassword(serverSecret: string, settings: Pick<ProviderSettings, 'id' | 'secret'>): string | null | undefined {
  if (!settings.secret) return null;
  const opened = openSecrets(serverSecret, settings.id, settings.secret);
  return typeof opened?.password === 'string' ? opened.password : undefined;
}

let processPolicy: NetPolicy | undefined;
/** The policy of this process's configuration (what `npm start` and the worker read from the environment). */
function defaultPolicy(): NetPolicy {
  if (!processPolicy) {
    try {
      processPolicy = netPolicy(loadConfig());
    } catch {
      processPolicy = publicOnly();
    }
  }
  return processPolicy;
}

/** A provider's connection settings for nodemailer: its TLS mode and the time limits. */
function connectionOptions(settings: ProviderSettings, policy: NetPolicy, limits: { connectMs: number; socketMs: number }): SMTPConnection.Options {
  const ca = policy.extraCa ? [...rootCertificates, policy.extraCa] : undefined;
  return {
    host: settings.host,
    port: settings.port,
    // 'tls': TLS from the first byte; 'starttls': plain, then upgraded, and refused without it; 'none': never upgraded.
    secure: settings.tls === 'tls',
    requireTLS: settings.tls === 'starttls',
    ignoreTLS: settings.tls === 'none',
    tls: { rejectUnauthorized: true, minVersion: 'TLSv1.2', ...(ca ? { ca } : {}) },
    connectionTimeout: limits.connectMs,
    greetingTimeout: limits.connectMs,
    socketTimeout: limits.socketMs,
    dnsTimeout: limits.connectMs,
    logger: false,
  };
}

/** The provider's login, when it has a user name (the password as stored, sealed at rest). */
const loginOf = (settings: ProviderSettings, password: string | null) => (settings.username ? { auth: { user: settings.username, pass: password ?? '' } } : {});

/** A socket to the provider's checked address. */
async function checkedSocket(settings: ProviderSettings, policy: NetPolicy, connectMs: number) {
  const connection = await guardedConnect(policy, { host: settings.host, port: settings.port, connectTimeoutMs: connectMs });
  // SMTP is a dialogue of short lines: without this, Nagle's algorithm holds each command
  // until the server's delayed ACK (40 ms on Linux), capping a connection near 20 messages a second.
  connection.setNoDelay(true);
  return connection;
}

/** nodemailer transport options for a provider: its TLS mode, its login, and sockets only to checked addresses. */
function smtpOptions(settings: ProviderSettings, password: string | null, policy: NetPolicy, limits: { connectMs: number; socketMs: number }): SMTPTransport.Options {
  return {
    ...connectionOptions(settings, policy, limits),
    ...loginOf(settings, password),
    getSocket(_options, callback) {
      checkedSocket(settings, policy, limits.connectMs).then((connection) => callback(null, { connection }), (error: Error) => callback(error, undefined));
    },
  };
}

/**
 * The send pipeline's connections to the account's active provider (smtpPool.ts), with the sender it sends as; null
 * when the account has no active provider. `policy`: which addresses it may reach (default: this
 * process's configuration, OUTGOING_ALLOW_LOOPBACK included); callers that hold the server's
 * `Config` pass `netPolicy(config)`. Throws when the stored password does not open (the server
 * secret changed): the provider must be edited with its password again.
 */
export async function activeMailTransport(
  db: Queryable, serverSecret: string, accountId: string, policy: NetPolicy = defaultPolicy(),
): Promise<{ providerId: string; ratePerSecond: number | null; pool: SmtpPool; from: { name: string; address: string } } | null> {
  const settings = await providerSettings(db, accountId, 'active');
  if (!settings) return null;
  const password = openPassword(serverSecret, settings);
  if (password === undefined) throw new Error(`the password of mail provider ${settings.id} does not open with this server secret: enter it again`);
  const pool = new SmtpPool({
    connection: connectionOptions(settings, policy, { connectMs: SEND_CONNECT_MS, socketMs: SEND_SOCKET_MS }),
    ...loginOf(settings, password),
    getSocket: () => checkedSocket(settings, policy, SEND_CONNECT_MS),
    maxConnections: SEND_CONNECTIONS,
    maxMessages: 1000,
  });
  return { providerId: settings.id, ratePerSecond: settings.ratePerSecond, pool, from: { name: settings.senderName, address: settings.senderEmail } };
}

/**
 * A one-message (not pooled) transport of one provider of the account, or of its active one
 * (`'active'`), with its sender: scheduled reports (features/reports) send through it. Null when the
 * account has no such provider; throws when the stored password does not open.
 */
export async function providerMailTransport(
  db: Queryable, serverSecret: string, accountId: string, which: { id: string } | 'active', policy: NetPolicy = defaultPolicy(),
): Promise<{ providerId: string; transporter: nodemailer.Transporter<SMTPTransport.SentMessageInfo>; from: { name: string; address: string } } | null> {
  const settings = await providerSettings(db, accountId, which);
  if (!settings) return null;
  const password = openPassword(serverSecret, settings);
  if (password === undefined) throw new Error(`the password of mail provider ${settings.id} does not open with this server secret: enter it again`);
  const transporter = nodemailer.createTransport(smtpOptions(settings, password, policy, { connectMs: SEND_CONNECT_MS, socketMs: SEND_SOCKET_MS }));
  return { providerId: settings.id, transporter, from: { name: settings.senderName, address: settings.senderEmail } };
}

const TLS_ERROR = /ssl|tls|certificate|cert_|self[- ]signed|wrong version|handshake|unable to verify|altname/i;

/** Why a connection failed, from nodemailer's error (its `code`, the socket's own code, the text). */
export function failureOf(error: unknown): MailConnectionFailure {
  if (error instanceof NetError) {
    switch (error.reason) {
      case 'refused_address': return 'private_address';
      case 'host_not_found': return 'host_not_found';
      case 'timeout': return 'timeout';
      case 'too_large':
      case 'refused_answer': return 'smtp_error';
      default: {
        const never: never = error.reason;
        return never;
      }
    }
  }
  const e = (error ?? {}) as { code?: unknown; originalCode?: unknown; message?: unknown; responseCode?: unknown };
  const codes = [e.code, e.originalCode].filter((c): c is string => typeof c === 'string');
  const message = typeof e.message === 'string' ? e.message : '';
  if (codes.includes('EAUTH') || codes.includes('ENOAUTH')) return 'auth_failed';
  if (codes.includes('ECONNREFUSED') || /ECONNREFUSED/.test(message)) return 'connection_refused';
  if (codes.includes('ENOTFOUND') || codes.includes('EDNS') || codes.includes('EAI_AGAIN')) return 'host_not_found';
  if (codes.includes('ETLS') || codes.some((c) => TLS_ERROR.test(c)) || TLS_ERROR.test(message)) return 'tls_failed';
  if (codes.includes('ETIMEDOUT') || /timed? ?out/i.test(message)) return 'timeout';
  return 'smtp_error';
}

const ENGLISH: Record<MailConnectionFailure, string> = {
  private_address: 'The host is a private address (a local network or this server); mail providers must be public',
  host_not_found: 'The host name does not resolve',
  connection_refused: 'Nothing answers on that host and port (connection refused)',
  timeout: 'The server did not answer in time',
  tls_failed: 'The TLS connection failed',
  auth_failed: 'The server refused the username or password',
  credentials_unreadable: 'The stored password can no longer be read; enter it again',
  smtp_error: 'The server refused the connection',
};

/** One line of the server's or the socket's own words, without the password should a server echo it. */
function detail(error: unknown, password: string | null): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.split(/\r?\n/)[0]?.slice(0, 300) ?? '';
  return password ? line.split(password).join('***') : line;
}

/**
 * Connects to the provider and logs in (nodemailer `verify`), within `timeoutMs` whatever the
 * server does: ok with the time it took, or the reason it failed and the server's words.
 */
export async function testConnection(settings: ProviderSettings, serverSecret: string, policy: NetPolicy, timeoutMs = TEST_TIMEOUT_MS): Promise<MailConnectionTest> {
  const password = openPassword(serverSecret, settings);
  if (password === undefined) return { ok: false, reason: 'credentials_unreadable', message: ENGLISH.credentials_unreadable };
  const started = Date.now();
  const transporter = nodemailer.createTransport(smtpOptions(settings, password, policy, { connectMs: timeoutMs, socketMs: timeoutMs }));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NetError('timeout', `no answer within ${Math.round(timeoutMs / 1000)} s`, { transient: true, code: 'ETIMEDOUT' })), timeoutMs + 1000);
  });
  try {
    await Promise.race([transporter.verify(), deadline]);
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    const reason = failureOf(error);
    const said = detail(error, password);
    return { ok: false, reason, message: said ? `${ENGLISH[reason]}: ${said}` : ENGLISH[reason] };
  } finally {
    clearTimeout(timer);
    transporter.close();
  }
}
