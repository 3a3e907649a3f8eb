/**
 * The SDK's deferred deep link call, `POST /api/sdk/v1/deferred-link` (shared
 * schemas/attribution.ts): authenticated by the app key like ingestion (no cookies, no CSRF, CORS
 * open to any origin), throttled with the app's one per-key budget (http/appKeyAuth.ts).
 *
 * The device's pending installs are attributed at once (engine.ts, the same rules and SQL as the
 * loop), then the latest install's deep link is handed over once (repository.ts
 * `deliverDeepLink`) in a transaction that checks the key still opens the app. An unknown device,
 * an Organic install, a click without a deep link, or a second call answer `deepLink: null`.
 */
import express, { type Request, type Response, type Router } from 'express';
import { DeferredLinkRequest, ErrorCode, endpoints, type DeferredLinkAnswer } from '@gd/shared';
import { KeyGone, type AppKeyAuth } from '../../http/appKeyAuth.ts';
import type { Deps } from '../../http/context.ts';
import { sendFailure, sendKo, sendOk } from '../../http/respond.ts';
import { parseWith } from '../../http/validate.ts';
import { sdkCors } from '../../http/sdkCors.ts';
import { attributePending } from './engine.ts';
import { deliverDeepLink, deviceOf } from './repository.ts';

const stringsOf = (params: Record<string, unknown> | null): Record<string, string> | null =>
  params && Object.fromEntries(Object.entries(params).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

export function deferredLinkRouter(deps: Deps, auth: AppKeyAuth): Router {
  const router = express.Router();
  const e = endpoints.deferredDeepLink;
  const path = e.path.replace(/^\/sdk/, '');
  router.use(path, sdkCors('POST'));
  router.post(path, express.json({ limit: '4kb', type: ['application/json', 'text/plain'] }), async (req: Request, res: Response) => {
    try {
      const caller = await auth.authenticate(req, res);
      if (!caller) return;
      const body = parseWith(DeferredLinkRequest, req.body ?? {});
      if (!body.ok) return sendFailure(res, body);
      const none: DeferredLinkAnswer = { deepLink: null, params: null };
      const deviceId = await deviceOf(deps.db, caller.app.id, body.value.device);
      if (!deviceId) return sendOk(res, none);
      await attributePending(deps.db, { appId: caller.app.id, deviceId });
      try {
        const link = await auth.checkedTx(deps.db, caller, (client) => deliverDeepLink(client, caller.app.id, deviceId));
        sendOk(res, link ? { deepLink: link.deepLink, params: stringsOf(link.params) } : none);
      } catch (error) {
        if (!(error instanceof KeyGone)) throw error;
        auth.refuseGone(res, caller);
      }
    } catch (error) {
      deps.log.error({ err: error, path: req.path }, 'deferred deep link failed');
      sendKo(res, ErrorCode.DATABASE_ERROR, 'Could not answer: retry later', undefined, 503);
    }
  });
  router.use(path, (error: { type?: string }, _req: Request, res: Response, next: (e?: unknown) => void) => {
    if (error.type === 'entity.parse.failed') return sendKo(res, ErrorCode.MANDATORY, 'Malformed JSON body', undefined, 400);
    if (error.type === 'entity.too.large') return sendKo(res, ErrorCode.MANDATORY, 'Body too large', undefined, 413);
    next(error);
  });
  return router;
}
