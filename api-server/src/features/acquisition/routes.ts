/**
 * The apptracker (issue 16, piece A): campaigns, sources and channels of an app; the account's
 * providers and their members; the platform's ad provider catalogue; the campaign list as CSV and
 * the fraud export. Figures come from the acquisition reports' `campaignFigures`.
 *
 * Visibility: a user who is a member of an account provider (provider_members) sees only the
 * campaigns and sources of that provider, and only that provider, on every route here: another
 * campaign answers 10 like an unknown one. Ids of another app or account answer 10 too (the
 * route's not-found) and change nothing. Several writes go in one transaction.
 */
import type { Response, Router } from 'express';
import { ErrorCode, can, conflict, fail, ok, type FieldIssue, type PermissionSubject } from '@gd/shared';
import type { Campaign, CampaignInput, CampaignListQuery } from '@gd/shared/schemas/acquisition';
import { ORGANIC_LABEL } from '@gd/shared/acquisition/model';
import type { App } from '@gd/shared';
import { tx, type Queryable } from '../../db/pool.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps, Principal } from '../../http/context.ts';
import { fileRoute, route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { todayIn } from '../analytics/repository.ts';
import { campaignFigures } from '../acqReports/figures.ts';
import { csvLine } from '../exports/csvCells.ts';
import { fraudRows } from './fraud.ts';
import * as repo from './repository.ts';

const notFound = (what: string) => fail(ErrorCode.NOT_EXIST, `${what} not found`);
const taken = (what: string) => fail(ErrorCode.NAME_DUPLICATED, `${what} with that name already exists`, [{ path: 'name', message: 'name_taken' }]);
const missing = (path: string, what: string) => fail(ErrorCode.NOT_EXIST, `${what} not found`, [{ path, message: 'not_found' }]);
const activeUrls = () => fail(ErrorCode.PROVIDER_HAS_ACTIVE_URLS, 'The provider has campaigns with active links: stop them first');

/** Runs a write, answering 30 when a unique name is taken. */
async function named<T>(what: string, write: () => Promise<T>): Promise<T | ReturnType<typeof taken>> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return taken(what);
    throw error;
  }
}
const isFailure = (v: unknown): v is ReturnType<typeof fail> => typeof v === 'object' && v !== null && 'ok' in v && v.ok === false;

/** The provider a member is restricted to, or the one asked for (others pick). */
async function providerScope(db: Queryable, principal: Principal, asked?: string): Promise<string | undefined> {
  const member = await repo.memberProvider(db, principal.account.id, principal.user.id);
  return member?.id ?? asked;
}

/** Campaigns of a list query, with the provider scope and ownership applied. */
async function visibleCampaigns(db: Queryable, app: App, principal: Principal, subject: PermissionSubject, q: CampaignListQuery): Promise<Campaign[]> {
  const accountProviderId = await providerScope(db, principal, q.accountProviderId);
  // Without the view key a user sees only the campaigns they created (owner variants).
  const mineOnly = q.owner === 'me' || !can(subject, 'ui:apptracker.view');
  return repo.listCampaigns(db, app.id, {
    scope: q.scope, today: await todayIn(db, app.timezone), ownerId: mineOnly ? principal.user.id : undefined, accountProviderId, categoryId: q.categoryId,
  });
}

async function figuresFor(db: Queryable, app: App, q: { startDay?: string | undefined; endDay?: string | undefined }, campaigns: Campaign[]) {
  if (!q.startDay || !q.endDay || campaigns.length === 0) return {};
  const map = await campaignFigures(db, app, { startDay: q.startDay, endDay: q.endDay }, { campaignIds: campaigns.map((c) => c.id) });
  return Object.fromEntries(map);
}

/** Checks a campaign's references (source, channel) against the app: 10 on the field that is not there. */
async function checkRefs(db: Queryable, appId: string, body: CampaignInput) {
  const refs = await repo.campaignRefsExist(db, appId, body.sourceId, body.channelId);
  if (!refs.source) return missing('sourceId', 'Source');
  if (!refs.channel) return missing('channelId', 'Channel');
  return null;
}

const fileHeaders = (res: Response, name: string) => {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.setHeader('Cache-Control', 'no-store');
};

export function acquisitionRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  // ---- Campaigns ----

  route(router, deps, 'campaigns', async ({ app, principal, subject, query }) => {
    const campaigns = await visibleCampaigns(db, app, principal, subject, query);
    return ok({ campaigns, figures: await figuresFor(db, app, query, campaigns) });
  });

  async function loadCampaign(app: App, principal: Principal, id: string | undefined) {
    if (!id || !isUuid(id)) return undefined;
    return repo.findCampaign(db, app.id, id, await providerScope(db, principal));
  }

  route(router, deps, 'campaign', async ({ app, principal, params }) => {
    const campaign = await loadCampaign(app, principal, params.campaignId);
    return campaign ? ok({ campaign }) : notFound('Campaign');
  });

  route(router, deps, 'createCampaign', async ({ app, principal, body }) => {
    const refused = await checkRefs(db, app.id, body);
    if (refused) return refused;
    const id = await named('A campaign', () => repo.insertCampaign(db, app.id, principal.user.id, body));
    if (isFailure(id)) return id;
    const campaign = await repo.findCampaign(db, app.id, id);
    return campaign ? ok({ campaign }) : notFound('Campaign');
  });

  route(router, deps, 'updateCampaign', async ({ app, principal, subject, params, body }) => {
    const current = await loadCampaign(app, principal, params.campaignId);
    if (!current || !can(subject, 'ui:apptracker.edit', { ownerId: current.createdBy })) return notFound('Campaign');
    const refused = await checkRefs(db, app.id, body);
    if (refused) return refused;
    const done = await named('A campaign', () => repo.updateCampaign(db, app.id, current.id, body));
    if (isFailure(done)) return done;
    const campaign = await repo.findCampaign(db, app.id, current.id);
    return campaign ? ok({ campaign }) : notFound('Campaign');
  });

  route(router, deps, 'cloneCampaign', async ({ app, principal, params, body }) => {
    const current = await loadCampaign(app, principal, params.campaignId);
    if (!current) return notFound('Campaign');
    const id = await named('A campaign', () => repo.cloneCampaign(db, app.id, current.id, body.name, principal.user.id));
    if (isFailure(id)) return id;
    const campaign = id ? await repo.findCampaign(db, app.id, id) : undefined;
    return campaign ? ok({ campaign }) : notFound('Campaign');
  });

  route(router, deps, 'deleteCampaign', async ({ app, principal, subject, params }) => {
    const current = await loadCampaign(app, principal, params.campaignId);
    if (!current || !can(subject, 'ui:apptracker.delete', { ownerId: current.createdBy })) return notFound('Campaign');
    const done = await tx(db, (client) => repo.deleteCampaign(client, app.id, current.id));
    return done ? ok({}) : notFound('Campaign');
  });

  fileRoute(router, deps, 'campaignsDownload', async ({ app, principal, subject, query, res }) => {
    const campaigns = await visibleCampaigns(db, app, principal, subject, query);
    const figures = await figuresFor(db, app, query, campaigns);
    const withFigures = Boolean(query.startDay && query.endDay);
    const head = ['campaign', 'source', 'source_type', 'provider', 'channel', 'pricing_model', 'cost_value', 'currency', 'status', 'start_day', 'end_day'];
    const metrics = ['clicks', 'unique_clicks', 'installs', 'reinstalls', 'uninstalls', 'reactivations', 'registers', 'sales', 'revenue', 'cost', 'arpu', 'roi', 'cpi', 'cpc', 'itr'] as const;
    let csv = csvLine(withFigures ? [...head, ...metrics] : head);
    for (const c of campaigns) {
      const row: (string | number | null)[] = [c.name, c.sourceName, c.sourceType, c.accountProviderName, c.channelName, c.pricingModel, c.costValue, c.currency, c.status, c.startDay, c.endDay];
      const f = figures[c.id];
      if (withFigures && f) {
        row.push(f.clicks, f.uniqueClicks, f.installs, f.reinstalls, f.uninstalls, f.reactivations, f.registers, f.sales, f.revenue, f.cost, f.arpu, f.roi, f.cpi, f.cpc, f.itr);
      }
      csv += csvLine(row);
    }
    const range = withFigures ? `-${query.startDay}-${query.endDay}` : '';
    fileHeaders(res, `campaigns${range}.csv`);
    res.end(Buffer.from(csv, 'utf8'));
    return undefined;
  });

  fileRoute(router, deps, 'fraudExport', async ({ app, principal, query, res }) => {
    const accountProviderId = await providerScope(db, principal, query.accountProviderId);
    const campaigns = await repo.listCampaigns(db, app.id, { scope: 'all', today: query.endDay, accountProviderId });
    const ids = query.campaignId ? campaigns.filter((c) => c.id === query.campaignId).map((c) => c.id) : campaigns.map((c) => c.id);
    if (query.campaignId && ids.length === 0) return notFound('Campaign');
    const rows = await fraudRows(db, { appId: app.id, timezone: app.timezone, startDay: query.startDay, endDay: query.endDay, campaignIds: ids });
    let csv = csvLine(['kind', 'time', 'campaign', 'source', 'reasons', 'detail', 'click_id', 'ip', 'device_id', 'platform', 'user_agent']);
    for (const r of rows) {
      csv += csvLine([r.kind, r.at.toISOString(), r.campaign_name, r.source_name, r.reasons.join(' '), r.detail, r.click_id, r.ip, r.device_id, r.platform, r.user_agent]);
    }
    fileHeaders(res, `fraud-${query.startDay}-${query.endDay}.csv`);
    res.end(Buffer.from(csv, 'utf8'));
    return undefined;
  });

  route(router, deps, 'providerView', async ({ principal }) => {
    const member = await repo.memberProvider(db, principal.account.id, principal.user.id);
    const providers = await repo.listAccountProviders(db, principal.account.id, member?.id);
    return ok({ view: { memberOf: member, providers: providers.map((p) => ({ id: p.id, name: p.name, kind: p.kind })) } });
  });

  // ---- Sources ----

  route(router, deps, 'sources', async ({ app, principal }) => ok({ sources: await repo.listSources(db, app.id, await providerScope(db, principal)) }));

  async function checkProvider(accountId: string, id: string | null) {
    return id === null || (await repo.accountProviderExists(db, accountId, id)) ? null : missing('accountProviderId', 'Provider');
  }

  route(router, deps, 'createSource', async ({ app, principal, body }) => {
    const refused = await checkProvider(principal.account.id, body.accountProviderId);
    if (refused) return refused;
    if (body.name.toLowerCase() === ORGANIC_LABEL.toLowerCase()) return reserved();
    const id = await named('A source', () => repo.insertSource(db, app.id, principal.user.id, body));
    if (isFailure(id)) return id;
    const source = await repo.findSource(db, app.id, id);
    return source ? ok({ source }) : notFound('Source');
  });

  route(router, deps, 'updateSource', async ({ app, principal, params, body }) => {
    const id = params.sourceId ?? '';
    if (!isUuid(id) || !(await repo.findSource(db, app.id, id))) return notFound('Source');
    const refused = await checkProvider(principal.account.id, body.accountProviderId);
    if (refused) return refused;
    if (body.name.toLowerCase() === ORGANIC_LABEL.toLowerCase()) return reserved();
    const done = await named('A source', () => repo.updateSource(db, app.id, id, body));
    if (isFailure(done)) return done;
    const source = await repo.findSource(db, app.id, id);
    return source ? ok({ source }) : notFound('Source');
  });

  route(router, deps, 'deleteSource', async ({ app, params }) => {
    const id = params.sourceId ?? '';
    if (!isUuid(id)) return notFound('Source');
    const done = await repo.deleteSource(db, app.id, id);
    if (done === 'in_use') return conflict('The source has campaigns: delete or move them first');
    return done ? ok({}) : notFound('Source');
  });

  // ---- Channels ----

  route(router, deps, 'channels', async ({ app }) => ok({ channels: await repo.listChannels(db, app.id) }));

  route(router, deps, 'createChannel', async ({ app, body }) => {
    const id = await named('A channel', () => repo.insertChannel(db, app.id, body));
    if (isFailure(id)) return id;
    const channel = await repo.findChannel(db, app.id, id);
    return channel ? ok({ channel }) : notFound('Channel');
  });

  route(router, deps, 'updateChannel', async ({ app, params, body }) => {
    const id = params.channelId ?? '';
    if (!isUuid(id)) return notFound('Channel');
    const done = await named('A channel', () => repo.updateChannel(db, app.id, id, body));
    if (isFailure(done)) return done;
    const channel = done ? await repo.findChannel(db, app.id, id) : undefined;
    return channel ? ok({ channel }) : notFound('Channel');
  });

  route(router, deps, 'deleteChannel', async ({ app, params }) => {
    const id = params.channelId ?? '';
    const done = isUuid(id) && (await tx(db, (client) => repo.deleteChannel(client, app.id, id)));
    return done ? ok({}) : notFound('Channel');
  });

  // ---- The account's providers ----

  route(router, deps, 'accountProviders', async ({ principal }) => {
    const member = await repo.memberProvider(db, principal.account.id, principal.user.id);
    return ok({ providers: await repo.listAccountProviders(db, principal.account.id, member?.id) });
  });

  async function providerRefs(accountId: string, adProviderId: string | null, memberIds: readonly string[]) {
    if (adProviderId !== null && !(await repo.adProviderExists(db, adProviderId))) return missing('adProviderId', 'Catalogue provider');
    const users = await repo.accountUserIds(db, accountId, memberIds);
    const strangers: FieldIssue[] = memberIds.filter((id) => !users.has(id)).map(() => ({ path: 'memberIds', message: 'not_found' }));
    return strangers.length ? fail(ErrorCode.NOT_EXIST, 'User not found', strangers) : null;
  }

  route(router, deps, 'createAccountProvider', async ({ principal, body }) => {
    const accountId = principal.account.id;
    const refused = await providerRefs(accountId, body.adProviderId, body.memberIds);
    if (refused) return refused;
    const id = await named('A provider', () => tx(db, async (client) => {
      const created = await repo.insertAccountProvider(client, accountId, principal.user.id, body);
      await repo.setMembers(client, created, [...new Set(body.memberIds)]);
      return created;
    }));
    if (isFailure(id)) return id;
    const provider = await repo.findAccountProvider(db, accountId, id);
    return provider ? ok({ provider }) : notFound('Provider');
  });

  route(router, deps, 'updateAccountProvider', async ({ principal, params, body }) => {
    const accountId = principal.account.id;
    const id = params.providerId ?? '';
    if (!isUuid(id) || !(await repo.findAccountProvider(db, accountId, id))) return notFound('Provider');
    const refused = await providerRefs(accountId, body.adProviderId, body.memberIds);
    if (refused) return refused;
    const done = await named('A provider', () => tx(db, async (client) => {
      const changed = await repo.updateAccountProvider(client, accountId, id, body);
      if (changed) await repo.setMembers(client, id, [...new Set(body.memberIds)]);
      return changed;
    }));
    if (isFailure(done)) return done;
    const provider = done ? await repo.findAccountProvider(db, accountId, id) : undefined;
    return provider ? ok({ provider }) : notFound('Provider');
  });

  route(router, deps, 'deleteAccountProvider', async ({ principal, params }) => {
    const id = params.providerId ?? '';
    if (!isUuid(id)) return notFound('Provider');
    const done = await tx(db, (client) => repo.deleteAccountProvider(client, principal.account.id, id));
    if (done === 'active_urls') return activeUrls();
    return done ? ok({}) : notFound('Provider');
  });

  route(router, deps, 'adProviderCatalogue', async () => ok({ providers: await repo.listAdProviders(db) }));

  // ---- The platform catalogue ----

  route(router, deps, 'adProviders', async () => ok({ providers: await repo.listAdProviders(db) }));

  route(router, deps, 'createAdProvider', async ({ body }) => {
    const id = await named('A catalogue provider', () => repo.insertAdProvider(db, body));
    if (isFailure(id)) return id;
    const provider = await repo.findAdProvider(db, id);
    return provider ? ok({ provider }) : notFound('Catalogue provider');
  });

  route(router, deps, 'updateAdProvider', async ({ params, body }) => {
    const id = params.adProviderId ?? '';
    if (!isUuid(id)) return notFound('Catalogue provider');
    const done = await named('A catalogue provider', () => repo.updateAdProvider(db, id, body));
    if (isFailure(done)) return done;
    const provider = done ? await repo.findAdProvider(db, id) : undefined;
    return provider ? ok({ provider }) : notFound('Catalogue provider');
  });

  route(router, deps, 'deleteAdProvider', async ({ params }) => {
    const id = params.adProviderId ?? '';
    if (!isUuid(id)) return notFound('Catalogue provider');
    const done = await tx(db, (client) => repo.deleteAdProvider(client, id));
    if (done === 'active_urls') return activeUrls();
    return done ? ok({}) : notFound('Catalogue provider');
  });
}

/** "Organic" names the installs no source brought (SPEC §3): no source may take it. */
const reserved = () => fail(ErrorCode.MANDATORY, `${ORGANIC_LABEL} is reserved for installs without a source`, [{ path: 'name', message: 'reserved_name' }]);
