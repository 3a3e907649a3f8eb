/**
 * The ingestion API under /api/ingest/v1 (contract: shared/src/schemas/ingest.ts). Authenticated
 * by the app key in `X-App-Key`, never by cookies: no CSRF check, and CORS open to any origin so
 * the web SDK works from the customer's site. Its own JSON limit (INGEST_LIMITS.maxBodyBytes).
 *
 * The key, its caching and the throttles are the process's shared `AppKeyAuth` (http/appKeyAuth.ts:
 * one per-key budget across ingestion, SDK messages and web push). Keys are cached for
 * KEY_CACHE_MS per process, and every request's transaction checks again, in its first round
 * trip, that the key still belongs to the app (`checkedTx`): a rotated key is
 * refused (10003) from the moment the rotation commits, in every process, with no extra round
 * trip on the hottest path. There is no grace period: an SDK still sending the old key gets 10003
 * and must be given the new one.
 */
import express, { type Request, type Response, type Router } from 'express';
import {
  ErrorCode, INGEST_LIMITS, IdentifyRequest, IngestBatch, ProfileRequest, endpoints, isBuiltInEvent,
  type Result,
} from '@gd/shared';
import type { z } from 'zod';
import type { Deps } from '../../http/context.ts';
import { sendFailure, sendKo, sendOk } from '../../http/respond.ts';
import { parseWith } from '../../http/validate.ts';
import type { DbClient } from '../../db/pool.ts';
import { KeyGone, type AppCaller, type AppKeyAuth } from '../../http/appKeyAuth.ts';
import { earliestFor, prepareEvents, prepareInteractions } from './prepare.ts';
import {
  insertInteractions, recordEventNames, upsertDevice, writeBatch, type IngestApp,
} from './repository.ts';
import { identify, setTags, updateProfile } from './profiles.ts';
import { recordEventTriggers, recordInteractionTriggers } from './triggers.ts';
import { sdkCors } from '../../http/sdkCors.ts';
import { recordPending } from '../attribution/pending.ts';
import { wakeAttribution } from '../attribution/loop.ts';

/** Deadlock, serialization failure, or a unique key (a customer id) taken by a concurrent identify. */
const LOST_RACE = new Set(['40P01', '40001', '23505']);

/** Runs `fn` in a transaction whose BEGIN checks the key; `fn` with `begin` and the app's key bound. */
type InTx = <T>(begin: string, fn: (client: DbClient) => Promise<T>) => Promise<T>;

export interface IngestOptions {
  /**
   * false: batches commit without waiting for the WAL flush (synchronous_commit off for these
   * transactions only). A Postgres crash can then lose the batches acknowledged in the last
   * moment (at most about 3 × wal_writer_delay, 600 ms by default); it never leaves a batch half
   * written. It shortens every batch's hold on the shared daily rollup rows, the ingestion
   * bottleneck. true: every acknowledged batch is on disk.
   */
  durableCommit: boolean;
}

export function ingestRouter(deps: Deps, options: IngestOptions, auth: AppKeyAuth): Router {
  const router = express.Router();
  const knownNames = new Map<string, Set<string>>();

  router.use(sdkCors('POST'));
  router.use(express.json({ limit: INGEST_LIMITS.maxBodyBytes, type: ['application/json', 'text/plain'] }));

  /**
   * A transaction retried on a lost race (up to 3 tries), opened with the key check: KeyGone when
   * the key no longer opens the app.
   */
  function inTxFor(caller: AppCaller): InTx {
    return async (begin, fn) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await auth.checkedTx(deps.db, caller, fn, begin);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (attempt >= 3 || !code || !LOST_RACE.has(code)) throw error;
        }
      }
    };
  }

  /** One endpoint: key and rate limit (the shared `auth`), body schema, then `work` in a transaction retried on a lost race. */
  function handle<S extends z.ZodType, T>(name: 'ingestBatch' | 'ingestIdentify' | 'ingestProfile', schema: S,
    work: (app: IngestApp, body: z.output<S>, req: Request, inTx: InTx) => Promise<Result<T>>) {
    router.post(endpoints[name].path.replace('/ingest', ''), async (req: Request, res: Response) => {
      try {
        const caller = await auth.authenticate(req, res);
        if (!caller) return;
        const body = parseWith(schema, req.body ?? {});
        if (!body.ok) return sendFailure(res, body);
        let result: Result<T>;
        try {
          result = await work(caller.app, body.value, req, inTxFor(caller));
        } catch (error) {
          if (!(error instanceof KeyGone)) throw error;
          return auth.refuseGone(res, caller);
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
      const freshEvents = events.rows.filter((r) => fresh.has(r.clientId));
      // Installs, reinstalls and retargeting opens wait for attribution (features/attribution).
      const pending = await recordPending(client, { ...ctx, ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null }, freshEvents);
      // What the journey engine and the rules listen for, in the same transaction (triggers.ts).
      const triggered = await recordEventTriggers(client, app.id, batch.personId,
        freshEvents.map((r) => ({ name: r.name, at: r.time, properties: r.properties, clientId: r.clientId })))
        + await recordInteractionTriggers(client, app.id, batch.personId, interactions.rows.filter((r) => freshInteractions.has(r.clientId))
          .map((r) => ({ kind: r.kind, at: r.time, clientId: r.clientId, messageId: r.messageId, journeyId: r.journeyId, stepId: r.stepId })));
      return { fresh, freshInteractions, triggered, pending };
    });
    if (stored.triggered > 0) deps.notifyTriggers?.();
    if (stored.pending > 0) wakeAttribution();
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
