/**
 * Skudo, the account's offer marketplace (/products/skudo, /skudo/login, /skudo/offers): the
 * pure rules both sides apply, and the decisions SPEC does not take (it names the product area,
 * the route /skudo/login and the codes 20001..20005, nothing else).
 *
 * Who is who
 * - Everything belongs to one account (not to an app): providers, offers, campaigns, partners.
 *   Reading needs the screen's route key (`route:/products/skudo`); every change needs
 *   `api:skudo.edit` as well (Client, Admin, Manager, Client P. manager and Agency hold it;
 *   Author and Analyst only read; the Provider role does not see the screen).
 * - A provider is the owner of offers (an advertiser): a name (unique in the account, 30), an
 *   optional website and contact e-mail.
 * - An offer: title, description, optional image (https only, so the partner page never mixes
 *   content), payout model and amount with its currency (ISO 4217 letters), the destination URL
 *   (http(s), public host) and a status: draft (being prepared; partners do not see it and its
 *   URLs do not redirect), active, paused (partners see it; its URLs do not redirect), ended.
 *   Payout models: cpc (per click), cpl (per lead), cpi (per install), cpa (per action) and cps
 *   (a share of the sale: the amount is a percentage, 0..100).
 * - A campaign groups offers: name (unique), description, start day, optional end day (not
 *   before the start) and status active / paused / ended. An offer belongs to at most one
 *   campaign. Deleting a campaign leaves its (inactive) offers ungrouped.
 * - A tracking URL belongs to one offer and is for one partner or for a channel of the account's
 *   own (a label only: a newsletter, a social post). It is `/s/<code>` on the link host (the same
 *   host as /l: the origin of LINK_BASE_URL, else of PUBLIC_URL), the code 8 letters and digits,
 *   unique on the platform, never reused. It can be deactivated and activated again; its clicks
 *   stay. A partner's URL is labelled with the partner's name unless given a label.
 * - A partner (publisher): name and e-mail (unique in the account), active or suspended.
 *   "Invited" is shown until the partner first signs in.
 *
 * When a tracking URL redirects (`trackingLive`)
 * - The URL is active, its offer is active, its partner (if any) is active, and its campaign (if
 *   any) is active and today (UTC) is within its days. Otherwise the host answers 404 with a
 *   small page ("no longer available"), like an unknown code (10026 when JSON is asked for).
 * - Every request is stored as a click with a fresh id (bots and prefetchers flagged, as the /l
 *   host does); the URL's click count counts the others. The destination gets the click id:
 *   `{click_id}` in the destination is replaced by it, else `skudo_click=<id>` is added to the
 *   query (`destinationWithClick`), so the provider can report conversions against it.
 *
 * Deletion guards (`deletionRefusal`)
 * - An offer with active tracking URLs: 20001 (deactivate them first). Its inactive URLs and
 *   their clicks go with it.
 * - A campaign with active offers: 20002.
 * - A provider with active tracking URLs on any of its offers: 20003. Its offers (and their
 *   inactive URLs) go with it.
 * - A tracking URL may be deleted at any time (the screen asks first); a partner too: their URLs
 *   are deactivated and kept, with the partner's name as label, so click history stays.
 *
 * Authorization codes and the partner session
 * - A code is generated for one partner on the skudo screen (shown once, to hand over) or mailed
 *   with an invitation. 12 characters of an alphabet without look-alikes (no 0/O, 1/I/L, U),
 *   shown as XXXX-XXXX-XXXX (about 59 bits); typed in any case, with or without dashes and spaces.
 * - Valid for 30 minutes when handed over, 72 hours when mailed (a mail may wait in an inbox), and
 *   only once. A new code for a partner voids their earlier unused codes. Only the SHA-256 of a
 *   code is stored. A code that matches nothing, was used, was voided, or whose partner is
 *   suspended: 20004; one past its time: 20005. Failures count against the address like sign-in
 *   failures (50 per 15 minutes, then 10021).
 * - Signing in opens a partner session for 30 days: its own httpOnly cookie (`gd_skudo`, scoped
 *   to /api/skudo/partner), never an account user's session; state-changing calls carry the same
 *   CSRF double-submit token as the rest of the API. Signing out ends it; suspending or deleting
 *   the partner ends all their sessions. A missing, unknown, expired or ended session: 10006.
 * - A partner sees only their own tracking URLs and the offers they lead to (drafts hidden), the
 *   clicks of each URL, the payout, the destination and the offer's status; never other partners,
 *   channels or the account's other data.
 */
import { ErrorCode } from '../errors.ts';

export const SkudoPayoutModel = ['cpc', 'cpl', 'cpi', 'cpa', 'cps'] as const;
export type SkudoPayoutModel = (typeof SkudoPayoutModel)[number];
export const SkudoOfferStatus = ['draft', 'active', 'paused', 'ended'] as const;
export type SkudoOfferStatus = (typeof SkudoOfferStatus)[number];
export const SkudoCampaignStatus = ['active', 'paused', 'ended'] as const;
export type SkudoCampaignStatus = (typeof SkudoCampaignStatus)[number];
export const SkudoPartnerStatus = ['active', 'suspended'] as const;
export type SkudoPartnerStatus = (typeof SkudoPartnerStatus)[number];

/** How long a code is valid, by how it reached the partner. */
export const SKUDO_CODE_TTL_SECONDS = { handover: 30 * 60, email: 72 * 3600 } as const;
export type SkudoCodeChannel = keyof typeof SKUDO_CODE_TTL_SECONDS;
/** How long a partner session lasts. */
export const SKUDO_SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** The partner session's cookie and the path it is sent to. */
export const SKUDO_PARTNER_COOKIE = 'gd_skudo';
export const SKUDO_PARTNER_COOKIE_PATH = '/api/skudo/partner';

/** Code characters: upper-case letters and digits without look-alikes (0/O, 1/I/L) nor U. */
export const SKUDO_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SKUDO_CODE_LENGTH = 12;

/** A typed code as stored (upper case, no dashes or spaces), or null when it cannot be a code. */
export function normaliseSkudoCode(input: string): string | null {
  const bare = input.toUpperCase().replace(/[\s-]+/g, '');
  if (bare.length !== SKUDO_CODE_LENGTH) return null;
  for (const c of bare) if (!SKUDO_CODE_ALPHABET.includes(c)) return null;
  return bare;
}

/** A normalised code as shown: XXXX-XXXX-XXXX. */
export function formatSkudoCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** A code from random bytes (at least SKUDO_CODE_LENGTH); rejection sampling keeps it uniform. */
export function skudoCodeFromBytes(bytes: Uint8Array): string | null {
  const n = SKUDO_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = '';
  for (const b of bytes) {
    if (b >= limit) continue;
    out += SKUDO_CODE_ALPHABET[b % n];
    if (out.length === SKUDO_CODE_LENGTH) return out;
  }
  return null;
}

/** What a stored code row says at `now`. */
export type SkudoCodeState = 'valid' | 'invalid' | 'expired';
export function skudoCodeState(row: { usedAt: Date | null; expiresAt: Date; partnerActive: boolean } | undefined, now: Date): SkudoCodeState {
  if (!row || row.usedAt !== null || !row.partnerActive) return 'invalid';
  return now.getTime() >= row.expiresAt.getTime() ? 'expired' : 'valid';
}

/** Tracking URL codes: 8 letters and digits (the host refuses anything else before a lookup). */
export const TRACKING_CODE_PATTERN = /^[A-Za-z0-9]{8}$/;
const TRACKING_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function trackingCodeFromBytes(bytes: Uint8Array): string | null {
  const n = TRACKING_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = '';
  for (const b of bytes) {
    if (b >= limit) continue;
    out += TRACKING_ALPHABET[b % n];
    if (out.length === 8) return out;
  }
  return null;
}

/** Whether a tracking URL redirects (see the doc comment). `today` is YYYY-MM-DD in UTC. */
export function trackingLive(input: {
  urlActive: boolean;
  offerStatus: SkudoOfferStatus;
  partnerStatus: SkudoPartnerStatus | null;
  campaign: { status: SkudoCampaignStatus; startsOn: string; endsOn: string | null } | null;
  today: string;
}): boolean {
  if (!input.urlActive || input.offerStatus !== 'active') return false;
  if (input.partnerStatus !== null && input.partnerStatus !== 'active') return false;
  const c = input.campaign;
  if (c === null) return true;
  return c.status === 'active' && c.startsOn <= input.today && (c.endsOn === null || input.today <= c.endsOn);
}

/** The destination a click goes to: `{click_id}` replaced, else `skudo_click` added to the query. */
export function destinationWithClick(destination: string, clickId: string): string {
  if (destination.includes('{click_id}')) return destination.replaceAll('{click_id}', encodeURIComponent(clickId));
  const url = new URL(destination);
  url.searchParams.set('skudo_click', clickId);
  return url.toString();
}

/** The refusals of the deletion guards (SPEC §8). */
export const SKUDO_GUARD_CODES = {
  offer: ErrorCode.SKUDO_OFFER_HAS_ACTIVE_URLS, campaign: ErrorCode.CAMPAIGN_HAS_ACTIVE_OFFERS, provider: ErrorCode.PROVIDER_HAS_ACTIVE_URLS,
} as const;
export type SkudoGuarded = keyof typeof SKUDO_GUARD_CODES;

/**
 * Whether deleting a thing is refused, and with which code: an offer or a provider while any of
 * its tracking URLs is active, a campaign while any of its offers is active.
 */
export function deletionRefusal(kind: SkudoGuarded, counts: { activeUrls: number; activeOffers: number }): (typeof SKUDO_GUARD_CODES)[SkudoGuarded] | null {
  switch (kind) {
    case 'offer': return counts.activeUrls > 0 ? SKUDO_GUARD_CODES.offer : null;
    case 'provider': return counts.activeUrls > 0 ? SKUDO_GUARD_CODES.provider : null;
    case 'campaign': return counts.activeOffers > 0 ? SKUDO_GUARD_CODES.campaign : null;
    default: {
      const never: never = kind;
      return never;
    }
  }
}
