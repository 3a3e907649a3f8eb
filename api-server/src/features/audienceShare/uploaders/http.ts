/**
 * What the platform uploaders share: a JSON request through the guarded client (src/net), and
 * `PlatformFailure`, a platform's refusal as a catalogue code and a reason people can act on.
 */
import type { ErrorCodeValue, UploadRow } from '@gd/shared';
import { NetError, guardedRequest, readBody, type NetPolicy } from '../../../net/index.ts';

/** A platform refused or could not be reached: `code` is the catalogue code the share records. */
export class PlatformFailure extends Error {
  readonly code: ErrorCodeValue;
  constructor(code: ErrorCodeValue, message: string) {
    super(message);
    this.name = 'PlatformFailure';
    this.code = code;
  }
}

export interface JsonAnswer { status: number; json: unknown; text: string }

/** Limits of one upload request: a 10,000-row batch is a few MB, and platforms answer within seconds. */
const LIMITS = { connectTimeoutMs: 10_000, idleMs: 60_000, totalMs: 120_000, maxBytes: 5 * 1024 * 1024 } as const;

/** One JSON request; a connection failure becomes a PlatformFailure with `failCode`. */
export async function requestJson(policy: NetPolicy, url: string, init: { method: string; headers: Record<string, string>; body?: string }, platform: string, failCode: ErrorCodeValue): Promise<JsonAnswer> {
  try {
    const response = await guardedRequest(url, policy, {
      ...LIMITS, method: init.method,
      // Content-Length always: Node sends a DELETE's body unframed otherwise (Meta removes users with DELETE and a body).
      headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(init.body)) } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const text = (await readBody(response)).toString('utf8');
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) as unknown : undefined;
    } catch { /* not JSON: the text is the reason */ }
    return { status: response.status, json, text };
  } catch (error) {
    if (error instanceof NetError) throw new PlatformFailure(failCode, `${platform} could not be reached: ${error.message}`);
    throw error;
  }
}

/** The first text found at one of `paths` of a JSON answer (e.g. error.message), else the raw text, shortened. */
export function reasonOf(answer: JsonAnswer, ...paths: string[][]): string {
  for (const path of paths) {
    let v: unknown = answer.json;
    for (const key of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    if (typeof v === 'string' && v !== '') return v.slice(0, 300);
  }
  return answer.text.slice(0, 300) || `HTTP ${answer.status}`;
}

/** One upload of a run: additions, or removals, sent batch by batch, then closed. */
export interface UploadSession {
  /** Sends one batch; answers the indexes of rows the platform did not take (they are tried again next run). */
  send(rows: UploadRow[], last: boolean): Promise<ReadonlySet<number>>;
  /** Ends the upload (Google Ads runs its job); nothing to do for the others. */
  close(): Promise<void>;
}

export interface PlatformUploader {
  /** The platform's name in messages. */
  readonly label: string;
  /** Creates the platform audience the share fills; answers its id. */
  createAudience(name: string, description: string): Promise<string>;
  /** Starts an upload of additions or removals to the platform audience (`total`: the rows it will send, for platforms that ask). */
  session(platformAudienceId: string, op: 'add' | 'remove', total: number): UploadSession;
}

export const NOTHING_FAILED: ReadonlySet<number> = new Set();
