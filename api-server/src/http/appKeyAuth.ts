/**
 * App-key authentication and throttling for every endpoint apps call with their key in
 * `X-App-Key` (ingestion, the SDK's messages, web push subscriptions). One instance per process
 * (app.ts makes it and hands it to the three routers), so an app has ONE per-key budget
 * (INGEST_RATE_PER_SECOND / INGEST_RATE_BURST) across all of them, and a client address one
 * allowance of unknown keys (UNKNOWN_KEY_LIMIT), however it spreads its calls.
 *
 * - Keys are cached KEY_CACHE_MS per process (a hit costs no round trip; unknown keys are cached
 *   too, so a retried wrong key is not a lookup each time).
 * - An address that keeps sending missing or unknown keys waits (429 with Retry-After) before any
 *   more of its keys are looked up; a key already known to open an app is never held by that.
 * - A known key then takes a token from its app's bucket: 429 with Retry-After when it is spent.
 * - A rotated key stops at once for writes: a transaction opened with `checkedTx` checks, in its
 *   first round trip (the same simple query as BEGIN), that the key still opens the app, and
 *   throws `KeyGone` when not; `refuseGone` then forgets the key and answers 10003. Reads served
 *   from the cache may go on for at most KEY_CACHE_MS after a rotation in another process.
 *
 * Answers: 10002 (API_KEY_MISSING) without the header, 10003 (API_KEY_INVALID, 401) for an
 * unknown key, 10004 (NO_PERMISSION) with status 429 and Retry-After when throttled.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { APP_KEY_HEADER, ErrorCode, fail } from '@gd/shared';
import { tx, type Db, type DbClient } from '../db/pool.ts';
import { findAppByKey, type IngestApp } from '../features/ingest/repository.ts';
import { TokenBuckets, UNKNOWN_KEY_LIMIT, type RateLimit } from '../features/ingest/rateLimit.ts';
import { sendFailure, sendKo } from './respond.ts';

export const KEY_CACHE_MS = 10_000;
/** What the key check raises when the key no longer belongs to the app (division_by_zero). */
export const KEY_GONE = '22012';

/** The key no longer opens the app (rotated, or the app deleted) since it was cached. */
export class KeyGone extends Error {}

/** An authenticated caller: its app and the key it used. */
export interface AppCaller { app: IngestApp; key: string; address: string }

export interface AppKeyAuth {
  /** The caller's app, or null when the refusal (missing or unknown key, throttled) was answered. */
  authenticate(req: Request, res: Response): Promise<AppCaller | null>;
  /** A transaction whose BEGIN checks the caller's key still opens its app: `KeyGone` when not (before `fn` runs). */
  checkedTx<T>(db: Db, caller: AppCaller, fn: (client: DbClient) => Promise<T>, begin?: string): Promise<T>;
  /** Answers a `KeyGone`: the key is forgotten, counted against the address as an unknown key, refused with 10003. */
  refuseGone(res: Response, caller: AppCaller): void;
}

/**
 * A statement for the transaction's first round trip (after BEGIN, in the same simple query) that
 * fails with KEY_GONE unless `key` is still the app's key. Simple queries take no parameters: the
 * app id is a uuid and the key goes in as its MD5 in hex, so nothing a caller sends is ever in the
 * SQL text.
 */
export function keyCheck(app: IngestApp, key: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(app.id)) throw new Error('app ids are uuids');
  const digest = createHash('md5').update(key, 'utf8').digest('hex');
  return `SELECT 1 / count(*)::int FROM apps WHERE id = '${app.id}'::uuid AND md5(app_key) = '${digest}'`;
}

export function appKeyAuth(db: Db, perKey: RateLimit, now: () => number = () => Date.now()): AppKeyAuth {
  const keys = new Map<string, { app: IngestApp | null; until: number }>();
  const buckets = new TokenBuckets(perKey);
  const unknownKeys = new TokenBuckets(UNKNOWN_KEY_LIMIT);
  const throttled = (res: Response, wait: number, what: string) => {
    res.setHeader('Retry-After', String(wait));
    sendKo(res, ErrorCode.NO_PERMISSION, `Rate limit ${what} exceeded: retry later`, undefined, 429);
  };

  async function appOf(key: string): Promise<IngestApp | null> {
    const at = now();
    let cached = keys.get(key);
    if (!cached || cached.until < at) {
      if (keys.size > 10_000) keys.clear();
      cached = { app: await findAppByKey(db, key), until: at + KEY_CACHE_MS };
      keys.set(key, cached);
    }
    return cached.app;
  }

  return {
    async authenticate(req, res) {
      const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      const key = req.get(APP_KEY_HEADER);
      const known = key ? keys.get(key)?.app : undefined;
      // An address that keeps sending unknown keys waits before any more of its keys are looked up.
      const blocked = known ? 0 : unknownKeys.peek(address);
      if (blocked > 0) {
        throttled(res, blocked, 'for unknown app keys from this address');
        return null;
      }
      if (!key) {
        unknownKeys.take(address);
        sendFailure(res, fail(ErrorCode.API_KEY_MISSING, `The ${APP_KEY_HEADER} header is missing`));
        return null;
      }
      const app = await appOf(key);
      if (!app) {
        unknownKeys.take(address);
        sendFailure(res, fail(ErrorCode.API_KEY_INVALID, 'Unknown app key'));
        return null;
      }
      const wait = buckets.take(app.id);
      if (wait > 0) {
        throttled(res, wait, 'of this app key');
        return null;
      }
      return { app, key, address };
    },

    async checkedTx(pool, caller, fn, begin = 'BEGIN') {
      const check = keyCheck(caller.app, caller.key);
      let inside = false;
      try {
        return await tx(pool, (client) => { inside = true; return fn(client); }, `${begin}; ${check}`);
      } catch (error) {
        if (!inside && (error as { code?: string }).code === KEY_GONE) throw new KeyGone();
        throw error;
      }
    },

    refuseGone(res, caller) {
      keys.delete(caller.key);
      unknownKeys.take(caller.address);
      sendFailure(res, fail(ErrorCode.API_KEY_INVALID, 'Unknown app key'));
    },
  };
}
