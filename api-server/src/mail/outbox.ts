/**
 * The mail pipeline. Messages are queued in `mail_outbox` inside the transaction that caused them
 * and sent by the worker (`mail/worker.ts`) with retries and backoff, so a slow or failing SMTP
 * server never fails a request and a crash never loses a message.
 */
import type { Queryable } from '../db/pool.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
}

export async function enqueueMail(db: Queryable, mail: OutgoingMail): Promise<void> {
  await db.query(
    'INSERT INTO mail_outbox (to_address, subject, text_body, html_body, kind) VALUES ($1, $2, $3, $4, $5)',
    [mail.to, mail.subject, mail.text, mail.html ?? null, mail.kind],
  );
}
