/**
 * One request to the ingestion API and what its answer means for the queue.
 *
 * - 2xx with status OK: the server has dealt with every item (stored, duplicate or rejected).
 * - no answer (network error), 408, 425, 429, 5xx, or a 2xx that is not an OK envelope: try again
 *   later; the items stay queued and keep their ids, so a retry of a batch that did arrive is
 *   reported as duplicates, never stored twice.
 * - 413: the body is too large; the caller sends fewer items.
 * - 400 with code 10001: the request itself is invalid (for an identify or profile update, that
 *   item can never succeed).
 * - any other 4xx (a missing or unknown app key: 10002, 10003): nothing will succeed until the
 *   page is fixed; the caller stops sending.
 */
import { parseRetryAfter } from './backoff.ts';

export const APP_KEY_HEADER = 'X-App-Key';
/** Catalogue codes the SDK tells apart (shared/src/errors.ts). */
export const INVALID_CODE = 10001;

export type Outcome =
  | { type: 'ok'; body: Record<string, unknown> }
  | { type: 'retry'; retryAfterMs: number | null; reason: string }
  | { type: 'tooLarge' }
  | { type: 'invalid' | 'fatal'; status: number; code: number | null; message: string };

interface Envelope { status?: unknown; code?: unknown; message?: unknown }

export function classify(status: number, body: unknown, retryAfter: string | null, now: number): Outcome {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as Envelope;
  if (status >= 200 && status < 300) {
    return envelope.status === 'OK' ? { type: 'ok', body: envelope as Record<string, unknown> } : { type: 'retry', retryAfterMs: null, reason: `unexpected answer (HTTP ${status})` };
  }
  if (status === 408 || status === 425 || status === 429 || status >= 500) {
    return { type: 'retry', retryAfterMs: parseRetryAfter(retryAfter, now), reason: `HTTP ${status}` };
  }
  if (status === 413) return { type: 'tooLarge' };
  const code = typeof envelope.code === 'number' ? envelope.code : null;
  const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${status}`;
  return { type: code === INVALID_CODE && status === 400 ? 'invalid' : 'fatal', status, code, message };
}

export async function post(fetcher: typeof fetch, url: string, appKey: string, body: unknown, keepalive: boolean): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [APP_KEY_HEADER]: appKey },
      body: JSON.stringify(body),
      keepalive,
    });
  } catch (error) {
    return { type: 'retry', retryAfterMs: null, reason: error instanceof Error ? error.message : String(error) };
  }
  let answer: unknown = null;
  try {
    answer = await res.json();
  } catch {
    // Not JSON (a proxy's error page): classified by its status alone.
  }
  return classify(res.status, answer, res.headers.get('retry-after'), Date.now());
}
