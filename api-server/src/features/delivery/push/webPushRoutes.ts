/**
 * Web push routes (endpoints/webPush.ts).
 *
 * - The app settings screen (session, /user/app): read the VAPID public key and subject, enable
 *   (the server makes the pair) or change the subject, rotate, disable.
 * - The web SDK (`webPushSdkRouter`, mounted under /api/ingest/v1/web-push before the ingestion
 *   router): the app key in X-App-Key, CORS open to any origin, no cookies or CSRF, like ingestion.
 *   Keys are looked up on every call (these calls are rare: once per browser and key), so a
 *   rotated app key is refused at once; an address that keeps sending unknown keys is throttled
 *   like ingestion's.
 */
import express, { type Request, type Response, type Router } from 'express';
import { APP_KEY_HEADER, ErrorCode, fail, ok, type Result } from '@gd/shared';
import { WebPushSubscribeRequest, WebPushUnsubscribeRequest } from '@gd/shared/schemas/webPush';
import type { z } from 'zod';
import type { Deps } from '../../../http/context.ts';
import { route } from '../../../http/endpoint.ts';
import { sendFailure, sendKo, sendOk } from '../../../http/respond.ts';
import { parseWith } from '../../../http/validate.ts';
import { tx } from '../../../db/pool.ts';
import { findAppByKey, upsertDevice, type IngestApp } from '../../ingest/repository.ts';
import { TokenBuckets, UNKNOWN_KEY_LIMIT } from '../../ingest/rateLimit.ts';
import {
  disableWebPush, enableWebPush, endpointProblem, removeSubscription, rotateWebPushKeys, saveSubscription, webPushAllowHosts, webPushSettings,
} from './webPush.ts';
import { sdkCors } from '../../../http/sdkCors.ts';

const NO_WEB_PUSH = 'Web push is not enabled for this app';

export function webPushRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  route(router, deps, 'getWebPush', async ({ app }) => ok({ webPush: await webPushSettings(db, app.id) }));
  route(router, deps, 'putWebPush', async ({ app, body }) => ok({ webPush: await enableWebPush(db, deps.secret, app.id, body.subject) }));
  route(router, deps, 'rotateWebPush', async ({ app }) => {
    const webPush = await rotateWebPushKeys(db, deps.secret, app.id);
    return webPush ? ok({ webPush }) : fail(ErrorCode.NOT_EXIST, NO_WEB_PUSH);
  });
  route(router, deps, 'deleteWebPush', async ({ app }) => ((await disableWebPush(db, app.id)) ? ok({}) : fail(ErrorCode.NOT_EXIST, NO_WEB_PUSH)));
}

/** Per app key: a page subscribes once; this only stops a loop gone wrong. */
const SDK_LIMIT = { perSecond: 50, burst: 200 } as const;

export function webPushSdkRouter(deps: Deps): Router {
  const router = express.Router();
  // Read once at start: a listed host that is not loopback stops the process here.
  const allowHosts = webPushAllowHosts(deps.config.WEB_PUSH_ALLOW_HOSTS);
  const buckets = new TokenBuckets(SDK_LIMIT);
  const unknownKeys = new TokenBuckets(UNKNOWN_KEY_LIMIT);

  router.use(sdkCors('GET, POST'));
  router.use(express.json({ limit: 16 * 1024, type: ['application/json', 'text/plain'] }));

  /** The caller's app, or the refusal already answered. */
  async function appOf(req: Request, res: Response): Promise<IngestApp | null> {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const blocked = unknownKeys.peek(address);
    const key = req.get(APP_KEY_HEADER);
    if (!key) {
      sendFailure(res, fail(ErrorCode.API_KEY_MISSING, `The ${APP_KEY_HEADER} header is missing`));
      return null;
    }
    if (blocked > 0) {
      res.setHeader('Retry-After', String(blocked));
      sendKo(res, ErrorCode.NO_PERMISSION, 'Rate limit for unknown app keys from this address exceeded: retry later', undefined, 429);
      return null;
    }
    const app = await findAppByKey(deps.db, key);
    if (!app) {
      unknownKeys.take(address);
      sendFailure(res, fail(ErrorCode.API_KEY_INVALID, 'Unknown app key'));
      return null;
    }
    const wait = buckets.take(app.id);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      sendKo(res, ErrorCode.NO_PERMISSION, 'Rate limit of this app key exceeded: retry later', undefined, 429);
      return null;
    }
    return app;
  }

  function handle(method: 'get' | 'post', path: string, work: (app: IngestApp, req: Request) => Promise<Result<object>>) {
    router[method](path, async (req: Request, res: Response) => {
      try {
        const app = await appOf(req, res);
        if (!app) return;
        const result = await work(app, req);
        if (!result.ok) return sendFailure(res, result);
        sendOk(res, result.value);
      } catch (error) {
        deps.log.error({ err: error, path: req.path }, 'web push subscription failed');
        sendKo(res, ErrorCode.DATABASE_ERROR, 'Could not store the subscription: retry later', undefined, 503);
      }
    });
  }
  const body = <S extends z.ZodType>(schema: S, req: Request) => parseWith(schema, req.body ?? {});

  handle('get', '/key', async (app) => {
    const settings = await webPushSettings(deps.db, app.id);
    return settings ? ok({ publicKey: settings.publicKey }) : fail(ErrorCode.NOT_EXIST, NO_WEB_PUSH);
  });

  handle('post', '/subscribe', async (app, req) => {
    const parsed = body(WebPushSubscribeRequest, req);
    if (!parsed.ok) return parsed;
    const { device, subscription } = parsed.value;
    const problem = endpointProblem(subscription.endpoint, allowHosts);
    if (problem) return fail(ErrorCode.MANDATORY, `subscription.endpoint: ${problem}`, [{ path: 'subscription.endpoint', message: problem }]);
    const personId = await tx(deps.db, async (client) => {
      const ref = await upsertDevice(client, app.id, device, req.ip ?? null, new Date());
      await saveSubscription(client, app.id, ref.deviceId, subscription);
      return ref.personId;
    });
    return ok({ personId });
  });

  handle('post', '/unsubscribe', async (app, req) => {
    const parsed = body(WebPushUnsubscribeRequest, req);
    if (!parsed.ok) return parsed;
    return ok({ removed: await removeSubscription(deps.db, app.id, parsed.value.device.id, parsed.value.endpoint) });
  });

  router.use((error: { type?: string }, _req: Request, res: Response, next: (e?: unknown) => void) => {
    if (error.type === 'entity.too.large') return sendKo(res, ErrorCode.MANDATORY, 'Body too large', undefined, 413);
    if (error.type === 'entity.parse.failed') return sendKo(res, ErrorCode.MANDATORY, 'Malformed JSON body', undefined, 400);
    next(error);
  });
  return router;
}
