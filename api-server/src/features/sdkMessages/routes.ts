/**
 * The SDK's message endpoints under /api/sdk/v1 (contract: shared/src/schemas/sdkMessages.ts):
 * in-app messages on offer, native ads by placement, coupon redemptions. Authenticated by the app
 * key in `X-App-Key` like ingestion, never by cookies (no CSRF), CORS open to any origin so the web
 * SDK works from the customer's site, rate limited per key with ingestion's limits.
 *
 * The key is looked up on every request (one indexed read): a rotated key stops at once, in every
 * process, as ingestion's does. Who is asking: the device the SDK names (its install id); a device
 * that never sent a batch has no person yet and is offered nothing.
 *
 * Web pages (requests with an Origin) are offered in-app messages only where the app's web plugin
 * is on and lists the page's host (shared `pluginAllowsHost`); a loopback page (a developer's
 * machine: localhost, 127.0.0.1, [::1]) passes the host check so an integration can be tried
 * before its site is listed, but the plugin must still be on. Apps (no Origin) are not held by it.
 */
import express, { type Request, type Response, type Router } from 'express';
import { APP_KEY_HEADER, DEFAULT_WEB_PLUGIN, ErrorCode, endpoints, fail, ok, pluginAllowsHost, type MessageDraft, type Result } from '@gd/shared';
import { fillNativeAd } from '@gd/shared/message/nativeAd';
import {
  InAppQuery, MAX_REDEEMS_REACHED, NativeAdsQuery, RedeemRequest,
  type InAppMessage, type InAppType, type NativeAd, type SdkPluginLook,
} from '@gd/shared/schemas/sdkMessages';
import type { z } from 'zod';
import { tx, type Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { sendFailure, sendKo, sendOk } from '../../http/respond.ts';
import { isUuid, parseWith } from '../../http/validate.ts';
import { contentFor } from '../delivery/email.ts';
import { sentToday } from '../delivery/send.ts';
import { findAppByKey, type IngestApp } from '../ingest/repository.ts';
import { TokenBuckets, UNKNOWN_KEY_LIMIT } from '../ingest/rateLimit.ts';
import { decideOffers, redeemsLeft, refusal, type Offer } from './eligibility.ts';
import * as repo from './repository.ts';
import { sdkCors } from '../../http/sdkCors.ts';

export interface SdkMessagesOptions { ratePerSecond: number; rateBurst: number }

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

export function sdkMessagesRouter(deps: Deps, options: SdkMessagesOptions): Router {
  const router = express.Router();
  const buckets = new TokenBuckets({ perSecond: options.ratePerSecond, burst: options.rateBurst });
  const unknownKeys = new TokenBuckets(UNKNOWN_KEY_LIMIT);
  /** Runs' definitions are immutable: kept per process (bounded). */
  const definitions = new Map<string, MessageDraft>();
  const definitionOf = (db: Queryable) => async (sendId: string) => {
    let d = definitions.get(sendId);
    if (!d) {
      d = await repo.runDefinition(db, sendId);
      if (definitions.size > 500) definitions.clear();
      definitions.set(sendId, d);
    }
    return d;
  };

  router.use(sdkCors('GET, POST'));
  router.use(express.json({ limit: '16kb', type: ['application/json', 'text/plain'] }));

  function handle<S extends z.ZodType, T>(name: 'sdkInApp' | 'sdkNativeAds' | 'sdkRedeem', schema: S, work: (app: IngestApp, input: z.output<S>, req: Request) => Promise<Result<T>>) {
    const e = endpoints[name];
    const path = e.path.replace(/^\/sdk/, '');
    const method = e.method === 'GET' ? 'get' : 'post';
    router[method](path, async (req: Request, res: Response) => {
      try {
        const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
        const blocked = unknownKeys.peek(address);
        if (blocked > 0) {
          res.setHeader('Retry-After', String(blocked));
          return sendKo(res, ErrorCode.NO_PERMISSION, 'Rate limit for unknown app keys from this address exceeded: retry later', undefined, 429);
        }
        const key = req.get(APP_KEY_HEADER);
        if (!key) return sendFailure(res, fail(ErrorCode.API_KEY_MISSING, `The ${APP_KEY_HEADER} header is missing`));
        const app = await findAppByKey(deps.db, key);
        if (!app) {
          unknownKeys.take(address);
          return sendFailure(res, fail(ErrorCode.API_KEY_INVALID, 'Unknown app key'));
        }
        const wait = buckets.take(app.id);
        if (wait > 0) {
          res.setHeader('Retry-After', String(wait));
          return sendKo(res, ErrorCode.NO_PERMISSION, 'Rate limit of this app key exceeded: retry later', undefined, 429);
        }
        const input = parseWith(schema, e.method === 'GET' ? req.query : req.body ?? {});
        if (!input.ok) return sendFailure(res, input);
        const result = await work(app, input.value, req);
        if (!result.ok) return sendFailure(res, result);
        sendOk(res, result.value as object);
      } catch (error) {
        deps.log.error({ err: error, path: req.path }, 'sdk message request failed');
        sendKo(res, ErrorCode.DATABASE_ERROR, 'Could not answer: retry later', undefined, 503);
      }
    });
  }

  /** The person's offers of one kind, the first offers marked delivered, in one short transaction per person. */
  async function offersFor(app: IngestApp, deviceId: string, want: { kind: 'inApp' } | { kind: 'nativeAd' }, lang: string | undefined): Promise<Offer[]> {
    const person = await repo.personOfDevice(deps.db, app.id, deviceId);
    if (!person) return [];
    const now = new Date();
    return tx(deps.db, async (client) => {
      // One decision at a time per person: two pages asking at once count against the cap once each.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sdk-offers:${app.id}:${person.personId}`]);
      const { candidates, timeZone } = await repo.candidatesOf(client, app.id, person.personId, definitionOf(client));
      if (candidates.length === 0) return [];
      const counts = await sentToday(client, [{ app_id: app.id, person_id: person.personId, time_zone: timeZone ?? app.timezone, test: false }], now);
      const { offers, deliver } = decideOffers(candidates, { want, now, lang: lang ?? null, sentToday: counts.get(`${app.id}:${person.personId}:inApp`) ?? 0,
        person: { customer_id: person.customerId } });
      await repo.markDelivered(client, deliver, now);
      return offers;
    });
  }

  handle('sdkInApp', InAppQuery, async (app, query, req) => {
    const plugin = await repo.pluginOf(deps.db, app.id);
    const look: SdkPluginLook = plugin
      ? { position: plugin.position, accentColor: plugin.accent_color, zIndex: plugin.z_index, closeButton: plugin.close_button }
      : { position: DEFAULT_WEB_PLUGIN.position, accentColor: DEFAULT_WEB_PLUGIN.accentColor, zIndex: DEFAULT_WEB_PLUGIN.zIndex, closeButton: DEFAULT_WEB_PLUGIN.closeButton };
    if (!pageAllowed(req.get('origin'), plugin)) return ok({ messages: [], plugin: look });
    const offers = await offersFor(app, query.deviceId, { kind: 'inApp' }, query.lang);
    const messages: InAppMessage[] = offers.map(({ candidate: c, content, language, redeemsLeft: left }) => ({
      messageId: c.messageId, campaignId: c.campaignId, variantId: c.variantId, test: c.test, type: content.type as InAppType, language,
      title: content.title, message: content.message, image_url: content.image_url, target_url: content.target_url,
      buttons: content.buttons, position: content.position, shown_time: content.shown_time,
      promo_code: content.type === 'coupon' ? content.promo_code : '', redeemsLeft: left, expiresAt: c.expiresAt?.toISOString() ?? null,
    }));
    return ok({ messages, plugin: look });
  });

  handle('sdkNativeAds', NativeAdsQuery, async (app, query) => {
    const { templates } = await repo.templatesFor(deps.db, app.id);
    const defaultTemplate = templates.find((t) => t.isDefault);
    const placement = query.placement?.trim().toLowerCase();
    const wanted = !placement || placement === 'default'
      ? defaultTemplate
      // The app's own template of that name first, then the platform's.
      : templates.find((t) => t.id === placement) ?? templates.find((t) => t.appOwned && t.name.toLowerCase() === placement) ?? templates.find((t) => t.name.toLowerCase() === placement);
    if (!wanted) return ok({ ads: [] });
    const offers = await offersFor(app, query.deviceId, { kind: 'nativeAd' }, query.lang);
    const ads: NativeAd[] = [];
    for (const { candidate: c, content } of offers) {
      const templateId = content.template_id && templates.some((t) => t.id === content.template_id) ? content.template_id : defaultTemplate?.id;
      if (templateId !== wanted.id) continue;
      const filled = fillNativeAd(wanted, content);
      ads.push({ messageId: c.messageId, campaignId: c.campaignId, variantId: c.variantId, test: c.test, templateId: wanted.id, templateName: wanted.name, ...filled });
      if (ads.length >= (query.limit ?? 5)) break;
    }
    return ok({ ads });
  });

  handle('sdkRedeem', RedeemRequest, async (app, body) => {
    const notOffered = fail(ErrorCode.NOT_EXIST, 'This message is not on offer to this device');
    const person = await repo.personOfDevice(deps.db, app.id, body.device.id);
    if (!person || !isUuid(body.messageId)) return notOffered;
    const now = new Date();
    return tx(deps.db, async (client) => {
      const row = await repo.lockRow(client, app.id, person.personId, body.messageId);
      if (!row) return notOffered;
      const definition = await definitionOf(client)(row.sendId);
      const content = contentFor(definition, row.variantId, row.language);
      const redeems = await repo.redeemCount(client, body.messageId, person.personId);
      const answer = (counted: boolean, n: number) => ok({ counted, promoCode: content?.promo_code ?? '', redeems: n, redeemsLeft: content ? redeemsLeft(content, n) : null });
      const earlier = await repo.redemptionByClientId(client, app.id, body.clientId);
      if (earlier) return answer(false, redeems);
      const why = refusal({
        rowId: row.rowId, messageId: body.messageId, campaignId: '', variantId: row.variantId, language: row.language, status: row.status, test: row.test,
        runAt: row.runAt, expiresAt: row.expiresAt, messageStatus: row.messageStatus, definition, redeems, clicked: false, dismissed: false,
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
