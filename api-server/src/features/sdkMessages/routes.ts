/**
 * The SDK's message endpoints under /api/sdk/v1 (contract: shared/src/schemas/sdkMessages.ts):
 * in-app messages on offer, native ads by placement, coupon redemptions. Authenticated by the app
 * key in `X-App-Key` like ingestion, never by cookies (no CSRF), CORS open to any origin so the web
 * SDK works from the customer's site, rate limited per key with ingestion's limits.
 *
 * The key, its cache and the throttles are the process's shared `AppKeyAuth` (http/appKeyAuth.ts):
 * these calls spend the app's one per-key budget with ingestion. Every transaction (an offer that
 * marks rows delivered, a redemption) checks the key again in its first round trip, so a rotated
 * key is refused (10003) and changes nothing from the moment the rotation commits, in every
 * process; only answers that open no transaction (a device with no person, a placement with no
 * template) may still come from a cached key for up to KEY_CACHE_MS. Who is asking: the
 * device the SDK names (its install id); a device that never sent a batch has no person yet and
 * is offered nothing.
 *
 * Round trips of a page view (in-app): the device's person and the web plugin (one query), then
 * one transaction: BEGIN with the key check and the person's lock (one), the rows on offer (one),
 * the runs' definitions only when not cached, today's deliveries only when a capped row would be
 * delivered, the delivery only when there is one, COMMIT.
 *
 * Web pages (requests with an Origin) are offered in-app messages only where the app's web plugin
 * is on and lists the page's host (shared `pluginAllowsHost`); a loopback page (a developer's
 * machine: localhost, 127.0.0.1, [::1]) passes the host check so an integration can be tried
 * before its site is listed, but the plugin must still be on. Apps (no Origin) are not held by it.
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { DEFAULT_WEB_PLUGIN, ErrorCode, endpoints, fail, ok, pluginAllowsHost, type MessageContent, type Result } from '@gd/shared';
import { fillNativeAd } from '@gd/shared/message/nativeAd';
import {
  InAppQuery, MAX_REDEEMS_REACHED, NativeAdsQuery, RedeemRequest,
  type InAppMessage, type InAppType, type NativeAd, type SdkPluginLook,
} from '@gd/shared/schemas/sdkMessages';
import type { z } from 'zod';
import { KeyGone, type AppCaller, type AppKeyAuth } from '../../http/appKeyAuth.ts';
import type { Deps } from '../../http/context.ts';
import { sendFailure, sendKo, sendOk } from '../../http/respond.ts';
import { isUuid, parseWith } from '../../http/validate.ts';
import { contentFor } from '../delivery/email.ts';
import { sentToday } from '../delivery/send.ts';
import { decideOffers, redeemsLeft, refusal, type Offer, type Want } from './eligibility.ts';
import * as repo from './repository.ts';
import { RunDefinitions } from '../delivery/runDefinitions.ts';
import { sdkCors } from '../../http/sdkCors.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a web page at `origin` may show the app's in-app messages (see the module's comment). */
export function pageAllowed(origin: string | undefined, plugin: { enabled: boolean; domains: readonly string[] } | null): boolean {
  if (!origin) return true;
  if (!plugin?.enabled) return false;
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return false;
  }
  return LOOPBACK.has(host) || pluginAllowsHost(plugin.domains, host);
}

/**
 * The statement that takes the person's offer lock, for the transaction's first round trip (a
 * simple query: no parameters, so the key is a number computed here from ids the server made).
 */
function offerLock(appId: string, personId: string): string {
  const key = BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(`sdk-offers:${appId}:${personId}`).digest('hex').slice(0, 16)}`));
  return `SELECT pg_advisory_xact_lock(${key.toString()})`;
}

export function sdkMessagesRouter(deps: Deps, auth: AppKeyAuth): Router {
  const router = express.Router();
  /** Runs' definitions are immutable: kept per process (bounded). */
  const runs = new RunDefinitions();

  router.use(sdkCors('GET, POST'));
  router.use(express.json({ limit: '16kb', type: ['application/json', 'text/plain'] }));

  function handle<S extends z.ZodType, T>(name: 'sdkInApp' | 'sdkNativeAds' | 'sdkRedeem', schema: S, work: (caller: AppCaller, input: z.output<S>, req: Request) => Promise<Result<T>>) {
    const e = endpoints[name];
    const path = e.path.replace(/^\/sdk/, '');
    const method = e.method === 'GET' ? 'get' : 'post';
    router[method](path, async (req: Request, res: Response) => {
      try {
        const caller = await auth.authenticate(req, res);
        if (!caller) return;
        const input = parseWith(schema, e.method === 'GET' ? req.query : req.body ?? {});
        if (!input.ok) return sendFailure(res, input);
        let result: Result<T>;
        try {
          result = await work(caller, input.value, req);
        } catch (error) {
          if (!(error instanceof KeyGone)) throw error;
          return auth.refuseGone(res, caller);
        }
        if (!result.ok) return sendFailure(res, result);
        sendOk(res, result.value as object);
      } catch (error) {
        deps.log.error({ err: error, path: req.path }, 'sdk message request failed');
        sendKo(res, ErrorCode.DATABASE_ERROR, 'Could not answer: retry later', undefined, 503);
      }
    });
  }

  /**
   * The person's offers of one kind (at most `limit`), those first offered now marked delivered,
   * in one short transaction per person.
   */
  async function offersFor(caller: AppCaller, person: { personId: string; customerId: string | null }, want: Want, lang: string | undefined, limit?: number): Promise<Offer[]> {
    const { app } = caller;
    const now = new Date();
    // One decision at a time per person: two pages asking at once count against the cap once each.
    return auth.checkedTx(deps.db, caller, async (client) => {
      const { candidates, timeZone } = await repo.candidatesOf(client, app.id, person.personId, now, runs);
      if (candidates.length === 0) return [];
      // Today's deliveries matter only when a row not yet delivered is capped.
      const capped = candidates.some((c) => c.status === 'queued' && !c.test && c.definition.delivery.frequencyCap !== null);
      const counts = capped ? await sentToday(client, [{ app_id: app.id, person_id: person.personId, time_zone: timeZone ?? app.timezone, test: false }], now) : new Map<string, number>();
      const { offers, deliver } = decideOffers(candidates, { want, now, lang: lang ?? null, sentToday: counts.get(`${app.id}:${person.personId}:inApp`) ?? 0,
        person: { customer_id: person.customerId }, ...(limit === undefined ? {} : { limit }) });
      await repo.markDelivered(client, deliver, now);
      return offers;
    }, `BEGIN; ${offerLock(app.id, person.personId)}`);
  }

  handle('sdkInApp', InAppQuery, async (caller, query, req) => {
    const { person, plugin } = await repo.personAndPlugin(deps.db, caller.app.id, query.deviceId);
    const look: SdkPluginLook = plugin
      ? { position: plugin.position, accentColor: plugin.accent_color, zIndex: plugin.z_index, closeButton: plugin.close_button }
      : { position: DEFAULT_WEB_PLUGIN.position, accentColor: DEFAULT_WEB_PLUGIN.accentColor, zIndex: DEFAULT_WEB_PLUGIN.zIndex, closeButton: DEFAULT_WEB_PLUGIN.closeButton };
    if (!pageAllowed(req.get('origin'), plugin)) return ok({ messages: [], plugin: look });
    const offers = person ? await offersFor(caller, person, { kind: 'inApp' }, query.lang) : [];
    const messages: InAppMessage[] = offers.map(({ candidate: c, content, language, redeemsLeft: left }) => ({
      messageId: c.messageId, campaignId: c.campaignId, variantId: c.variantId, test: c.test, type: content.type as InAppType, language,
      title: content.title, message: content.message, image_url: content.image_url, target_url: content.target_url,
      buttons: content.buttons, position: content.position, shown_time: content.shown_time,
      promo_code: content.type === 'coupon' ? content.promo_code : '', redeemsLeft: left, expiresAt: c.expiresAt?.toISOString() ?? null,
    }));
    return ok({ messages, plugin: look });
  });

  handle('sdkNativeAds', NativeAdsQuery, async (caller, query) => {
    const { templates } = await repo.templatesFor(deps.db, caller.app.id);
    const defaultTemplate = templates.find((t) => t.isDefault);
    const placement = query.placement?.trim().toLowerCase();
    const wanted = !placement || placement === 'default'
      ? defaultTemplate
      // The app's own template of that name first, then the platform's.
      : templates.find((t) => t.id === placement) ?? templates.find((t) => t.appOwned && t.name.toLowerCase() === placement) ?? templates.find((t) => t.name.toLowerCase() === placement);
    if (!wanted) return ok({ ads: [] });
    const person = await repo.personOfDevice(deps.db, caller.app.id, query.deviceId);
    if (!person) return ok({ ads: [] });
    // An ad is shown through its content's template when the app has it, else the default one.
    const templateOf = (content: MessageContent) => (content.template_id && templates.some((t) => t.id === content.template_id) ? content.template_id : defaultTemplate?.id);
    // Only the ads returned (this placement's, up to the limit) are marked delivered.
    const offers = await offersFor(caller, person, { kind: 'nativeAd', templateId: wanted.id, templateOf }, query.lang, query.limit ?? 5);
    const ads: NativeAd[] = offers.map(({ candidate: c, content }) => ({
      messageId: c.messageId, campaignId: c.campaignId, variantId: c.variantId, test: c.test, templateId: wanted.id, templateName: wanted.name, ...fillNativeAd(wanted, content),
    }));
    return ok({ ads });
  });

  handle('sdkRedeem', RedeemRequest, async (caller, body) => {
    const { app } = caller;
    const notOffered = fail(ErrorCode.NOT_EXIST, 'This message is not on offer to this device');
    const person = await repo.personOfDevice(deps.db, app.id, body.device.id);
    if (!person || !isUuid(body.messageId)) return notOffered;
    const now = new Date();
    return auth.checkedTx(deps.db, caller, async (client) => {
      const row = await repo.lockRow(client, app.id, person.personId, body.messageId);
      if (!row) return notOffered;
      const { definition } = await runs.get(client, row.sendId);
      const content = contentFor(definition, row.variantId, row.language);
      const redeems = await repo.redeemCount(client, body.messageId, person.personId);
      const answer = (counted: boolean, n: number) => ok({ counted, promoCode: content?.promo_code ?? '', redeems: n, redeemsLeft: content ? redeemsLeft(content, n) : null });
      const earlier = await repo.redemptionByClientId(client, app.id, body.clientId);
      if (earlier) return answer(false, redeems);
      const why = refusal({
        rowId: row.rowId, messageId: body.messageId, campaignId: '', variantId: row.variantId, language: row.language, status: row.status, test: row.test,
        runAt: row.runAt, expiresAt: row.expiresAt, messageStatus: row.messageStatus, standing: row.standing, definition, redeems, clicked: false, dismissed: false,
      }, content, { kind: 'inApp' }, now);
      if (why === 'redeemed') {
        return { ok: false as const, code: ErrorCode.NO_PERMISSION, message: `${MAX_REDEEMS_REACHED}: this person has redeemed the coupon ${content?.max_redeems ?? 0} times, its limit`, details: [{ path: 'messageId', message: MAX_REDEEMS_REACHED }], httpStatus: 409 };
      }
      if (why !== null || content?.type !== 'coupon') return notOffered;
      const counted = await repo.insertRedemption(client, { appId: app.id, messageId: body.messageId, variantId: row.variantId, personId: person.personId, promoCode: content.promo_code, clientId: body.clientId, at: now });
      // Redeeming it shows it was delivered.
      await repo.markDelivered(client, [row.rowId], now);
      return answer(counted, counted ? redeems + 1 : redeems);
    });
  });

  return router;
}
