/**
 * SKAdNetwork (/acquisition/skadnetwork).
 *
 * The receiver (`skanPostbackRouter`, mounted before the session API: no cookies, no CSRF) takes
 * Apple's postbacks at POST /api/skan/v4/postback and at the developer-copy address
 * POST /.well-known/skadnetwork/report-attribution. It reads the body (shared SkanPostbackBody; a
 * body that is not a postback answers 10001), finds the app by its App Store id (none: 200 with
 * stored false, so the device stops retrying), checks Apple's signature (verify.ts) and stores the
 * postback once per transaction id and window, verified or rejected with the reason. It answers
 * 200 for every postback it read, even rejected ones: Apple's devices retry only on failures.
 *
 * The session routes: settings (App Store id, mappings of source identifiers to campaigns; an
 * unknown campaign of the app answers 10 like an unused id), the conversion-value schema, the
 * postbacks list and the decoded figures per campaign.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ErrorCode, fail, ok, type App } from '@gd/shared';
import { SkanPostbackBody, decodeSkanValue, resolveSkanCampaign, skanFacts, skanFigures } from '@gd/shared/acquisition/skan';
import { SKAN_LIMITS, type SkanSettings } from '@gd/shared/schemas/skan';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { sendFailure, sendKo, sendOk } from '../../http/respond.ts';
import { parseWith, refuseUnstorableText } from '../../http/validate.ts';
import * as repo from './repository.ts';
import { skanKeys, verifySkanPostback, type SkanKeys } from './verify.ts';

/** The addresses Apple may send this app's postbacks to (the developer copy's is fixed by Apple). */
function postbackAddresses(deps: Deps): string[] {
  const base = (deps.config.PUBLIC_URL ?? deps.listenUrl ?? `http://${deps.config.HOST}:${deps.config.PORT}`).replace(/\/+$/, '');
  return [`${base}/.well-known/skadnetwork/report-attribution`, `${base}/api/skan/v4/postback`];
}

async function settingsOf(deps: Deps, app: App): Promise<SkanSettings> {
  const s = await repo.readSettings(deps.db, app.id);
  return { ...s, endpoints: postbackAddresses(deps) };
}

export function skanPostbackRouter(deps: Deps, keys: SkanKeys = skanKeys(deps.config.SKAN_PUBLIC_KEYS)): Router {
  const router = express.Router();
  router.use(express.json({ limit: '16kb', type: () => true }));
  router.use(refuseUnstorableText('body'));
  router.post('/', async (req, res, next) => {
    try {
      const parsed = parseWith(SkanPostbackBody, req.body ?? {});
      if (!parsed.ok) return sendFailure(res, parsed);
      const postback = parsed.value;
      const facts = skanFacts(postback);
      const appId = await repo.appOfStoreId(deps.db, facts.appStoreId);
      if (!appId) return sendOk(res, { stored: false, verified: false, duplicate: false });
      const verdict = verifySkanPostback(keys, postback);
      const outcome = await repo.insertPostback(deps.db, appId, facts, verdict.verified ? { verified: true, reason: null } : { verified: false, reason: verdict.reason }, req.body);
      if (!verdict.verified) deps.log.warn({ appId, transactionId: facts.transactionId, reason: verdict.reason }, 'SKAdNetwork postback rejected');
      sendOk(res, { stored: outcome !== 'duplicate', verified: verdict.verified, duplicate: outcome === 'duplicate' });
    } catch (error) {
      next(error);
    }
  });
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const type = (error as { type?: string } | null)?.type;
    if (type === 'entity.parse.failed') return sendKo(res, ErrorCode.MANDATORY, 'Malformed JSON body', undefined, 400);
    if (type === 'entity.too.large') return sendKo(res, ErrorCode.GENERIC, 'Request body too large (limit 16kb)', undefined, 413);
    deps.log.error({ err: error }, 'SKAdNetwork postback failed');
    sendKo(res, ErrorCode.GENERIC, 'Internal error', undefined, 500);
  });
  return router;
}

const campaignNotFound = (indexes: number[]) =>
  fail(ErrorCode.NOT_EXIST, 'No such campaign in this app', indexes.map((i) => ({ path: `mappings.${i}.campaignId`, message: 'not_found' })));

export function skanRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'skanSettings', async ({ app }) => ok({ settings: await settingsOf(deps, app) }));

  route(router, deps, 'updateSkanSettings', async ({ app, principal, body }) => {
    const live = await repo.liveCampaigns(db, app.id, [...new Set(body.mappings.map((m) => m.campaignId.toLowerCase()))]);
    const unknown = body.mappings.flatMap((m, i) => (live.has(m.campaignId.toLowerCase()) ? [] : [i]));
    if (unknown.length) return campaignNotFound(unknown);
    try {
      await tx(db, (client) => repo.saveSettings(client, app.id, principal.user.id, body.appStoreId, body.mappings));
    } catch (error) {
      if (isUniqueViolation(error, 'skan_settings_app_store_id')) {
        return fail(ErrorCode.NAME_DUPLICATED, 'Another app already has this App Store id', [{ path: 'appStoreId', message: 'app_store_id_taken' }]);
      }
      throw error;
    }
    return ok({ settings: await settingsOf(deps, app) });
  });

  route(router, deps, 'updateSkanSchema', async ({ app, principal, body }) => {
    await repo.saveSchema(db, app.id, principal.user.id, body);
    return ok({ settings: await settingsOf(deps, app) });
  });

  route(router, deps, 'skanPostbacks', async ({ app, query }) => {
    const [{ rows, total }, settings] = await Promise.all([
      repo.listPostbacks(db, app.id, { ...query, timezone: app.timezone, limit: SKAN_LIMITS.pageSize }),
      repo.readSettings(db, app.id),
    ]);
    const resolved = rows.map((r) => ({ row: r, campaignId: resolveSkanCampaign(settings.mappings, r.adNetworkId, r.sourceIdentifier) }));
    const names = await repo.campaignNames(db, app.id, [...new Set(resolved.flatMap((r) => (r.campaignId ? [r.campaignId] : [])))]);
    return ok({
      total,
      postbacks: resolved.map(({ row, campaignId }) => {
        const decoded = decodeSkanValue(settings.schema, row);
        return {
          ...row, campaignId, campaignName: campaignId ? names.get(campaignId) ?? null : null,
          events: decoded.events, revenueMin: decoded.mapped ? decoded.revenueMin : null, revenueMax: decoded.mapped ? decoded.revenueMax : null,
        };
      }),
    });
  });

  route(router, deps, 'skanFigures', async ({ app, query }) => {
    const [{ rows, rejected }, settings] = await Promise.all([
      repo.figureRows(db, app.id, { ...query, timezone: app.timezone }),
      repo.readSettings(db, app.id),
    ]);
    const figures = skanFigures(rows, settings.schema, settings.mappings);
    const names = await repo.campaignNames(db, app.id, figures.flatMap((f) => (f.campaignId ? [f.campaignId] : [])));
    const campaigns = figures
      .map((f) => ({ ...f, campaignName: f.campaignId ? names.get(f.campaignId) ?? null : null }))
      .sort((a, b) => (a.campaignId === null) !== (b.campaignId === null) ? (a.campaignId === null ? 1 : -1) : (a.campaignName ?? '').localeCompare(b.campaignName ?? ''));
    return ok({ campaigns, currency: settings.schema.currency, rejected });
  });
}

