/**
 * Sends queued mail. Claims a batch with SKIP LOCKED (several workers may run), sends each over the
 * configured transport and retries failures with exponential backoff (up to 8 attempts).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../db/pool.ts';

const MAX_ATTEMPTS = 8;

interface Row { id: string; to_address: string; subject: string; text_body: string; html_body: string | null; attempts: number }

export interface MailSender { send(mail: { to: string; subject: string; text: string; html?: string }): Promise<void> }

/** SMTP when SMTP_URL is set; otherwise messages are appended to DATA_DIR/mail.log and logged (development). */
export function createSender(opts: { smtpUrl?: string | undefined; from: string; dataDir: string; log: Logger }): MailSender {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return { async send(mail) { await transport.sendMail({ from: opts.from, ...mail }); } };
  }
  const file = path.resolve(opts.dataDir, 'mail.log');
  return {
    async send(mail) {
      await mkdir(path.dirname(file), { recursive: true });
      await appendFile(file, `--- ${new Date().toISOString()}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`);
      opts.log.info({ to: mail.to, subject: mail.subject }, `mail written to ${file}`);
    },
  };
}

export async function sendPendingMail(db: Db, sender: MailSender, log: Logger, limit = 20): Promise<number> {
  const client = await db.connect();
  let rows: Row[];
  try {
    // Claim: push next_try_at forward so other workers skip these while we send (no open transaction during SMTP).
    rows = (await client.query<Row>(
      `UPDATE mail_outbox SET next_try_at = now() + interval '5 minutes', attempts = attempts + 1
       WHERE id IN (SELECT id FROM mail_outbox WHERE sent_at IS NULL AND next_try_at <= now() AND attempts < $1
                    ORDER BY next_try_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, to_address, subject, text_body, html_body, attempts`,
      [MAX_ATTEMPTS, limit],
    )).rows;
  } finally {
    client.release();
  }
  for (const row of rows) {
    try {
      await sender.send({ to: row.to_address, subject: row.subject, text: row.text_body, ...(row.html_body ? { html: row.html_body } : {}) });
      await db.query('UPDATE mail_outbox SET sent_at = now(), last_error = NULL WHERE id = $1', [row.id]);
    } catch (error) {
      const backoff = Math.min(3600, 2 ** row.attempts * 5);
      log.warn({ err: error, id: row.id, attempts: row.attempts }, 'mail send failed; will retry');
      await db.query(`UPDATE mail_outbox SET last_error = $2, next_try_at = now() + make_interval(secs => $3) WHERE id = $1`, [row.id, String(error), backoff]);
    }
  }
  return rows.length;
}

/** A polling loop with an in-process wake-up; returns `stop` and `wake`. */
export function startMailWorker(db: Db, sender: MailSender, log: Logger, intervalMs = 2000) {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while ((await sendPendingMail(db, sender, log)) > 0 && !stopped) { /* drain */ }
    } catch (error) {
      log.error({ err: error }, 'mail worker tick failed');
    } finally {
      running = false;
    }
  };
  const schedule = () => { timer = setInterval(() => void tick(), intervalMs); };
  schedule();
  return {
    wake: () => void tick(),
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
