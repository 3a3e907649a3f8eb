/**
 * Audience shares (shared endpoints/audienceShare.ts; what a share is: shared audienceShare/model.ts).
 * A share's entry key (`ui:audience.share<Social|SearchAds|TradeDesk>`) is checked for the
 * integration's service: another entry's key does not reach it (10004). An audience that is not
 * the app's answers 10004 (as the audience routes do); an integration or a share that is not the
 * app's, 10 — exactly as an unused id.
 *
 * Sharing and "sync now" mark the share due and wake this process's share loop (run.ts); the run
 * goes in the background (the loop of this process, or a worker's) and the screen follows its state.
 * Deleting removes what the share uploaded from the platform audience first (run.ts
 * `removeEverything`), unless `keepOnPlatform=true`.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import {
  ErrorCode, INTEGRATION_SERVICES, SHARE_PERMISSION, can, conflict, fail, ok, sharePlatform, type PermissionSubject, type ServiceDef, type ShareEntry,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import * as repo from './repository.ts';
import { platformAudienceName, removeEverything, wakeAudienceShares } from './run.ts';

const noAudience = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');
const noIntegration = () => fail(ErrorCode.NOT_EXIST, 'No such integration', [{ path: 'integrationId', message: 'No such integration' }]);
const noShare = () => fail(ErrorCode.NOT_EXIST, 'No such share');
const denied = () => fail(ErrorCode.NO_PERMISSION, 'Your role may not share audiences to this kind of platform');

const ENTRIES: readonly ShareEntry[] = ['social', 'searchAds', 'tradeDesk'];
const entryOf = (service: string): ShareEntry | undefined => (INTEGRATION_SERVICES as Record<string, ServiceDef>)[service]?.share;
const mayShare = (subject: PermissionSubject, entry: ShareEntry) => can(subject, SHARE_PERMISSION[entry]);

/** The shape of a platform audience id the user names, per service. */
const PLATFORM_ID_SHAPES: Record<string, { pattern: RegExp; hint: string }> = {
  meta_ads: { pattern: /^\d{5,30}$/, hint: 'A Meta custom audience id is a number' },
  google_ads: { pattern: /^customers\/\d+\/userLists\/\d+$/, hint: 'A Google Ads user list is named customers/<customer id>/userLists/<list id>' },
  the_trade_desk: { pattern: /^[\w.:-]{1,128}$/, hint: 'A Trade Desk segment name is letters, digits and _ - . :' },
};

export function audienceShareRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const audienceOf = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findAudience(db, appId, id) : Promise.resolve(undefined));
  const shareOf = (appId: string, audienceId: string, id: string | undefined) => (id && isUuid(id) ? repo.findShare(db, appId, audienceId, id) : Promise.resolve(undefined));

  route(router, deps, 'audienceShares', async ({ app, params }) => {
    const audience = await audienceOf(app.id, params.audienceId);
    if (!audience) return noAudience();
    return ok({ shares: (await repo.listShares(db, app.id, audience.id)).map(repo.toShare) });
  });

  route(router, deps, 'audienceShareTargets', async ({ app, subject }) => {
    const entries = ENTRIES.filter((e) => mayShare(subject, e));
    const services = Object.keys(INTEGRATION_SERVICES).filter((s) => { const e = entryOf(s); return e !== undefined && entries.includes(e); });
    const rows = await repo.integrationsOf(db, app.id, services);
    return ok({ targets: rows.flatMap((r) => { const entry = entryOf(r.service); return entry ? [repo.toTarget(r, entry, sharePlatform(r.service) !== undefined)] : []; }) });
  });

  route(router, deps, 'createAudienceShare', async ({ app, principal, subject, params, body }) => {
    const audience = await audienceOf(app.id, params.audienceId);
    if (!audience) return noAudience();
    const integration = await repo.findIntegrationBrief(db, app.id, body.integrationId);
    if (!integration) return noIntegration();
    const entry = entryOf(integration.service);
    if (!entry) return fail(ErrorCode.MANDATORY, 'Audiences cannot be shared through this integration: pick a social, search-ads or trade-desk platform', [{ path: 'integrationId', message: 'not_share_service' }]);
    if (!mayShare(subject, entry)) return denied();
    if (!sharePlatform(integration.service)) return fail(ErrorCode.MANDATORY, `Audiences cannot be shared to ${integration.service} yet`, [{ path: 'integrationId', message: 'not_supported' }]);
    const named = body.platformAudienceId;
    const shape = PLATFORM_ID_SHAPES[integration.service];
    if (named !== undefined && shape && !shape.pattern.test(named)) return fail(ErrorCode.MANDATORY, shape.hint, [{ path: 'platformAudienceId', message: shape.hint }]);
    const id = randomUUID();
    try {
      await repo.insertShare(db, {
        id, accountId: principal.account.id, appId: app.id, audienceId: audience.id, integrationId: integration.id, service: integration.service, entry,
        platformAudienceId: named ?? null, platformAudienceName: named ?? platformAudienceName(integration.service, audience), createdBy: principal.user.id,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return fail(ErrorCode.NAME_DUPLICATED, 'This audience is already shared through that integration', [{ path: 'integrationId', message: 'Already shared through this integration' }]);
      throw error;
    }
    wakeAudienceShares();
    const row = await repo.findShare(db, app.id, audience.id, id);
    return row ? ok({ share: repo.toShare(row) }) : noShare();
  });

  route(router, deps, 'syncAudienceShare', async ({ app, subject, params }) => {
    const audience = await audienceOf(app.id, params.audienceId);
    if (!audience) return noAudience();
    const share = await shareOf(app.id, audience.id, params.shareId);
    if (!share) return noShare();
    if (!mayShare(subject, share.entry)) return denied();
    if (!(await repo.markDue(db, app.id, share.id))) return conflict('This share is being sent now; its state shows when it ends');
    wakeAudienceShares();
    const row = await repo.findShare(db, app.id, audience.id, share.id);
    return row ? ok({ share: repo.toShare(row) }) : noShare();
  });

  route(router, deps, 'deleteAudienceShare', async ({ app, subject, params, query }) => {
    const audience = await audienceOf(app.id, params.audienceId);
    if (!audience) return noAudience();
    const share = await shareOf(app.id, audience.id, params.shareId);
    if (!share) return noShare();
    if (!mayShare(subject, share.entry)) return denied();
    if (!(await repo.leaseForDeletion(db, app.id, share.id))) return conflict('This share is being sent now; stop it when the run ends');
    if (query.keepOnPlatform !== 'true') {
      const removed = await removeEverything(deps, share).catch(async (error: unknown) => {
        await repo.releaseLease(db, share.id);
        throw error;
      });
      if (!removed.ok) {
        await repo.releaseLease(db, share.id);
        return fail(removed.code, `The people this share uploaded could not be removed from the platform audience: ${removed.message}. Fix the integration, or stop sharing without removing them`);
      }
    }
    await repo.deleteShare(db, app.id, share.id);
    return ok({});
  });
}
