/**
 * The skudo marketplace of the account (/products/skudo): providers, campaigns, offers and their
 * tracking URLs, partners and their one-time sign-in codes. Account-wide: every query is scoped
 * by the caller's account, and an id of nothing or of another account (in the path or in a body
 * field) answers 10, changing nothing. Every write is one transaction. The partner pages' routes
 * are in partner.ts, the tracking host (/s/<code>) in host.ts; the rules in shared skudo/model.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Router } from 'express';
import { ErrorCode, fail, ok, type Failure, type Language } from '@gd/shared';
import type { SkudoCampaignInput, SkudoOfferInput, SkudoProviderInput } from '@gd/shared/schemas/skudo';
import {
  SKUDO_CODE_TTL_SECONDS, deletionRefusal, formatSkudoCode, skudoCodeFromBytes, trackingCodeFromBytes, type SkudoCodeChannel,
} from '@gd/shared/skudo/model';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx, type Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { publicBaseUrl } from '../auth/routes.ts';
import { sha256 } from '../auth/secrets.ts';
import { trackingBaseUrl } from './host.ts';
import { invitationMail } from './mail.ts';
import * as repo from './repository.ts';

const notFound = (what: string) => fail(ErrorCode.NOT_EXIST, `No such ${what}`);
const notFoundField = (path: string, what: string) => fail(ErrorCode.NOT_EXIST, `No such ${what}`, [{ path, message: 'not_found' }]);
const taken = (path: string, text: string) => fail(ErrorCode.NAME_DUPLICATED, text, [{ path, message: 'taken' }]);
const id = (params: Record<string, string>, name: string) => {
  const value = params[name] ?? '';
  return isUuid(value) ? value : undefined;
};

const GUARD_TEXT = {
  offer: 'The offer has active tracking URLs: deactivate them first',
  campaign: 'The campaign has active offers: pause or end them first',
  provider: 'The provider has active tracking URLs: deactivate them first',
} as const;

/** A fresh code of a generator that may (rarely) need more random bytes. */
function generate(make: (bytes: Uint8Array) => string | null): string {
  for (;;) {
    const code = make(randomBytes(48));
    if (code !== null) return code;
  }
}

/** A new code for a partner (voiding their unused ones); the plain code is answered once and never stored. */
export async function issueCode(db: Queryable, input: { accountId: string; partnerId: string; channel: SkudoCodeChannel; userId: string }): Promise<{ code: string; expiresAt: Date }> {
  const code = generate(skudoCodeFromBytes);
  const expiresAt = await repo.insertCode(db, { ...input, codeHash: sha256(code), ttlSeconds: SKUDO_CODE_TTL_SECONDS[input.channel] });
  return { code: formatSkudoCode(code), expiresAt };
}

export function skudoRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const base = () => trackingBaseUrl(deps);

  // ---- Providers ----

  route(router, deps, 'skudoProviders', async ({ principal }) => ok({ providers: await repo.listProviders(db, principal.account.id) }));

  const saveProvider = async (accountId: string, write: (q: Queryable) => Promise<string | undefined>) => {
    try {
      const saved = await tx(db, write);
      const provider = saved && (await repo.findProvider(db, accountId, saved));
      return provider ? ok({ provider }) : notFound('provider');
    } catch (error) {
      if (isUniqueViolation(error, 'skudo_providers_name')) return taken('name', 'The marketplace already has a provider with that name');
      throw error;
    }
  };
  route(router, deps, 'createSkudoProvider', ({ principal, body }) =>
    saveProvider(principal.account.id, (q) => repo.insertProvider(q, principal.account.id, principal.user.id, body satisfies SkudoProviderInput)));
  route(router, deps, 'updateSkudoProvider', ({ principal, params, body }) => {
    const providerId = id(params, 'skudoProviderId');
    if (!providerId) return notFound('provider');
    return saveProvider(principal.account.id, async (q) => ((await repo.updateProvider(q, principal.account.id, providerId, body)) ? providerId : undefined));
  });
  route(router, deps, 'deleteSkudoProvider', async ({ principal, params }) => {
    const providerId = id(params, 'skudoProviderId');
    if (!providerId) return notFound('provider');
    const accountId = principal.account.id;
    return tx(db, async (q) => {
      const locked = await repo.lockProvider(q, accountId, providerId);
      if (!locked) return notFound('provider');
      const refused = deletionRefusal('provider', { activeUrls: locked.activeUrls, activeOffers: 0 });
      if (refused !== null) return fail(refused, GUARD_TEXT.provider);
      await repo.deleteProvider(q, accountId, providerId);
      return ok({});
    });
  });

  // ---- Campaigns ----

  route(router, deps, 'skudoCampaigns', async ({ principal }) => ok({ campaigns: await repo.listCampaigns(db, principal.account.id) }));

  const saveCampaign = async (accountId: string, write: (q: Queryable) => Promise<string | undefined>) => {
    try {
      const saved = await tx(db, write);
      const campaign = saved && (await repo.findCampaign(db, accountId, saved));
      return campaign ? ok({ campaign }) : notFound('campaign');
    } catch (error) {
      if (isUniqueViolation(error, 'skudo_campaigns_name')) return taken('name', 'The marketplace already has a campaign with that name');
      throw error;
    }
  };
  route(router, deps, 'createSkudoCampaign', ({ principal, body }) =>
    saveCampaign(principal.account.id, (q) => repo.insertCampaign(q, principal.account.id, principal.user.id, body satisfies SkudoCampaignInput)));
  route(router, deps, 'updateSkudoCampaign', ({ principal, params, body }) => {
    const campaignId = id(params, 'skudoCampaignId');
    if (!campaignId) return notFound('campaign');
    return saveCampaign(principal.account.id, async (q) => ((await repo.updateCampaign(q, principal.account.id, campaignId, body)) ? campaignId : undefined));
  });
  route(router, deps, 'deleteSkudoCampaign', async ({ principal, params }) => {
    const campaignId = id(params, 'skudoCampaignId');
    if (!campaignId) return notFound('campaign');
    const accountId = principal.account.id;
    return tx(db, async (q) => {
      const locked = await repo.lockCampaign(q, accountId, campaignId);
      if (!locked) return notFound('campaign');
      const refused = deletionRefusal('campaign', { activeUrls: 0, activeOffers: locked.activeOffers });
      if (refused !== null) return fail(refused, GUARD_TEXT.campaign);
      await repo.deleteCampaign(q, accountId, campaignId);
      return ok({});
    });
  });

  // ---- Offers ----

  route(router, deps, 'skudoOffers', async ({ principal }) => ok({ offers: await repo.listOffers(db, principal.account.id, base()) }));

  /** The offer's provider and campaign must be the account's (locked against deletion meanwhile). */
  const references = async (q: Queryable, accountId: string, body: SkudoOfferInput): Promise<Failure | null> => {
    if (!(await repo.providerExists(q, accountId, body.providerId))) return notFoundField('providerId', 'provider');
    if (body.campaignId !== null && !(await repo.campaignExists(q, accountId, body.campaignId, true))) return notFoundField('campaignId', 'campaign');
    return null;
  };
  route(router, deps, 'createSkudoOffer', async ({ principal, body }) => {
    const accountId = principal.account.id;
    const saved = await tx(db, async (q) => {
      const refused = await references(q, accountId, body);
      return refused ?? ok(await repo.insertOffer(q, accountId, principal.user.id, body));
    });
    if (!saved.ok) return saved;
    const offer = await repo.findOffer(db, accountId, base(), saved.value);
    return offer ? ok({ offer }) : notFound('offer');
  });
  route(router, deps, 'updateSkudoOffer', async ({ principal, params, body }) => {
    const offerId = id(params, 'offerId');
    if (!offerId) return notFound('offer');
    const accountId = principal.account.id;
    const saved = await tx(db, async (q) => {
      if (!(await repo.lockOffer(q, accountId, offerId, 'UPDATE'))) return notFound('offer');
      const refused = await references(q, accountId, body);
      if (refused) return refused;
      await repo.updateOffer(q, accountId, offerId, body);
      return ok(offerId);
    });
    if (!saved.ok) return saved;
    const offer = await repo.findOffer(db, accountId, base(), offerId);
    return offer ? ok({ offer }) : notFound('offer');
  });
  route(router, deps, 'deleteSkudoOffer', async ({ principal, params }) => {
    const offerId = id(params, 'offerId');
    if (!offerId) return notFound('offer');
    const accountId = principal.account.id;
    return tx(db, async (q) => {
      const locked = await repo.lockOffer(q, accountId, offerId, 'UPDATE');
      if (!locked) return notFound('offer');
      const refused = deletionRefusal('offer', { activeUrls: locked.activeUrls, activeOffers: 0 });
      if (refused !== null) return fail(refused, GUARD_TEXT.offer);
      await repo.deleteOffer(q, accountId, offerId);
      return ok({});
    });
  });

  // ---- Tracking URLs ----

  const answerUrl = async (accountId: string, offerId: string, urlId: string) => {
    const url = (await repo.findOffer(db, accountId, base(), offerId))?.urls.find((u) => u.id === urlId);
    return url ? ok({ url }) : notFound('tracking URL');
  };
  route(router, deps, 'createSkudoTrackingUrl', async ({ principal, params, body }) => {
    const offerId = id(params, 'offerId');
    if (!offerId) return notFound('offer');
    const accountId = principal.account.id;
    for (let attempt = 0; ; attempt++) {
      try {
        const saved = await tx(db, async (q) => {
          if (!(await repo.lockOffer(q, accountId, offerId, 'SHARE'))) return notFound('offer');
          let label = body.label;
          if (body.partnerId !== null) {
            const partner = await repo.partnerContact(q, accountId, body.partnerId);
            if (!partner) return notFoundField('partnerId', 'partner');
            if (label === '') label = partner.name;
          }
          const code = generate(trackingCodeFromBytes);
          return ok(await repo.insertTrackingUrl(q, { accountId, offerId, partnerId: body.partnerId, label, code, userId: principal.user.id }));
        });
        return saved.ok ? answerUrl(accountId, offerId, saved.value) : saved;
      } catch (error) {
        // A code already taken (about one in 10^14): draw another.
        if (attempt < 3 && isUniqueViolation(error, 'skudo_tracking_urls_code_key')) continue;
        throw error;
      }
    }
  });
  route(router, deps, 'updateSkudoTrackingUrl', async ({ principal, params, body }) => {
    const urlId = id(params, 'trackingUrlId');
    if (!urlId) return notFound('tracking URL');
    const accountId = principal.account.id;
    const saved = await tx(db, async (q) => {
      const offerId = await repo.urlOffer(q, accountId, urlId);
      // The offer is locked (shared) so activating a URL waits for a deletion deciding on its offer.
      if (!offerId || !(await repo.lockOffer(q, accountId, offerId, 'SHARE'))) return notFound('tracking URL');
      await repo.updateTrackingUrl(q, accountId, urlId, body.label, body.active);
      return ok(offerId);
    });
    return saved.ok ? answerUrl(accountId, saved.value, urlId) : saved;
  });
  route(router, deps, 'deleteSkudoTrackingUrl', async ({ principal, params }) => {
    const urlId = id(params, 'trackingUrlId');
    return urlId && (await repo.deleteTrackingUrl(db, principal.account.id, urlId)) ? ok({}) : notFound('tracking URL');
  });

  // ---- Partners ----

  route(router, deps, 'skudoPartners', async ({ principal }) => ok({ partners: await repo.listPartners(db, principal.account.id) }));

  const emailTaken = () => taken('email', 'The marketplace already has a partner with that e-mail');
  /** Queues the invitation mail with a fresh code (in the caller's transaction). */
  const invite = async (q: Queryable, input: { accountId: string; partnerId: string; userId: string; language: Language; base: string }) => {
    const partner = await repo.partnerContact(q, input.accountId, input.partnerId);
    if (!partner) return false;
    const { code, expiresAt } = await issueCode(q, { accountId: input.accountId, partnerId: input.partnerId, channel: 'email', userId: input.userId });
    const link = `${input.base}/${input.language}/skudo/login?code=${encodeURIComponent(code)}`;
    await enqueueMail(q, { to: partner.email, kind: 'skudo_invitation', ...invitationMail(input.language, { name: partner.name, account: partner.accountName, code, link, expiresAt }) });
    return true;
  };

  route(router, deps, 'createSkudoPartner', async ({ principal, body, req }) => {
    const accountId = principal.account.id;
    try {
      const partnerId = await tx(db, async (q) => {
        const created = await repo.insertPartner(q, accountId, principal.user.id, body);
        if (body.invite) await invite(q, { accountId, partnerId: created, userId: principal.user.id, language: principal.user.language, base: publicBaseUrl(deps, req) });
        return created;
      });
      if (body.invite) deps.notifyMail();
      const partner = await repo.findPartner(db, accountId, partnerId);
      return partner ? ok({ partner }) : notFound('partner');
    } catch (error) {
      if (isUniqueViolation(error, 'skudo_partners_email')) return emailTaken();
      throw error;
    }
  });
  route(router, deps, 'updateSkudoPartner', async ({ principal, params, body }) => {
    const partnerId = id(params, 'partnerId');
    if (!partnerId) return notFound('partner');
    const accountId = principal.account.id;
    try {
      const found = await tx(db, async (q) => {
        const before = await repo.updatePartner(q, accountId, partnerId, body);
        if (before === undefined) return false;
        // Suspending ends the partner's sessions and voids their codes at once.
        if (body.status === 'suspended') await repo.endPartnerAccess(q, accountId, partnerId);
        return true;
      });
      const partner = found && (await repo.findPartner(db, accountId, partnerId));
      return partner ? ok({ partner }) : notFound('partner');
    } catch (error) {
      if (isUniqueViolation(error, 'skudo_partners_email')) return emailTaken();
      throw error;
    }
  });
  route(router, deps, 'deleteSkudoPartner', async ({ principal, params }) => {
    const partnerId = id(params, 'partnerId');
    if (!partnerId) return notFound('partner');
    return (await tx(db, (q) => repo.deletePartner(q, principal.account.id, partnerId))) ? ok({}) : notFound('partner');
  });

  route(router, deps, 'createSkudoAuthCode', async ({ principal, params, req }) => {
    const partnerId = id(params, 'partnerId');
    if (!partnerId) return notFound('partner');
    const accountId = principal.account.id;
    const issued = await tx(db, async (q) => {
      const partner = await repo.partnerContact(q, accountId, partnerId);
      if (!partner) return notFound('partner');
      if (partner.status !== 'active') return fail(ErrorCode.MANDATORY, 'The partner is suspended: make them active before handing over a code', [{ path: 'status', message: 'suspended' }]);
      return ok(await issueCode(q, { accountId, partnerId, channel: 'handover', userId: principal.user.id }));
    });
    if (!issued.ok) return issued;
    const { code, expiresAt } = issued.value;
    return ok({ code, expiresAt: expiresAt.toISOString(), loginUrl: `${publicBaseUrl(deps, req)}/skudo/login?code=${encodeURIComponent(code)}` });
  });

  route(router, deps, 'inviteSkudoPartner', async ({ principal, params, req }) => {
    const partnerId = id(params, 'partnerId');
    if (!partnerId) return notFound('partner');
    const accountId = principal.account.id;
    const sent = await tx(db, async (q) => {
      const partner = await repo.partnerContact(q, accountId, partnerId);
      if (!partner) return notFound('partner');
      if (partner.status !== 'active') return fail(ErrorCode.MANDATORY, 'The partner is suspended: make them active before inviting them', [{ path: 'status', message: 'suspended' }]);
      await invite(q, { accountId, partnerId, userId: principal.user.id, language: principal.user.language, base: publicBaseUrl(deps, req) });
      return ok({});
    });
    if (sent.ok) deps.notifyMail();
    return sent;
  });
}
