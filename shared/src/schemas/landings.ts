/**
 * Landings (issue 17, piece C; /manage/landings): what the API answers and takes. The block model,
 * its validation and the decisions where SPEC is silent are in ../landings/model.ts; the page
 * itself is rendered by ../landings/render.ts. Table: landings, landing_visits (migration 050).
 */
import { z } from 'zod';
import { LandingBlocks, LandingColours, LandingDomain, LandingSlug, LandingStatus } from '../landings/model.ts';
import { Name } from './common.ts';

/** A landing in the list: everything but its blocks and colours. */
export const LandingSummary = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  domain: z.string().nullable(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  linkId: z.string().nullable(),
  linkName: z.string().nullable(),
  status: LandingStatus,
  /** The public address (on the custom domain, else the link host's /p/<slug>). */
  url: z.string(),
  /** Visits of people (bots apart), all time and in the last 7 days (UTC days, today included). */
  visits: z.number().int(),
  visitsWeek: z.number().int(),
  /** How many links and powlinks use it as their web fallback. */
  links: z.number().int(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LandingSummary = z.infer<typeof LandingSummary>;

export const Landing = LandingSummary.extend({
  colours: LandingColours,
  blocks: LandingBlocks,
});
export type Landing = z.infer<typeof Landing>;

const OptionalId = z.preprocess((v) => (v === '' ? null : v), z.uuid().nullable()).optional();

export const LandingInput = z.object({
  name: Name,
  slug: LandingSlug,
  /** A custom domain; empty or null: the link host. */
  domain: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), LandingDomain.nullable()).optional(),
  /** The acquisition campaign the landing is for (optional). */
  campaignId: OptionalId,
  /** The link the landing is for (optional; of the campaign when both are given). */
  linkId: OptionalId,
  colours: LandingColours,
  blocks: LandingBlocks,
});
export type LandingInput = z.infer<typeof LandingInput>;
export type LandingInputDraft = z.input<typeof LandingInput>;

export const LandingsQuery = z.object({
  campaignId: z.uuid().optional(),
});

/** Days of visits the editor shows. */
export const LandingVisitsQuery = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
});

export const LandingVisitDay = z.object({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  visits: z.number().int(),
  /** Of them, visits that came through a short link (carrying gd_click). */
  fromLinks: z.number().int(),
});
export type LandingVisitDay = z.infer<typeof LandingVisitDay>;
