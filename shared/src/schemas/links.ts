/**
 * Links (issue 16, piece B): an app's tracking links and powlinks on the link host, and their
 * clicks (/acquisition/links, /acquisition/powlinks). Table: acq_links, acq_clicks (migration 040).
 * The rules (address, destinations, click id) are shared/src/acquisition/links.ts.
 *
 * Decisions:
 * - A link belongs to one campaign of the app; its code is global (the host has one namespace):
 *   generated (8 letters and digits) unless given, 3..64 of letters, digits, '_' and '-'. A code
 *   taken by any link answers 30 on `code`.
 * - Destinations left out on a link fall back to its campaign's; the link (with its campaign's)
 *   must send at least one platform somewhere (10001 `no_destination` on `destinations`).
 * - Counts: `clicks` are counted clicks (not bots), `uniqueClicks` distinct devices (a device id,
 *   else IP and user agent), `bots` the flagged ones; all time.
 * - A provider user (a member of an account provider) sees the links of that provider's campaigns
 *   only, as the apptracker does.
 * - A link may name a landing page of its app (`landingId`, issue 17): while that landing is
 *   published it is the web fallback on every platform (over the link's and the campaign's web
 *   addresses), reached with `gd_click` (and `gd_dl`); a draft or deleted landing leaves the
 *   link's own web addresses in place. A landing counts as a destination.
 */
import { z } from 'zod';
import { AcqDestinations, ClickPlatform, DeepLink, LinkKind, TrackingParams } from '../acquisition/model.ts';
import { LINK_CODE_PATTERN } from '../acquisition/links.ts';
import { Name } from './common.ts';

export const LinkCode = z.string().trim().regex(LINK_CODE_PATTERN, 'Use 3 to 64 letters, digits, _ or -');

export const Link = z.object({
  id: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  kind: LinkKind,
  name: z.string(),
  code: z.string(),
  /** The short link on the host (LINK_BASE_URL/code) with the link's parameters. */
  url: z.string(),
  params: TrackingParams,
  destinations: AcqDestinations,
  /** The campaign's destinations, which the link's own override. */
  campaignDestinations: AcqDestinations,
  deepLink: z.string().nullable(),
  /** A landing page of the app used as the web fallback on every platform (issue 17), or null. */
  landingId: z.string().nullable(),
  active: z.boolean(),
  clicks: z.number().int(),
  uniqueClicks: z.number().int(),
  bots: z.number().int(),
  lastClickAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Link = z.infer<typeof Link>;

export const LinkInput = z.object({
  campaignId: z.uuid(),
  kind: LinkKind,
  name: Name,
  /** Generated when left out (create only; a link keeps its code). */
  code: LinkCode.optional(),
  params: TrackingParams.default({}),
  destinations: AcqDestinations.default({}),
  deepLink: DeepLink.nullable().optional(),
  /** A landing page of the app as the web fallback (replaces the web addresses while it is published). */
  landingId: z.preprocess((v) => (v === '' ? null : v), z.uuid().nullable()).optional(),
  active: z.boolean().default(true),
});
export type LinkInput = z.infer<typeof LinkInput>;
export type LinkInputDraft = z.input<typeof LinkInput>;

export const LinkUpdate = LinkInput.omit({ code: true, kind: true });
export type LinkUpdate = z.infer<typeof LinkUpdate>;

export const LinksQuery = z.object({
  kind: LinkKind.optional(),
  campaignId: z.uuid().optional(),
});

/** One recorded click, as the link's click list shows it. */
export const LinkClick = z.object({
  id: z.string(),
  clickedAt: z.string(),
  ip: z.string().nullable(),
  platform: ClickPlatform,
  os: z.string().nullable(),
  osVersion: z.string().nullable(),
  device: z.string().nullable(),
  browser: z.string().nullable(),
  deviceIds: z.partialRecord(z.enum(['idfa', 'idfv', 'gaid', 'oaid']), z.string()),
  params: z.record(z.string(), z.string()),
  referrer: z.string().nullable(),
  bot: z.boolean(),
  botReason: z.string().nullable(),
});
export type LinkClick = z.infer<typeof LinkClick>;

/** Latest clicks shown for a link. */
export const LINK_CLICKS_LIMIT = 100;
