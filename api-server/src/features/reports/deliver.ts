/**
 * Delivering a report's file to its target, only through the guarded network client (src/net):
 * - e-mail: one message to every recipient with the file attached, through the mail provider the
 *   report names or the account's active one (mailProviders/transport.ts: checked addresses, TLS
 *   verified). Some recipients refused while others accepted: delivered with a warning that names
 *   them. All refused, or no provider: a failure (retried, then error).
 * - SFTP: the server must present the report's pinned host key (read fresh at each delivery, so a
 *   key confirmed by an edit counts at once); a server presenting another key is refused during
 *   the key exchange, before the password or key is sent, and the run fails at once (permanent)
 *   with a message naming both fingerprints and how to confirm the new key. Without a pinned key,
 *   the first successful login pins the key it met (trust on first use; repository recordHostKey).
 *   Then logged in with the sealed password or private key; uploaded under a temporary name and
 *   renamed into place, so a reader never sees half a file and a retry replaces it.
 *
 * Delivery is at least once: a worker that stops between the server's acceptance and the run's
 * record of it delivers again when the run is taken over. The SFTP upload then replaces the same
 * file; the e-mail carries the same Message-ID (`reportMessageId`, one per run), which mail clients
 * and mailbox providers use to show a resent message once.
 *
 * A failure is a DeliveryFailed (retried with backoff by run.ts) unless `permanent` (nothing a
 * retry can change: no provider, credentials that no longer open, a host key that is not the
 * pinned one).
 */
import posixPath from 'node:path/posix';
import type { Queryable } from '../../db/pool.ts';
import { HostKeyMismatch, connectSftp, type NetPolicy, type SftpConnection } from '../../net/index.ts';
import { openSecrets } from '../imports/secretBox.ts';
import { providerMailTransport } from '../mailProviders/transport.ts';
import type { ReportFile } from './files.ts';
import { pinnedHostKey, recordHostKey, type StoredTarget } from './repository.ts';

export class DeliveryFailed extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent = false) {
    super(message);
    this.permanent = permanent;
  }
}

export interface DeliveryContext {
  db: Queryable; serverSecret: string; net: NetPolicy; signal?: AbortSignal | undefined;
  report: { id: string; accountId: string; name: string; secret: Buffer | null };
  days: { startDay: string; endDay: string };
  /** The run delivered: the e-mail's Message-ID is made from it. */
  runId: string;
}

/** Delivers; answers a warning when delivered only in part. */
export async function deliver(ctx: DeliveryContext, target: StoredTarget, file: ReportFile): Promise<string | null> {
  return target.type === 'email' ? deliverByEmail(ctx, target, file) : deliverBySftp(ctx, target, file);
}

/** One Message-ID per run, on the sender's domain (RFC 5322 msg-id): a resend of the run is the same message. */
export function reportMessageId(runId: string, senderAddress: string): string {
  const domain = /@([A-Za-z0-9.-]+)$/.exec(senderAddress)?.[1] ?? 'reports.invalid';
  return `<report-run.${runId}@${domain.toLowerCase()}>`;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).split(/\r?\n/)[0]?.slice(0, 300) ?? '';

async function deliverByEmail(ctx: DeliveryContext, target: Extract<StoredTarget, { type: 'email' }>, file: ReportFile): Promise<string | null> {
  let mail: Awaited<ReturnType<typeof providerMailTransport>>;
  try {
    mail = await providerMailTransport(ctx.db, ctx.serverSecret, ctx.report.accountId, target.mailProviderId ? { id: target.mailProviderId } : 'active', ctx.net);
  } catch (error) {
    throw new DeliveryFailed(`the mail provider cannot be used: ${errorText(error)}`, true);
  }
  if (!mail) throw new DeliveryFailed(target.mailProviderId ? 'the report\'s mail provider was deleted' : 'the account has no active mail provider', true);
  const period = ctx.days.startDay === ctx.days.endDay ? ctx.days.startDay : `${ctx.days.startDay} to ${ctx.days.endDay}`;
  try {
    const info = await mail.transporter.sendMail({
      from: mail.from, to: target.recipients, messageId: reportMessageId(ctx.runId, mail.from.address), subject: `${ctx.report.name} (${period})`,
      text: `The scheduled report "${ctx.report.name}" for ${period} is attached (${file.fileName}, ${file.rows} rows).`,
      attachments: [{ filename: file.fileName, content: file.bytes, contentType: file.fileName.endsWith('.zip') ? 'application/zip' : 'text/csv; charset=utf-8' }],
    });
    const refused = ((info.rejected ?? []) as unknown[]).map((r) => (typeof r === 'string' ? r : (r as { address: string }).address));
    return refused.length > 0 ? `Delivered, but the mail server refused ${refused.length} of ${target.recipients.length} recipients: ${refused.join(', ')}` : null;
  } catch (error) {
    throw new DeliveryFailed(`the mail server did not accept the report: ${errorText(error)}`);
  } finally {
    mail.transporter.close();
  }
}

async function deliverBySftp(ctx: DeliveryContext, target: Extract<StoredTarget, { type: 'sftp' }>, file: ReportFile): Promise<string | null> {
  const secrets = ctx.report.secret ? openSecrets(ctx.serverSecret, ctx.report.id, ctx.report.secret) : null;
  if (!secrets) throw new DeliveryFailed('the SFTP password or key can no longer be read: enter it again', true);
  const pinned = await pinnedHostKey(ctx.db, ctx.report.id);
  let connection: SftpConnection;
  try {
    connection = await connectSftp(ctx.net, {
      host: target.host, port: target.port, username: target.username, password: secrets.password ?? '', privateKey: secrets.privateKey, signal: ctx.signal,
      hostKeyFingerprint: pinned,
    });
  } catch (error) {
    if (error instanceof HostKeyMismatch) {
      throw new DeliveryFailed(`${error.message}. Nothing was uploaded. If the server's key was changed on purpose, confirm the new key: edit this report and forget or replace the SFTP host key fingerprint; otherwise someone may be intercepting the connection`, true);
    }
    throw new DeliveryFailed(`the SFTP server refused the connection: ${errorText(error)}`);
  }
  const { sftp } = connection;
  const finalPath = posixPath.join(target.path, file.fileName);
  const partPath = posixPath.join(target.path, `.${file.fileName}.part`);
  try {
    if (!pinned) await recordHostKey(ctx.db, ctx.report.id, target, connection.hostKeyFingerprint);
    try {
      await sftp.put(file.bytes, partPath);
      if (await sftp.exists(finalPath)) await sftp.delete(finalPath);
      await sftp.rename(partPath, finalPath);
      return null;
    } catch (error) {
      throw new DeliveryFailed(`the SFTP upload to ${finalPath} failed: ${errorText(error)}`);
    }
  } finally {
    await sftp.end().catch(() => undefined);
  }
}
