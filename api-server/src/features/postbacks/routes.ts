/**
 * Trackers (/acquisition/trackers) and a campaign's postback calls. A user who is a member of an
 * account provider sees and names only that provider's trackers and campaigns; another provider's,
 * app's or account's ids answer exactly as unknown ids (10). Saving a tracker rewrites the app's
 * interests of consumer `postbacks` in the same transaction, so ingestion starts (or stops) writing
 * inbox rows for its event at once.
 */
import type { Router } from 'express';
import { ErrorCode, fail, ok, type AcqPostback, type Tracker, type TrackerInput } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import * as repo from './repository.ts';

const notFound = (what = 'Tracker') => fail(ErrorCode.NOT_EXIST, `${what} not found`);
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'A tracker with that name already exists', [{ path: 'name', message: 'Name already in use' }]);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function tracker(r: repo.TrackerRow): Tracker {
  return {
    id: r.id, name: r.name, event: r.event, accountProviderId: r.account_provider_id, providerName: r.provider_name,
    campaignId: r.campaign_id, campaignName: r.campaign_name, postbackUrl: r.postback_url, effectiveUrl: r.postback_url ?? r.provider_event_url,
    providerEvent: r.provider_event, macros: r.macros, active: r.active, sent: r.sent, failed: r.failed, pending: r.pending,
    createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
  };
}

function postback(r: repo.PostbackRow): AcqPostback {
  return {
    id: r.id, kind: r.kind as AcqPostback['kind'], trackerId: r.tracker_id, trackerName: r.tracker_name, eventName: r.event_name,
    method: r.method as AcqPostback['method'], url: r.url, body: r.body, status: r.status, attempts: r.attempts, responseStatus: r.response_status,
    error: r.error, createdAt: r.created_at.toISOString(), lastAttemptAt: iso(r.last_attempt_at), doneAt: iso(r.done_at),
    nextAt: r.status === 'pending' ? r.next_at.toISOString() : null,
  };
}

export function postbackRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const scope = (userId: string, accountId: string) => repo.memberProvider(db, userId, accountId);

  route(router, deps, 'trackers', async ({ app, principal }) => {
    const provider = await scope(principal.user.id, principal.account.id);
    const [rows, providers] = await Promise.all([repo.listTrackers(db, app.id, provider), repo.providerChoices(db, principal.account.id, provider)]);
    return ok({ trackers: rows.map(tracker), providers: providers.map((p) => ({ id: p.id, name: p.name, eventPostbackUrl: p.event_url })) });
  });

  /** Checks the tracker's provider and campaign and that a URL will exist; null when the input may be saved. */
  async function refused(accountId: string, appId: string, userId: string, body: TrackerInput) {
    const provider = await scope(userId, accountId);
    if (provider !== null && provider !== body.accountProviderId) return notFound('Provider');
    const missing = await repo.checkReferences(db, accountId, appId, body.accountProviderId, body.campaignId);
    if (missing === 'provider') return notFound('Provider');
    if (missing === 'campaign') return notFound('Campaign');
    if (!body.postbackUrl) {
      const choices = await repo.providerChoices(db, accountId, body.accountProviderId);
      if (!choices[0]?.event_url) {
        return fail(ErrorCode.MANDATORY, 'The provider has no event postback URL: give the tracker its own', [{ path: 'postbackUrl', message: 'Required: the provider has no event postback URL' }]);
      }
    }
    return null;
  }

  const values = (b: TrackerInput): repo.TrackerValues => ({
    name: b.name, event: b.event, accountProviderId: b.accountProviderId, campaignId: b.campaignId, postbackUrl: b.postbackUrl,
    providerEvent: b.providerEvent, macros: b.macros, active: b.active,
  });

  route(router, deps, 'createTracker', async ({ app, principal, body }) => {
    const no = await refused(principal.account.id, app.id, principal.user.id, body);
    if (no) return no;
    try {
      const row = await tx(db, async (client) => {
        const id = await repo.insertTracker(client, app.id, principal.user.id, values(body));
        await repo.refreshInterests(client, app.id);
        return repo.getTracker(client, app.id, id);
      });
      return row ? ok({ tracker: tracker(row) }) : notFound();
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
  });

  route(router, deps, 'updateTracker', async ({ app, principal, params, body }) => {
    const id = params.trackerId ?? '';
    if (!isUuid(id)) return notFound();
    const provider = await scope(principal.user.id, principal.account.id);
    const current = await repo.getTracker(db, app.id, id);
    if (!current || (provider !== null && current.account_provider_id !== provider)) return notFound();
    const no = await refused(principal.account.id, app.id, principal.user.id, body);
    if (no) return no;
    try {
      const row = await tx(db, async (client) => {
        if (!(await repo.updateTracker(client, app.id, id, values(body)))) return undefined;
        await repo.refreshInterests(client, app.id);
        return repo.getTracker(client, app.id, id);
      });
      return row ? ok({ tracker: tracker(row) }) : notFound();
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
  });

  route(router, deps, 'deleteTracker', async ({ app, principal, params }) => {
    const id = params.trackerId ?? '';
    if (!isUuid(id)) return notFound();
    const provider = await scope(principal.user.id, principal.account.id);
    const current = await repo.getTracker(db, app.id, id);
    if (!current || (provider !== null && current.account_provider_id !== provider)) return notFound();
    const deleted = await tx(db, async (client) => {
      const done = await repo.deleteTracker(client, app.id, id);
      if (done) await repo.refreshInterests(client, app.id);
      return done;
    });
    return deleted ? ok({}) : notFound();
  });

  route(router, deps, 'campaignPostbacks', async ({ app, principal, params, query }) => {
    const id = params.campaignId ?? '';
    if (!isUuid(id)) return notFound('Campaign');
    const provider = await scope(principal.user.id, principal.account.id);
    if (!(await repo.campaignVisible(db, app.id, id, provider))) return notFound('Campaign');
    const { rows, totals } = await repo.campaignPostbacks(db, app.id, id, query.status ?? null, query.limit);
    return ok({ postbacks: rows.map(postback), totals: { pending: totals.pending ?? 0, ok: totals.ok ?? 0, failed: totals.failed ?? 0 } });
  });
}
