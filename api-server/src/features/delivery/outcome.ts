/**
 * What happened to one outbox row's send (pure): the channel clients' answers mapped to the row's
 * next state, and the push provider a row's platform goes through.
 */
import type { PushResult } from './push/result.ts';

export type Outcome =
  | { status: 'sent'; providerId?: string | undefined }
  | { status: 'retry'; reason: string; retryAfterMs?: number | undefined }
  | { status: 'retired'; reason: string }
  | { status: 'failed'; reason: string }
  | { status: 'skipped'; reason: string }
  /** Not sent: its message was paused while the batch ran, or its lease was about to end; back to the queue as it was. */
  | { status: 'released' }
  /** Not sent yet, by rule (a provider's rate limit, another worker's send to the same person in flight): back to the queue for `until`, not an attempt. */
  | { status: 'deferred'; until: Date };

/**
 * What an SMTP failure means for the row. Only a 5xx answer to RCPT TO is about the mailbox: it
 * retires the address (the app suppresses it). A 5xx to MAIL FROM or DATA refuses the sender or
 * the content (an unverified sender, a suspended account, a message judged spam): this send fails,
 * and the recipient keeps their address. A 4xx and connection trouble are retried.
 */
export function smtpOutcome(error: unknown): Outcome {
  const e = (error ?? {}) as { responseCode?: unknown; code?: unknown; message?: unknown; command?: unknown };
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const reason = `${code ?? (typeof e.code === 'string' ? e.code : 'error')}: ${(typeof e.message === 'string' ? e.message : '').split('\n')[0]?.slice(0, 200) ?? ''}`;
  if (code !== null && code >= 500 && code < 600) return e.command === 'RCPT TO' ? { status: 'retired', reason } : { status: 'failed', reason };
  // nodemailer's own refusal before talking to the server (a malformed address): it will never go.
  if (e.code === 'EENVELOPE' && e.command === 'API') return { status: 'failed', reason };
  return { status: 'retry', reason };
}

/** A push client's result as the row's outcome. */
export function pushOutcome(result: PushResult): Outcome {
  switch (result.outcome) {
    case 'sent': return { status: 'sent', providerId: result.providerId };
    case 'retry': return { status: 'retry', reason: result.reason, retryAfterMs: result.retryAfterMs };
    case 'retire': return { status: 'retired', reason: result.reason };
    case 'failed': return { status: 'failed', reason: result.reason };
  }
}

/** The push provider of a row's platform: the browser's push service for a web subscription, APNs for iOS devices, FCM for the others. */
export function pushProviderOf(platform: string | null): 'web' | 'apns' | 'fcm' {
  if (platform === 'web') return 'web';
  return /^ios$/i.test(platform ?? '') ? 'apns' : 'fcm';
}
