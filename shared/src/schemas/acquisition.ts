/**
 * Acquisition, apptracker side (issue 16, piece A): the platform's ad provider catalogue
 * (/admin/providers), an account's providers and their members (/acquisition/providers), an app's
 * sources, channels and campaigns (/acquisition/apptracker, .../channels,
 * /acquisition/apptracker-provider-view). Tables: migrations/040_acquisition.sql.
 *
 * Decisions:
 * - Campaign list scope (SPEC §2 "current, all"): `current` = campaigns that are not archived and
 *   whose end day, when set, is today or later; `all` = every campaign that is not deleted.
 *   Ownership `me` = the campaigns the user created.
 * - A user who is a member of an account provider (provider_members) sees only the campaigns of
 *   that provider's sources, everywhere (list, read, download, fraud export), and only that provider.
 * - Postback URL templates: an http(s) address on a public host once every `{macro}` is replaced
 *   by a sample value (SPEC §3 macros; the filling itself is shared/acquisition/macros.ts).
 * - `costValue` is per unit of the pricing model (click, install, lead, action) or the whole
 *   cost for `fixed`; `costEvent` is the paid event of a `cpa` campaign (required for cpa).
 */
import { z } from 'zod';
import { CampaignScope, OwnershipFilter } from '../enums.ts';
import { DateString, isPublicUrl } from '../formats.ts';
import {
  AccountProviderKind, AcqDestinations, AdProviderKind, AttributionMode, ATTRIBUTION_DEFAULTS, CampaignStatus, DeepLink,
  PricingModel, PublicUrl, SourceType,
} from '../acquisition/model.ts';
import { CampaignFigures } from '../acquisition/metrics.ts';
import { Name } from './common.ts';

/** `{macro}` placeholders replaced by a sample before checking the address. */
export const templateAsUrl = (template: string): string => template.replace(/\{[A-Za-z0-9_]+\}/g, 'x');
/** A postback URL template: http(s) on a public host once its macros are filled. */
export const PostbackUrlTemplate = z.string().trim().max(2048)
  .refine((s) => isPublicUrl(templateAsUrl(s), ['http:', 'https:']), { message: 'Expected an http(s) address on a public host', params: { rule: 'postback_url' } });
const optionalUrl = (schema: z.ZodType<string>) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable()).default(null);

// ---- The ad provider catalogue (/admin/providers) ----

export const AdProvider = z.object({
  id: z.string(),
  kind: AdProviderKind,
  name: z.string(),
  website: z.string().nullable(),
  installPostbackUrl: z.string().nullable(),
  eventPostbackUrl: z.string().nullable(),
  /** Account providers connected from this entry (not deleted). */
  accounts: z.number().int(),
  createdAt: z.string(),
});
export type AdProvider = z.infer<typeof AdProvider>;

export const AdProviderInput = z.object({
  kind: AdProviderKind,
  name: Name,
  website: optionalUrl(PublicUrl),
  installPostbackUrl: optionalUrl(PostbackUrlTemplate),
  eventPostbackUrl: optionalUrl(PostbackUrlTemplate),
});
export type AdProviderInput = z.infer<typeof AdProviderInput>;

// ---- An account's providers (/acquisition/providers) ----

export const ProviderPostbackMethod = z.enum(['GET', 'POST']);
export type ProviderPostbackMethod = z.infer<typeof ProviderPostbackMethod>;

export const ProviderMember = z.object({ userId: z.string(), name: z.string(), email: z.string() });
export type ProviderMember = z.infer<typeof ProviderMember>;

export const AccountProvider = z.object({
  id: z.string(),
  adProviderId: z.string().nullable(),
  adProviderName: z.string().nullable(),
  name: z.string(),
  kind: AccountProviderKind,
  installPostbackUrl: z.string().nullable(),
  eventPostbackUrl: z.string().nullable(),
  postbackMethod: ProviderPostbackMethod,
  active: z.boolean(),
  members: z.array(ProviderMember),
  /** Live campaigns (any app of the account) of sources tied to this provider. */
  campaigns: z.number().int(),
  /** Active links of those campaigns: while there are any, the provider cannot be deleted (20003). */
  activeLinks: z.number().int(),
  createdAt: z.string(),
});
export type AccountProvider = z.infer<typeof AccountProvider>;

export const AccountProviderInput = z.object({
  name: Name,
  kind: AccountProviderKind,
  /** The catalogue entry it was connected from, or null for a custom provider. */
  adProviderId: z.string().uuid().nullable().default(null),
  installPostbackUrl: optionalUrl(PostbackUrlTemplate),
  eventPostbackUrl: optionalUrl(PostbackUrlTemplate),
  postbackMethod: ProviderPostbackMethod.default('POST'),
  active: z.boolean().default(true),
  /** Users of the account tied to this provider (a user belongs to one provider at most). */
  memberIds: z.array(z.string().uuid()).max(200).default([]),
});
export type AccountProviderInput = z.infer<typeof AccountProviderInput>;

// ---- Sources ----

export const Source = z.object({
  id: z.string(),
  name: z.string(),
  type: SourceType,
  accountProviderId: z.string().nullable(),
  accountProviderName: z.string().nullable(),
  attribution: AttributionMode,
  lookbackDays: z.number().int(),
  reattributionDays: z.number().int(),
  fingerprint: z.boolean(),
  /** Live campaigns of the source: while there are any, it cannot be deleted. */
  campaigns: z.number().int(),
  createdAt: z.string(),
});
export type Source = z.infer<typeof Source>;

export const SourceInput = z.object({
  name: Name,
  type: SourceType,
  accountProviderId: z.string().uuid().nullable().default(null),
  attribution: AttributionMode.default('last_click'),
  lookbackDays: z.number().int().min(1).max(90).default(ATTRIBUTION_DEFAULTS.lookbackDays),
  reattributionDays: z.number().int().min(0).max(365).default(ATTRIBUTION_DEFAULTS.reattributionDays),
  fingerprint: z.boolean().default(true),
});
export type SourceInput = z.infer<typeof SourceInput>;

// ---- Channels ----

export const Channel = z.object({ id: z.string(), name: z.string(), campaigns: z.number().int(), createdAt: z.string() });
export type Channel = z.infer<typeof Channel>;
export const ChannelInput = z.object({ name: Name });
export type ChannelInput = z.infer<typeof ChannelInput>;

// ---- Campaigns ----

export const Campaign = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  sourceId: z.string(),
  sourceName: z.string(),
  sourceType: SourceType,
  accountProviderId: z.string().nullable(),
  accountProviderName: z.string().nullable(),
  channelId: z.string().nullable(),
  channelName: z.string().nullable(),
  pricingModel: PricingModel,
  costValue: z.number(),
  currency: z.string(),
  costEvent: z.string().nullable(),
  startDay: z.string().nullable(),
  endDay: z.string().nullable(),
  status: CampaignStatus,
  destinations: AcqDestinations,
  deepLink: z.string().nullable(),
  /** Active links on the link host. */
  activeLinks: z.number().int(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Campaign = z.infer<typeof Campaign>;

const Currency = z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'Expected a 3-letter currency code');
const EventName = z.string().trim().min(1, 'Required').max(120);

export const CampaignInput = z.object({
  name: Name,
  sourceId: z.string().uuid(),
  channelId: z.string().uuid().nullable().default(null),
  pricingModel: PricingModel,
  costValue: z.number().min(0).max(1e12).default(0),
  currency: Currency.default('USD'),
  costEvent: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), EventName.nullable()).default(null),
  startDay: DateString.nullable().default(null),
  endDay: DateString.nullable().default(null),
  status: CampaignStatus.default('active'),
  destinations: AcqDestinations.default({}),
  deepLink: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), DeepLink.nullable()).default(null),
}).superRefine((c, ctx) => {
  if (c.pricingModel === 'cpa' && !c.costEvent) ctx.addIssue({ code: 'custom', path: ['costEvent'], message: 'A cpa campaign pays for an event: choose it', params: { rule: 'cost_event' } });
  if (c.startDay && c.endDay && c.endDay < c.startDay) ctx.addIssue({ code: 'custom', path: ['endDay'], message: 'The end day comes before the start day', params: { rule: 'end_before_start' } });
});
export type CampaignInput = z.infer<typeof CampaignInput>;

/** Campaign list: scope and ownership (SPEC §2), an optional provider, and the range of the figures. */
export const CampaignListQuery = z.object({
  scope: CampaignScope.default('current'),
  owner: OwnershipFilter.default('all'),
  /** Only the campaigns of this account provider's sources (the provider view). */
  accountProviderId: z.string().uuid().optional(),
  /** Only the campaigns with this category (schemas/categories.ts). */
  categoryId: z.string().uuid().optional(),
  /** With both days: each campaign's figures over that range (app time zone). Without: no figures. */
  startDay: DateString.optional(),
  endDay: DateString.optional(),
}).refine((q) => !q.startDay || !q.endDay || q.startDay <= q.endDay, { message: 'The end day comes before the start day', path: ['endDay'] });
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

/** CSV download of the list (the list's query). */
export const CampaignDownloadQuery = CampaignListQuery;

/** Fraud export: suspicious clicks and installs over a range, of one campaign or all visible ones. */
export const FraudExportQuery = z.object({
  startDay: DateString,
  endDay: DateString,
  campaignId: z.string().uuid().optional(),
  accountProviderId: z.string().uuid().optional(),
}).refine((q) => q.startDay <= q.endDay, { message: 'The end day comes before the start day', path: ['endDay'] });
export type FraudExportQuery = z.infer<typeof FraudExportQuery>;

/** What the provider view offers the signed-in user: their own provider, or a picker. */
export const ProviderViewInfo = z.object({
  /** The account provider the user is a member of (then they see only it). */
  memberOf: z.object({ id: z.string(), name: z.string() }).nullable(),
  providers: z.array(z.object({ id: z.string(), name: z.string(), kind: AccountProviderKind })),
});
export type ProviderViewInfo = z.infer<typeof ProviderViewInfo>;

/** The campaign list's answer: the campaigns and, when the query has a range, their figures by id. */
export const CampaignListAnswer = {
  campaigns: z.array(Campaign),
  figures: z.record(z.string(), CampaignFigures),
};
