/**
 * Skudo, the account's offer marketplace (/products/skudo) and its partner pages (/skudo/login,
 * /skudo/offers): what is sent and answered. The rules and the decisions SPEC leaves open are in
 * ../skudo/model.ts.
 */
import { z } from 'zod';
import { DateString, Email, isPublicUrl } from '../formats.ts';
import { SkudoCampaignStatus, SkudoOfferStatus, SkudoPartnerStatus, SkudoPayoutModel } from '../skudo/model.ts';
import { Name } from './common.ts';

export const SkudoPayoutModelSchema = z.enum(SkudoPayoutModel);
export const SkudoOfferStatusSchema = z.enum(SkudoOfferStatus);
export const SkudoCampaignStatusSchema = z.enum(SkudoCampaignStatus);
export const SkudoPartnerStatusSchema = z.enum(SkudoPartnerStatus);

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/** An http(s) address on a public host. */
const WebUrl = z.string().trim().max(2048).refine((s) => isPublicUrl(s, ['http:', 'https:']), { message: 'Expected an http(s) address on a public host', params: { rule: 'url' } });
/** An image shown on the partner page: https only (no mixed content). */
const ImageUrl = z.string().trim().max(2048).refine((s) => isPublicUrl(s, ['https:']), { message: 'Expected an https address on a public host', params: { rule: 'https_url' } });
/** A destination: an http(s) address on a public host once `{click_id}` is filled. */
const DestinationUrl = z.string().trim().min(1, 'Required').max(2048)
  .refine((s) => isPublicUrl(s.replaceAll('{click_id}', 'x'), ['http:', 'https:']), { message: 'Expected an http(s) address on a public host', params: { rule: 'url' } });
const Description = z.string().trim().max(2000).default('');

// ---- Providers ----

export const SkudoProviderInput = z.object({
  name: Name,
  website: z.preprocess(blankToNull, WebUrl.nullable()).default(null),
  contactEmail: z.preprocess(blankToNull, Email.nullable()).default(null),
});
export type SkudoProviderInput = z.infer<typeof SkudoProviderInput>;

export const SkudoProvider = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string().nullable(),
  contactEmail: z.string().nullable(),
  offers: z.number().int(),
  /** Active tracking URLs of its offers: while there are any it cannot be deleted (20003). */
  activeUrls: z.number().int(),
  createdAt: z.string(),
});
export type SkudoProvider = z.infer<typeof SkudoProvider>;

// ---- Campaigns ----

export const SkudoCampaignInput = z.object({
  name: Name,
  description: Description,
  startsOn: DateString,
  endsOn: z.preprocess(blankToNull, DateString.nullable()).default(null),
  status: SkudoCampaignStatusSchema.default('active'),
}).refine((c) => c.endsOn === null || c.endsOn >= c.startsOn, { path: ['endsOn'], message: 'The end day is before the start day', params: { rule: 'ends_before_start' } });
export type SkudoCampaignInput = z.infer<typeof SkudoCampaignInput>;

export const SkudoCampaign = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  startsOn: z.string(),
  endsOn: z.string().nullable(),
  status: SkudoCampaignStatusSchema,
  offers: z.number().int(),
  /** While any is active the campaign cannot be deleted (20002). */
  activeOffers: z.number().int(),
  clicks: z.number().int(),
  createdAt: z.string(),
});
export type SkudoCampaign = z.infer<typeof SkudoCampaign>;

// ---- Offers and tracking URLs ----

export const SkudoOfferInput = z.object({
  providerId: z.uuid(),
  campaignId: z.preprocess(blankToNull, z.uuid().nullable()).default(null),
  title: z.string().trim().min(1, 'Required').max(160),
  description: Description,
  imageUrl: z.preprocess(blankToNull, ImageUrl.nullable()).default(null),
  payoutModel: SkudoPayoutModelSchema,
  payoutAmount: z.number().min(0).max(1_000_000_000).multipleOf(0.01),
  currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'Expected a currency code such as USD').default('USD'),
  destinationUrl: DestinationUrl,
  status: SkudoOfferStatusSchema.default('draft'),
}).refine((o) => o.payoutModel !== 'cps' || o.payoutAmount <= 100, { path: ['payoutAmount'], message: 'A share of the sale is a percentage (0 to 100)', params: { rule: 'percentage' } });
export type SkudoOfferInput = z.infer<typeof SkudoOfferInput>;

export const SkudoTrackingUrl = z.object({
  id: z.string(),
  offerId: z.string(),
  partnerId: z.string().nullable(),
  partnerName: z.string().nullable(),
  label: z.string(),
  code: z.string(),
  /** The address to hand out: <link host>/s/<code>. */
  url: z.string(),
  active: z.boolean(),
  /** Whether a click redirects now (active URL, offer, partner and campaign: ../skudo/model.ts trackingLive). */
  live: z.boolean(),
  clicks: z.number().int(),
  lastClickAt: z.string().nullable(),
  createdAt: z.string(),
});
export type SkudoTrackingUrl = z.infer<typeof SkudoTrackingUrl>;

export const SkudoOffer = z.object({
  id: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  payoutModel: SkudoPayoutModelSchema,
  payoutAmount: z.number(),
  currency: z.string(),
  destinationUrl: z.string(),
  status: SkudoOfferStatusSchema,
  urls: z.array(SkudoTrackingUrl),
  clicks: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SkudoOffer = z.infer<typeof SkudoOffer>;

/** A new tracking URL: for a partner of the account, or a channel named by its label. */
export const SkudoTrackingUrlInput = z.object({
  partnerId: z.preprocess(blankToNull, z.uuid().nullable()).default(null),
  label: z.string().trim().max(120).default(''),
}).refine((u) => u.partnerId !== null || u.label !== '', { path: ['label'], message: 'Required', params: { rule: 'label_or_partner' } });
export type SkudoTrackingUrlInput = z.infer<typeof SkudoTrackingUrlInput>;

export const SkudoTrackingUrlUpdate = z.object({
  label: z.string().trim().min(1, 'Required').max(120),
  active: z.boolean(),
});
export type SkudoTrackingUrlUpdate = z.infer<typeof SkudoTrackingUrlUpdate>;

// ---- Partners ----

export const SkudoPartnerInput = z.object({
  name: Name,
  email: Email,
  status: SkudoPartnerStatusSchema.default('active'),
});
export type SkudoPartnerInput = z.infer<typeof SkudoPartnerInput>;

export const SkudoPartnerCreate = z.object({
  name: Name,
  email: Email,
  /** Mail the partner an invitation with a sign-in code. */
  invite: z.boolean().default(false),
});
export type SkudoPartnerCreate = z.infer<typeof SkudoPartnerCreate>;

export const SkudoPartner = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: SkudoPartnerStatusSchema,
  lastSignInAt: z.string().nullable(),
  urls: z.number().int(),
  activeUrls: z.number().int(),
  clicks: z.number().int(),
  createdAt: z.string(),
});
export type SkudoPartner = z.infer<typeof SkudoPartner>;

/** A code to hand over (shown once; only its hash is kept). */
export const SkudoAuthCode = z.object({
  code: z.string(),
  expiresAt: z.string(),
  /** The sign-in page with the code filled in. */
  loginUrl: z.string(),
});
export type SkudoAuthCode = z.infer<typeof SkudoAuthCode>;

// ---- The partner's pages ----

export const SkudoPartnerLogin = z.object({
  code: z.string().trim().min(1, 'Required').max(64),
});
export type SkudoPartnerLogin = z.infer<typeof SkudoPartnerLogin>;

export const SkudoPartnerMe = z.object({
  name: z.string(),
  email: z.string(),
  accountName: z.string(),
});
export type SkudoPartnerMe = z.infer<typeof SkudoPartnerMe>;

export const SkudoPartnerUrl = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  active: z.boolean(),
  live: z.boolean(),
  clicks: z.number().int(),
  lastClickAt: z.string().nullable(),
});
export type SkudoPartnerUrl = z.infer<typeof SkudoPartnerUrl>;

export const SkudoPartnerOffer = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  providerName: z.string(),
  campaignName: z.string().nullable(),
  payoutModel: SkudoPayoutModelSchema,
  payoutAmount: z.number(),
  currency: z.string(),
  destinationUrl: z.string(),
  status: SkudoOfferStatusSchema,
  urls: z.array(SkudoPartnerUrl),
});
export type SkudoPartnerOffer = z.infer<typeof SkudoPartnerOffer>;
