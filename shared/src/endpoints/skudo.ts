/**
 * Skudo (schemas/skudo.ts, rules and decisions in skudo/model.ts): the account's offer
 * marketplace and the partner pages. Account-wide, not per app. Reading needs the screen's route
 * key; every change `api:skudo.edit` too.
 *
 * Failures: 10001 with `details` for a bad field; 10 for an id of nothing or of another account
 * (in the path or a body field); 30 for a name (provider, campaign) or partner e-mail in use;
 * 20001 deleting an offer with active tracking URLs, 20002 a campaign with active offers, 20003 a
 * provider with active tracking URLs.
 *
 * The partner routes (/skudo/partner/...) are public in this table: they take no account session
 * but the partner's own (cookie `gd_skudo`, opened by `skudoPartnerLogin` with a one-time code:
 * 20004 invalid or used, 20005 expired, 10021 after too many failures from one address); without a
 * valid partner session they answer 10006.
 */
import { z } from 'zod';
import {
  SkudoAuthCode, SkudoCampaign, SkudoCampaignInput, SkudoOffer, SkudoOfferInput, SkudoPartner, SkudoPartnerCreate, SkudoPartnerInput,
  SkudoPartnerLogin, SkudoPartnerMe, SkudoPartnerOffer, SkudoProvider, SkudoProviderInput, SkudoTrackingUrl, SkudoTrackingUrlInput,
  SkudoTrackingUrlUpdate,
} from '../schemas/skudo.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/products/skudo' as const;
const EDIT = { and: [VIEW, 'api:skudo.edit'] } as const;

export const skudoEndpoints = {
  skudoProviders: ep({ method: 'GET', path: '/skudo/providers', summary: "The marketplace's providers (offer owners), by name, with their offers and active tracking URLs", auth: VIEW, response: { providers: z.array(SkudoProvider) } }),
  createSkudoProvider: ep({ method: 'POST', path: '/skudo/providers', summary: 'Add a provider; a name in use: 30', auth: EDIT, request: SkudoProviderInput, response: { provider: SkudoProvider } }),
  updateSkudoProvider: ep({ method: 'PUT', path: '/skudo/providers/:skudoProviderId', summary: 'Change a provider', auth: EDIT, request: SkudoProviderInput, response: { provider: SkudoProvider } }),
  deleteSkudoProvider: ep({ method: 'DELETE', path: '/skudo/providers/:skudoProviderId', summary: 'Delete a provider and its offers; refused while any of its tracking URLs is active (20003)', auth: EDIT, response: none }),

  skudoCampaigns: ep({ method: 'GET', path: '/skudo/campaigns', summary: "The marketplace's campaigns, newest start first, with their offers and clicks", auth: VIEW, response: { campaigns: z.array(SkudoCampaign) } }),
  createSkudoCampaign: ep({ method: 'POST', path: '/skudo/campaigns', summary: 'Add a campaign; a name in use: 30', auth: EDIT, request: SkudoCampaignInput, response: { campaign: SkudoCampaign } }),
  updateSkudoCampaign: ep({ method: 'PUT', path: '/skudo/campaigns/:skudoCampaignId', summary: 'Change a campaign (dates, status)', auth: EDIT, request: SkudoCampaignInput, response: { campaign: SkudoCampaign } }),
  deleteSkudoCampaign: ep({ method: 'DELETE', path: '/skudo/campaigns/:skudoCampaignId', summary: 'Delete a campaign (its offers stay, ungrouped); refused while any of its offers is active (20002)', auth: EDIT, response: none }),

  skudoOffers: ep({ method: 'GET', path: '/skudo/offers', summary: "The marketplace's offers, newest first, each with its tracking URLs and clicks", auth: VIEW, response: { offers: z.array(SkudoOffer) } }),
  createSkudoOffer: ep({ method: 'POST', path: '/skudo/offers', summary: "Publish an offer of one of the account's providers, optionally in a campaign", auth: EDIT, request: SkudoOfferInput, response: { offer: SkudoOffer } }),
  updateSkudoOffer: ep({ method: 'PUT', path: '/skudo/offers/:offerId', summary: 'Change an offer (its status too)', auth: EDIT, request: SkudoOfferInput, response: { offer: SkudoOffer } }),
  deleteSkudoOffer: ep({ method: 'DELETE', path: '/skudo/offers/:offerId', summary: 'Delete an offer and its inactive tracking URLs; refused while any is active (20001)', auth: EDIT, response: none }),

  createSkudoTrackingUrl: ep({ method: 'POST', path: '/skudo/offers/:offerId/urls', summary: 'A new tracking URL of the offer, for a partner or a channel (a short code on the link host, /s/<code>)', auth: EDIT, request: SkudoTrackingUrlInput, response: { url: SkudoTrackingUrl } }),
  updateSkudoTrackingUrl: ep({ method: 'PUT', path: '/skudo/tracking-urls/:trackingUrlId', summary: 'Rename, deactivate or activate a tracking URL (its code and clicks stay)', auth: EDIT, request: SkudoTrackingUrlUpdate, response: { url: SkudoTrackingUrl } }),
  deleteSkudoTrackingUrl: ep({ method: 'DELETE', path: '/skudo/tracking-urls/:trackingUrlId', summary: 'Delete a tracking URL and its clicks (its code then answers 404)', auth: EDIT, response: none }),

  skudoPartners: ep({ method: 'GET', path: '/skudo/partners', summary: "The marketplace's partners (publishers), by name, with their tracking URLs and clicks", auth: VIEW, response: { partners: z.array(SkudoPartner) } }),
  createSkudoPartner: ep({ method: 'POST', path: '/skudo/partners', summary: 'Add a partner, optionally mailing an invitation with a sign-in code (valid 72 h); an e-mail in use: 30', auth: EDIT, request: SkudoPartnerCreate, response: { partner: SkudoPartner } }),
  updateSkudoPartner: ep({ method: 'PUT', path: '/skudo/partners/:partnerId', summary: 'Change a partner; suspending ends their sessions and stops their tracking URLs', auth: EDIT, request: SkudoPartnerInput, response: { partner: SkudoPartner } }),
  deleteSkudoPartner: ep({ method: 'DELETE', path: '/skudo/partners/:partnerId', summary: 'Delete a partner: sessions and codes end, their tracking URLs are deactivated and kept', auth: EDIT, response: none }),
  createSkudoAuthCode: ep({ method: 'POST', path: '/skudo/partners/:partnerId/codes', summary: 'A one-time sign-in code to hand over (valid 30 minutes, shown once); earlier unused codes stop working', auth: EDIT, response: SkudoAuthCode.shape }),
  inviteSkudoPartner: ep({ method: 'POST', path: '/skudo/partners/:partnerId/invite', summary: 'Mail the partner an invitation with a one-time sign-in code (valid 72 hours)', auth: EDIT, response: none }),

  skudoPartnerLogin: ep({ method: 'POST', path: '/skudo/partner/login', summary: 'A partner signs in with a one-time code (20004 invalid or used, 20005 expired) and gets a partner session (cookie gd_skudo)', auth: 'public', request: SkudoPartnerLogin, response: { partner: SkudoPartnerMe } }),
  skudoPartnerLogout: ep({ method: 'POST', path: '/skudo/partner/logout', summary: "Ends the partner's session", auth: 'public', response: none }),
  skudoPartnerOffers: ep({ method: 'GET', path: '/skudo/partner/offers', summary: "The signed-in partner's offers and tracking URLs with their clicks (10006 without a partner session)", auth: 'public', response: { partner: SkudoPartnerMe, offers: z.array(SkudoPartnerOffer) } }),
} as const;
