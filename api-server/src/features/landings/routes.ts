/**
 * Landing pages of an app (/manage/landings): list with visits, read, create, edit, publish,
 * unpublish, delete, and a landing's visits per day. The public page is host.ts.
 *
 * A landing of another app or account answers 10 like an unknown id; so do a campaign or link id
 * that is not a live one of the app. Every write is one transaction (the domain check, its lock
 * and the row together). A slug taken on the same domain answers 30 on `slug`; a domain another
 * account uses answers 30 on `domain`.
 */
import type { Router } from 'express';
import { ErrorCode, fail, ok, type App, type LandingInput } from '@gd/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx, type DbClient } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { landingBaseUrl } from '../links/host.ts';
import { isOwnHost, landingHostState } from './host.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'Landing page not found');
const noCampaign = () => fail(ErrorCode.NOT_EXIST, 'Campaign not found', [{ path: 'campaignId', message: 'not_found' }]);
const noLink = () => fail(ErrorCode.NOT_EXIST, 'Link not found', [{ path: 'linkId', message: 'not_found' }]);
const linkElsewhere = () => fail(ErrorCode.MANDATORY, 'linkId: the link belongs to another campaign than the one chosen', [{ path: 'linkId', message: 'link_campaign' }]);
const slugTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'That address is already in use', [{ path: 'slug', message: 'slug_taken' }]);
const domainTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'That domain is used by another account', [{ path: 'domain', message: 'domain_taken' }]);
const reserved = () => fail(ErrorCode.MANDATORY, 'domain: this is an address of the product itself', [{ path: 'domain', message: 'domain_reserved' }]);
const empty = () => fail(ErrorCode.MANDATORY, 'blocks: a landing page needs at least one block to be published', [{ path: 'blocks', message: 'empty' }]);

export function landingRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const host = landingHostState(deps);
  const base = () => landingBaseUrl(deps);
  const read = async (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findLanding(db, appId, id, base()) : undefined);

  route(router, deps, 'landings', async ({ app, query }) => ok({ landings: await repo.listLandings(db, app.id, query, base()), hostBase: base() }));

  route(router, deps, 'landing', async ({ app, params }) => {
    const landing = await read(app.id, params.landingId);
    return landing ? ok({ landing }) : notFound();
  });

  /**
   * The domain is not the product's own; the body's campaign and link are live ones of the app, the
   * link of the campaign when both are given.
   */
  const references = async (appId: string, body: LandingInput) => {
    if (body.domain && isOwnHost(deps, body.domain)) return reserved();
    if (body.campaignId && !(await repo.campaignOfApp(db, appId, body.campaignId))) return noCampaign();
    if (body.linkId) {
      const link = await repo.linkOfApp(db, appId, body.linkId);
      if (!link) return noLink();
      if (body.campaignId && link.campaignId !== body.campaignId) return linkElsewhere();
    }
    return undefined;
  };

  /** Saves in one transaction with the domain rule; a taken address answers 30. */
  const save = async (app: App, write: (client: DbClient) => Promise<string | undefined>, body: LandingInput) => {
    try {
      return await tx(db, async (client) => {
        if (body.domain && (await repo.domainTakenElsewhere(client, app.accountId, body.domain))) return 'domain' as const;
        return write(client);
      });
    } catch (error) {
      if (isUniqueViolation(error, repo.ADDRESS_INDEX)) return 'slug' as const;
      throw error;
    }
  };

  route(router, deps, 'createLanding', async ({ app, principal, body }) => {
    const refused = await references(app.id, body);
    if (refused) return refused;
    const id = await save(app, (client) => repo.insertLanding(client, app, principal.user.id, body), body);
    if (id === 'domain') return domainTaken();
    if (id === 'slug') return slugTaken();
    const landing = id && (await read(app.id, id));
    if (!landing) throw new Error('created landing not found');
    return ok({ landing });
  });

  route(router, deps, 'updateLanding', async ({ app, params, body }) => {
    const current = await read(app.id, params.landingId);
    if (!current) return notFound();
    const refused = await references(app.id, body);
    if (refused) return refused;
    const saved = await save(app, async (client) => ((await repo.updateLanding(client, app.id, current.id, body)) ? current.id : undefined), body);
    if (saved === 'domain') return domainTaken();
    if (saved === 'slug') return slugTaken();
    if (!saved) return notFound();
    host.forget(current.slug, current.domain);
    host.forget(body.slug, body.domain ?? null);
    const landing = await read(app.id, current.id);
    return landing ? ok({ landing }) : notFound();
  });

  const setStatus = (name: 'publishLanding' | 'unpublishLanding', status: 'published' | 'draft') =>
    route(router, deps, name, async ({ app, params }) => {
      const current = await read(app.id, params.landingId);
      if (!current) return notFound();
      if (status === 'published' && current.blocks.length === 0) return empty();
      if (!(await repo.setStatus(db, app.id, current.id, status))) return notFound();
      host.forget(current.slug, current.domain);
      const landing = await read(app.id, current.id);
      return landing ? ok({ landing }) : notFound();
    });
  setStatus('publishLanding', 'published');
  setStatus('unpublishLanding', 'draft');

  route(router, deps, 'deleteLanding', async ({ app, params }) => {
    const id = params.landingId ?? '';
    const gone = isUuid(id) ? await repo.deleteLanding(db, app.id, id) : undefined;
    if (!gone) return notFound();
    host.forget(gone.slug, gone.domain);
    return ok({});
  });

  route(router, deps, 'landingVisits', async ({ app, params, query }) => {
    const id = params.landingId ?? '';
    if (!isUuid(id) || !(await repo.findLanding(db, app.id, id, base()))) return notFound();
    return ok({ days: await repo.visitsByDay(db, app.id, id, query.days) });
  });
}
