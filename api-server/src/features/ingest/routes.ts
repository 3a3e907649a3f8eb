/**
 * The ingestion API under /api/ingest/v1 (contract: shared/src/schemas/ingest.ts). Authenticated
 * by the app key in `X-App-Key`, never by cookies: no CSRF check, and CORS open to any origin so
 * the web SDK works from the customer's site. Its own JSON limit (INGEST_LIMITS.maxBodyBytes).
 *
 * Keys are cached for KEY_CACHE_MS per process, and every request's transaction checks again, in
 * its first round trip, that the key still belongs to the app (`keyCheck`): a rotated key is
 * refused (10003) from the moment the rotation commits, in every process, with no extra round
 * trip on the hottest path. There is no grace period: an SDK still sending the old key gets 10003
 * and must be given the new one.
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import {
  APP_KEY_HEADER, ErrorCode, INGEST_LIMITS, IdentifyRequest, IngestBatch, ProfileRequest, endpoints, fail, isBuiltInEvent,
  type Result,
} from '@gd/shared';
import type { z } from 'zod';
import type { Deps } from '../../http/context.ts';
import { sendFailure, sendKo, sendOk } from '../../http/respond.ts';
import { parseWith } from '../../http/validate.ts';
import { tx, type DbClient } from '../../db/pool.ts';
import { earliestFor, prepareEvents, prepareInteractions } from './prepare.ts';
import {
  findAppByKey, insertInteractions, recordEventNames, upsertDevice, writeBatch, type IngestApp,
} from './repository.ts';
import { identify, setTags, updateProfile } from './profiles.ts';
import { TokenBuckets, UNKNOWN_KEY_LIMIT } from './rateLimit.ts';
import { sdkCors } from '../../http/sdkCors.ts';

const KEY_CACHE_MS = 10_000;
/** Deadlock, serialization failure, or a unique key (a customer id) taken by a concurrent identify. */
const LOST_RACE = new Set(['40P01', '40001', '23505']);
/** What the key check raises when the key no longer belongs to the app (division_by_zero). */
const KEY_GONE = '22012';

/** The key no longer opens the app (rotated, or the app deleted) since it was cached. */
class KeyGone extends Error {}

/**
 * A statement for the transaction's first round trip (after BEGIN, in the same simple query) that
 * fails with KEY_GONE unless `key` is still the app's key. Simple queries take no parameters: the
 * app id is a uuid and the key goes in as its MD5 in hex, so nothing a caller sends is ever in the
 * SQL text.
 */
function keyCheck(app: IngestApp, key: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(app.id)) throw new Error('app ids are uuids');
  const digest = createHash('md5').update(key, 'utf8').digest('hex');
  return `SELECT 1 / count(*)::int FROM apps WHERE id = '${app.id}'::uuid AND md5(app_key) = '${digest}'`;
}

/** Runs `fn` in a transaction whose BEGIN checks the key; `fn` with `begin` and the app's key bound. */
type InTx = <T>(begin: string, fn: (client: DbClient) => Promise<T>) => Promise<T>;

export interface IngestOptions {
  ratePerSecond: number;
  rateBurst: number;
  /**
   * false: batches commit without waiting for the WAL flush (synchronous_commit off for these
   * transactions only). A Postgres crash can then lose the batches acknowledged in the last
   * moment (at most about 3 × wal_writer_delay, 600 ms by default); it never leaves a batch half
   * written. It shortens every batch's hold on the shared daily rollup rows, the ingestion
   * bottleneck. true: every acknowledged batch is on disk.
   */
  durableCommit: boolean;
}

export function ingestRouter(deps: Deps, options: IngestOptions): Router {
  const router = express.Router();
  const keys = new Map<string, { app: IngestApp | null; until: number }>();
  const knownNames = new Map<string, Set<string>>();
  const buckets = new TokenBuckets({ perSecond: options.ratePerSecond, burst: options.rateBurst });
  const unknownKeys = new TokenBuckets(UNKNOWN_KEY_LIMIT);
  const throttled = (res: Response, wait: number, what: string) => {
    res.setHeader('Retry-After', String(wait));
    sendKo(res, ErrorCode.NO_PERMISSION, `Rate limit ${what} exceeded: retry later`, undefined, 429);
  };

  router.use(sdkCors('POST'));
  router.use(express.json({ limit: INGEST_LIMITS.maxBodyBytes, type: ['application/json', 'text/plain'] }));

  async function appFor(req: Request): Promise<Result<IngestApp>> {
    const key = req.get(APP_KEY_HEADER);
    if (!key) return fail(ErrorCode.API_KEY_MISSING, `The ${APP_KEY_HEADER} header is missing`);
    const now = Date.now();
    let cached = keys.get(key);
    if (!cached || cached.until < now) {
      if (keys.size > 10_000) keys.clear();
      cached = { app: await findAppByKey(deps.db, key), until: now + KEY_CACHE_MS };
      keys.set(key, cached);
    }
    if (!cached.app) return fail(ErrorCode.API_KEY_INVALID, 'Unknown app key');
    return { ok: true, value: cached.app };
  }

  /**
   * A transaction retried on a lost race (up to 3 tries), opened with the key check: KeyGone when
   * the key no longer opens the app.
   */
  function inTxFor(app: IngestApp, key: string): InTx {
    const check = keyCheck(app, key);
    return async (begin, fn) => {
      for (let attempt = 1; ; attempt++) {
        let inside = false;
        try {
          return await tx(deps.db, (client) => { inside = true; return fn(client); }, `${begin}; ${check}`);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (!inside && code === KEY_GONE) throw new KeyGone();
          if (attempt >= 3 || !code || !LOST_RACE.has(code)) throw error;
        }
      }
    };
  }

  /** One endpoint: key, rate limit, body schema, then `work` in a transaction retried on a lost race. */
  function handle<S extends z.ZodType, T>(name: 'ingestBatch' | 'ingestIdentify' | 'ingestProfile', schema: S,
    work: (app: IngestApp, body: z.output<S>, req: Request, inTx: InTx) => Promise<Result<T>>) {
    router.post(endpoints[name].path.replace('/ingest', ''), async (req: Request, res: Response) => {
      try {
        const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
        const known = keys.get(req.get(APP_KEY_HEADER) ?? '')?.app;
        // An address that keeps sending unknown keys waits before any more of its keys are looked up.
        const blocked = known ? 0 : unknownKeys.peek(address);
        if (blocked > 0) return throttled(res, blocked, 'for unknown app keys from this address');
        const app = await appFor(req);
        if (!app.ok) {
          unknownKeys.take(address);
          return sendFailure(res, app);
        }
        const wait = buckets.take(app.value.id);
        if (wait > 0) return throttled(res, wait, 'of this app key');
        const body = parseWith(schema, req.body ?? {});
        if (!body.ok) return sendFailure(res, body);
        const key = req.get(APP_KEY_HEADER) ?? '';
        let result: Result<T>;
        try {
          result = await work(app.value, body.value, req, inTxFor(app.value, key));
        } catch (error) {
          if (!(error instanceof KeyGone)) throw error;
          keys.delete(key);
          unknownKeys.take(address);
          return sendFailure(res, fail(ErrorCode.API_KEY_INVALID, 'Unknown app key'));
        }
        if (!result.ok) return sendFailure(res, result);
        sendOk(res, result.value as object);
      } catch (error) {
        deps.log.error({ err: error, path: req.path }, 'ingestion failed');
        sendKo(res, ErrorCode.DATABASE_ERROR, 'Could not store the data: retry later', undefined, 503);
      }
    });
  }

  handle('ingestBatch', IngestBatch, async (app, body, req, inTx) => {
    const receivedAt = new Date();
    // Months have their partitions made ahead by a job (partitions.ts); a request never creates tables.
    const bounds = { now: receivedAt, earliest: earliestFor(app.createdAt) };
    const events = prepareEvents(body.events, bounds);
    const interactions = prepareInteractions(body.interactions, bounds);
    const names = knownNames.get(app.id) ?? new Set<string>();
    knownNames.set(app.id, names);
    const newNames = [...new Set(events.rows.map((r) => r.name))].filter((n) => !isBuiltInEvent(n) && !names.has(n));
    const begin = options.durableCommit ? 'BEGIN' : 'BEGIN; SET LOCAL synchronous_commit = off';
    const stored = await inTx(begin, async (client) => {
      const batch = await writeBatch(client, app, body.device, req.ip ?? null, receivedAt, events.rows);
      const fresh = new Set(events.rows.filter((r) => !batch.seen.has(r.clientId)).map((r) => r.clientId));
      await recordEventNames(client, app.id, newNames, receivedAt);
      const ctx = { appId: app.id, personId: batch.personId, deviceId: batch.deviceId, receivedAt };
      const freshInteractions = await insertInteractions(client, ctx, interactions.rows);
      return { fresh, freshInteractions };
    });
    for (const n of newNames) names.add(n);
    const split = <R extends { clientId: string }>(rows: R[], fresh: Set<string>, repeated: string[]) => ({
      accepted: rows.filter((r) => fresh.has(r.clientId)).map((r) => r.clientId),
      duplicates: [...rows.filter((r) => !fresh.has(r.clientId)).map((r) => r.clientId), ...repeated],
    });
    const e = split(events.rows, stored.fresh, events.repeated);
    const i = split(interactions.rows, stored.freshInteractions, interactions.repeated);
    return {
      ok: true,
      value: {
        ...e, rejected: events.rejected, clamped: events.clamped,
        interactions: { ...i, rejected: interactions.rejected },
      },
    };
  });

  handle('ingestIdentify', IdentifyRequest, async (app, body, req, inTx) => {
    const now = new Date();
    const outcome = await inTx('BEGIN', async (client) => {
      const result = await identify(client, app.id, body.device, body.customerId, req.ip ?? null, now);
      if (body.profile) await updateProfile(client, app.id, result.personId, body.profile, now);
      return result;
    });
    return { ok: true, value: outcome };
  });

  handle('ingestProfile', ProfileRequest, async (app, body, req, inTx) => {
    const now = new Date();
    const value = await inTx('BEGIN', async (client) => {
      const device = await upsertDevice(client, app.id, body.device, req.ip ?? null, now);
      if (body.profile) await updateProfile(client, app.id, device.personId, body.profile, now);
      const tags = body.tags ? await setTags(client, app.id, device.personId, body.tags, now) : { applied: [], rejected: [] };
      return { personId: device.personId, tags };
    });
    return { ok: true, value };
  });

  router.use((error: { type?: string }, req: Request, res: Response, next: (e?: unknown) => void) => {
    if (error.type === 'entity.too.large') return sendKo(res, ErrorCode.MANDATORY, `Body too large: at most ${INGEST_LIMITS.maxBodyBytes} bytes; send smaller batches`, undefined, 413);
    if (error.type === 'entity.parse.failed') return sendKo(res, ErrorCode.MANDATORY, 'Malformed JSON body', undefined, 400);
    next(error);
  });
  return router;
}
