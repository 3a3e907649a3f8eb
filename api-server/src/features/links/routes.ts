/**
 * Links of an app (/acquisition/links, /acquisition/powlinks): list with click counts, read,
 * create, edit, delete, and a link's latest clicks. The host itself is host.ts.
 *
 * A link of another app or account, a deleted one, or one outside a provider user's provider
 * answers 10 like an unknown id; so does a campaign id that is not a live campaign of the app.
 * Edit and delete honour the owner variants (`ui:apptracker.edit:owner`: the links one created).
 */
import { randomInt } from 'node:crypto';
import type { Router } from 'express';
import { can, ErrorCode, fail, LINK_CLICKS_LIMIT, ok, type LinkInput, type LinkUpdate, type PermissionKey, type PermissionSubject } from '@gd/shared';
import { GENERATED_CODE_LENGTH, hasDestination, mergeDestinations } from '@gd/shared/acquisition/links';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps, Principal } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { linkBaseUrl, linkHostState } from './host.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'Link not found');
const noCampaign = () => fail(ErrorCode.NOT_EXIST, 'Campaign not found', [{ path: 'campaignId', message: 'not_found' }]);
const codeTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'That short code is already in use', [{ path: 'code', message: 'code_taken' }]);
const noLanding = () => fail(ErrorCode.NOT_EXIST, 'Landing page not found', [{ path: 'landingId', message: 'landing_not_found' }]);
const noDestination = () => fail(ErrorCode.MANDATORY, 'destinations: give a store or web address for at least one platform (here or on the campaign)', [{ path: 'destinations', message: 'no_destination' }]);

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A generated code: 8 characters of an alphabet without look-alikes (0/O, 1/l/I). */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export function linkRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const host = linkHostState(deps);
  const scopeOf = async (appId: string, principal: Principal): Promise<repo.LinkScope> => ({
    appId, providerId: await repo.memberProvider(db, principal.account.id, principal.user.id),
  });
  const allowed = (subject: PermissionSubject, key: PermissionKey, createdBy: string | null) => can(subject, key, { ownerId: createdBy });

  route(router, deps, 'links', async ({ app, principal, query }) => {
    const baseUrl = linkBaseUrl(deps);
    return ok({ links: await repo.listLinks(db, await scopeOf(app.id, principal), query, baseUrl), baseUrl });
  });

  const read = async (scope: repo.LinkScope, id: string | undefined) => (id && isUuid(id) ? repo.findLink(db, scope, id, linkBaseUrl(deps)) : undefined);

  route(router, deps, 'link', async ({ app, principal, params }) => {
    const link = await read(await scopeOf(app.id, principal), params.linkId);
    return link ? ok({ link: strip(link) }) : notFound();
  });

  /**
   * The body's campaign is a live one of the app (in scope), its landing (if any) a landing page of
   * the app, and the link goes somewhere (a landing counts as a web fallback).
   */
  const check = async (scope: repo.LinkScope, body: LinkInput | LinkUpdate) => {
    const campaign = await repo.findCampaign(db, scope, body.campaignId);
    if (!campaign) return noCampaign();
    if (body.landingId && !(await repo.landingOfApp(db, scope.appId, body.landingId))) return noLanding();
    if (!body.landingId && !hasDestination(mergeDestinations(body.destinations, campaign.destinations))) return noDestination();
    return undefined;
  };

  route(router, deps, 'createLink', async ({ app, principal, body }) => {
    const scope = await scopeOf(app.id, principal);
    const refused = await check(scope, body);
    if (refused) return refused;
    // A generated code that collides (rare) is drawn again; a chosen one answers 30.
    for (let attempt = 0; ; attempt++) {
      const code = body.code ?? generateCode();
      try {
        const id = await repo.insertLink(db, app.id, principal.user.id, { ...body, code });
        host.forget(code);
        const link = await read(scope, id);
        if (!link) throw new Error('created link not found');
        return ok({ link: strip(link) });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (body.code !== undefined || attempt >= 4) return codeTaken();
      }
    }
  });

  route(router, deps, 'updateLink', async ({ app, principal, subject, params, body }) => {
    const scope = await scopeOf(app.id, principal);
    const current = await read(scope, params.linkId);
    if (!current || !allowed(subject, 'ui:apptracker.edit', current.createdBy)) return notFound();
    const refused = await check(scope, body);
    if (refused) return refused;
    if (!(await repo.updateLink(db, app.id, current.id, body))) return notFound();
    host.forget(current.code);
    const link = await read(scope, current.id);
    return link ? ok({ link: strip(link) }) : notFound();
  });

  route(router, deps, 'deleteLink', async ({ app, principal, subject, params }) => {
    const scope = await scopeOf(app.id, principal);
    const current = await read(scope, params.linkId);
    if (!current || !allowed(subject, 'ui:apptracker.delete', current.createdBy)) return notFound();
    if (!(await repo.deleteLink(db, app.id, current.id))) return notFound();
    host.forget(current.code);
    return ok({});
  });

  route(router, deps, 'linkClicks', async ({ app, principal, params }) => {
    const link = await read(await scopeOf(app.id, principal), params.linkId);
    return link ? ok({ clicks: await repo.latestClicks(db, app.id, link.id, LINK_CLICKS_LIMIT) }) : notFound();
  });
}

const strip = ({ createdBy: _createdBy, ...link }: Awaited<ReturnType<typeof repo.findLink>> & object) => link;
