/**
 * Web push routes (endpoints/webPush.ts).
 *
 * - The app settings screen (session, /user/app): read the VAPID public key and subject, enable
 *   (the server makes the pair) or change the subject, rotate, disable.
 * - The web SDK (`webPushSdkRouter`, mounted under /api/ingest/v1/web-push before the ingestion
 *   router): the app key in X-App-Key, CORS open to any origin, no cookies or CSRF, like ingestion.
 *   The key, its cache and the throttles are the process's shared `AppKeyAuth`
 *   (http/appKeyAuth.ts): these calls spend the app's one per-key budget with ingestion and the
 *   SDK's messages. A subscription is stored in a transaction that checks the key again, so a
 *   rotated app key stores nothing.
 */
import express, { type Request, type Response, type Router } from 'express';
import { ErrorCode, fail, ok, type Result } from '@gd/shared';
import { WebPushSubscribeRequest, WebPushUnsubscribeRequest } from '@gd/shared/schemas/webPush';
import type { z } from 'zod';
import type { Deps } from '../../../http/context.ts';
import { route } from '../../../http/endpoint.ts';
import { sendFailure, sendKo, sendOk } from '../../../http/respond.ts';
import { parseWith } from '../../../http/validate.ts';
import { KeyGone, type AppCaller, type AppKeyAuth } from '../../../http/appKeyAuth.ts';
import { upsertDevice } from '../../ingest/repository.ts';
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

export function webPushSdkRouter(deps: Deps, auth: AppKeyAuth): Router {
  const router = express.Router();
  // Read once at start: a listed host that is not loopback stops the process here.
  const allowHosts = webPushAllowHosts(deps.config.WEB_PUSH_ALLOW_HOSTS);

  router.use(sdkCors('GET, POST'));
  router.use(express.json({ limit: 16 * 1024, type: ['application/json', 'text/plain'] }));

  function handle(method: 'get' | 'post', path: string, work: (caller: AppCaller, req: Request) => Promise<Result<object>>) {
    router[method](path, async (req: Request, res: Response) => {
      try {
        const caller = await auth.authenticate(req, res);
        if (!caller) return;
        let result: Result<object>;
        try {
          result = await work(caller, req);
        } catch (error) {
          if (!(error instanceof KeyGone)) throw error;
          return auth.refuseGone(res, caller);
        }
        if (!result.ok) return sendFailure(res, result);
        sendOk(res, result.value);
      } catch (error) {
        deps.log.error({ err: error, path: req.path }, 'web push subscription failed');
        sendKo(res, ErrorCode.DATABASE_ERROR, 'Could not store the subscription: retry later', undefined, 503);
      }
    });
  }
  const body = <S extends z.ZodType>(schema: S, req: Request) => parseWith(schema, req.body ?? {});

  handle('get', '/key', async ({ app }) => {
    const settings = await webPushSettings(deps.db, app.id);
    return settings ? ok({ publicKey: settings.publicKey }) : fail(ErrorCode.NOT_EXIST, NO_WEB_PUSH);
  });

  handle('post', '/subscribe', async (caller, req) => {
    const { app } = caller;
    const parsed = body(WebPushSubscribeRequest, req);
    if (!parsed.ok) return parsed;
    const { device, subscription } = parsed.value;
    const problem = endpointProblem(subscription.endpoint, allowHosts);
    if (problem) return fail(ErrorCode.MANDATORY, `subscription.endpoint: ${problem}`, [{ path: 'subscription.endpoint', message: problem }]);
    const personId = await auth.checkedTx(deps.db, caller, async (client) => {
      const ref = await upsertDevice(client, app.id, device, req.ip ?? null, new Date());
      await saveSubscription(client, app.id, ref.deviceId, subscription);
      return ref.personId;
    });
    return ok({ personId });
  });

  handle('post', '/unsubscribe', async ({ app }, req) => {
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
