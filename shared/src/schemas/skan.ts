/**
 * SKAdNetwork (/acquisition/skadnetwork): what the web app sends and reads. The rules (signed
 * strings, the conversion-value schema, decoding, figures) are in ../acquisition/skan.ts.
 *
 * - Settings of an app: its App Store id (the `app-id` of Apple's postbacks; one app of the whole
 *   platform per App Store id, so postbacks go to exactly one app: a taken id answers 30) and the
 *   mapping of ad networks' source identifiers (or campaign ids before 4.0) to its campaigns.
 * - Postbacks received, filterable by window, fidelity and verification; figures per campaign.
 */
import { z } from 'zod';
import { DateString } from '../formats.ts';
import { SkanCoarse, SkanConversionSchema, SkanFidelity, SkanWindow } from '../acquisition/skan.ts';
import { QueryFlag, checkRange } from './behaviour.ts';

const Count = z.number().int().min(0);
const Uuid = z.string().uuid();

export const AppStoreId = z.string().trim().regex(/^[1-9]\d{0,18}$/, 'An App Store id is a number such as 1234567890');

export const SkanMapping = z.object({
  adNetworkId: z.string().trim().min(1, 'Required').max(128),
  sourceIdentifier: z.string().trim().regex(/^\d{1,4}$/, 'Up to 4 digits'),
  campaignId: Uuid,
});
export type SkanMapping = z.infer<typeof SkanMapping>;

export const SKAN_LIMITS = { maxMappings: 500, pageSize: 100 } as const;

export const SkanSettingsInput = z.object({
  appStoreId: AppStoreId.nullable(),
  mappings: z.array(SkanMapping).max(SKAN_LIMITS.maxMappings).default([]),
}).superRefine((s, ctx) => {
  const seen = new Set<string>();
  s.mappings.forEach((m, i) => {
    const key = `${m.adNetworkId.toLowerCase()}\u0000${m.sourceIdentifier}`;
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['mappings', i, 'sourceIdentifier'], message: 'This network and identifier are already mapped' });
    seen.add(key);
  });
});
export type SkanSettingsInput = z.input<typeof SkanSettingsInput>;

export const SkanSettings = z.object({
  appStoreId: z.string().nullable(),
  mappings: z.array(SkanMapping.extend({ campaignName: z.string().nullable() })),
  schema: SkanConversionSchema,
  /** Where Apple sends postbacks: the developer copy address and the API's. */
  endpoints: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type SkanSettings = z.infer<typeof SkanSettings>;

export const SkanPostbackQuery = z.object({
  startDay: DateString,
  endDay: DateString,
  window: z.enum(['0', '1', '2']).transform(Number).pipe(SkanWindow).optional(),
  fidelity: z.enum(['0', '1']).transform(Number).pipe(SkanFidelity).optional(),
  verified: QueryFlag.optional(),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
}).superRefine(checkRange);
export type SkanPostbackQuery = z.infer<typeof SkanPostbackQuery>;

export const SkanRejectReason = z.enum(['bad_signature', 'unsupported_version', 'missing_field', 'bad_key']);
export type SkanRejectReason = z.infer<typeof SkanRejectReason>;

export const SkanPostbackRow = z.object({
  id: z.string(),
  receivedAt: z.string(),
  version: z.string(),
  adNetworkId: z.string(),
  sourceIdentifier: z.string(),
  transactionId: z.string(),
  window: SkanWindow,
  fidelity: SkanFidelity.nullable(),
  didWin: z.boolean().nullable(),
  redownload: z.boolean(),
  fineValue: z.number().int().nullable(),
  coarseValue: SkanCoarse.nullable(),
  sourceAppId: z.string().nullable(),
  sourceDomain: z.string().nullable(),
  verified: z.boolean(),
  rejectReason: SkanRejectReason.nullable(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  /** What the value stands for under the current schema. */
  events: z.array(z.string()),
  revenueMin: z.number().nullable(),
  revenueMax: z.number().nullable(),
});
export type SkanPostbackRow = z.infer<typeof SkanPostbackRow>;

export const SkanWindowFiguresSchema = z.object({
  window: SkanWindow,
  postbacks: Count,
  installs: Count,
  redownloads: Count,
  fine: Count,
  coarse: Count,
  noValue: Count,
  unmapped: Count,
  events: z.record(z.string(), Count),
  revenueMin: z.number(),
  revenueMax: z.number().nullable(),
});

export const SkanCampaignFiguresSchema = z.object({
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  adNetworkId: z.string().nullable(),
  sourceIdentifier: z.string().nullable(),
  windows: z.array(SkanWindowFiguresSchema),
});
export type SkanCampaignFiguresRow = z.infer<typeof SkanCampaignFiguresSchema>;

export const SkanFiguresQuery = z.object({ startDay: DateString, endDay: DateString }).superRefine(checkRange);

/** What the postback endpoint answers (Apple only looks at the HTTP status: 200). */
export const SkanReceipt = {
  /** false: no app has this App Store id; nothing stored. */
  stored: z.boolean(),
  verified: z.boolean(),
  /** true: this transaction and window were already stored (a retry); nothing changed. */
  duplicate: z.boolean(),
};
