/**
 * What each share service receives for one person: the rows of its upload format, built from
 * the person's identifiers normalised and hashed as the platform documents (identifiers.ts).
 * A person without any identifier the platform matches on yields no row (not sent).
 *
 * - meta_ads (Meta Marketing API, custom audience users): one row per person in the multi-key
 *   schema `EMAIL, PHONE, MADID, EXTERN_ID` (hashes, the MADID in the clear, '' where unknown);
 *   the ad id is the person's most recently seen device's.
 * - google_ads (Customer Match, OfflineUserDataJobService): one operation per person whose
 *   `userIdentifiers` are `hashedEmail` and `hashedPhoneNumber`. Decision: a Customer Match list
 *   takes one upload key type; the list created for a share is CONTACT_INFO (e-mail and phone),
 *   the identifiers most people of an app have; device ids are not sent to Google.
 * - the_trade_desk (Data API, first-party data): one item per device advertising id (`DAID`).
 *   Decision: the Data API matches on its own or device ids; e-mails would need UID2 tokens, which
 *   this product does not mint, so only device ids are sent.
 * - tiktok_ads has no uploader yet (see SHARE_PLATFORMS): shares to it are refused.
 */
import type { IntegrationService } from '../integrations/model.ts';
import {
  normaliseAdId, normaliseCustomerId, normaliseEmail, normaliseEmailForGoogle, normalisePhone, sha256Hex,
} from './identifiers.ts';

/** A person's identifiers as stored (people.email, customer_id, attributes.phone; their devices' ad ids, latest first). */
export interface PersonIdentifiers {
  customerId: string | null;
  email: string | null;
  phone: string | null;
  adIds: string[];
}

/** One row of a platform's upload: its field names to values (hashes, or ids in the clear where the platform says so). */
export type UploadRow = Record<string, string>;

export interface SharePlatform {
  /** Largest number of rows in one request (the platform's documented limit, or below it). */
  batchSize: number;
  /**
   * The platform forgets an uploaded row after this many minutes (The Trade Desk's TTL): rows
   * uploaded more than half of it ago are sent again on the next run, so members stay in.
   */
  ttlMinutes?: number;
  /** The rows of one person (none: nothing to match on). */
  rows(person: PersonIdentifiers): Promise<UploadRow[]>;
}

/** Meta's multi-key schema, in the order each row's data array follows. */
export const META_SCHEMA = ['EMAIL', 'PHONE', 'MADID', 'EXTERN_ID'] as const;
/** Meta: at most 10,000 users per request to /{audience_id}/users. */
export const META_BATCH = 10_000;
/** Google Ads: operations per addOperations call (each with up to two identifiers; the API takes 100,000 identifiers per request). */
export const GOOGLE_BATCH = 10_000;
/** The Trade Desk Data API: items per POST /data/advertiser. */
export const TTD_BATCH = 10_000;
/** The Trade Desk: how long a segment membership lives (30 days); 0 removes it. */
export const TTD_TTL_MINUTES = 43_200;

const hashOrEmpty = async (v: string | null) => (v === null ? '' : sha256Hex(v));

export const SHARE_PLATFORMS: Partial<Record<IntegrationService, SharePlatform>> = {
  meta_ads: {
    batchSize: META_BATCH,
    async rows(p) {
      const email = normaliseEmail(p.email);
      const phone = normalisePhone(p.phone);
      const madid = p.adIds.map(normaliseAdId).find((v) => v !== null) ?? null;
      const externalId = normaliseCustomerId(p.customerId);
      if (!email && !phone && !madid && !externalId) return [];
      return [{ EMAIL: await hashOrEmpty(email), PHONE: await hashOrEmpty(phone), MADID: madid ?? '', EXTERN_ID: await hashOrEmpty(externalId) }];
    },
  },
  google_ads: {
    batchSize: GOOGLE_BATCH,
    async rows(p) {
      const email = normaliseEmailForGoogle(p.email);
      const phone = normalisePhone(p.phone);
      if (!email && !phone) return [];
      const row: UploadRow = {};
      if (email) row.hashedEmail = await sha256Hex(email);
      if (phone) row.hashedPhoneNumber = await sha256Hex(`+${phone}`);
      return [row];
    },
  },
  the_trade_desk: {
    batchSize: TTD_BATCH,
    ttlMinutes: TTD_TTL_MINUTES,
    rows(p) {
      const ids = [...new Set(p.adIds.map(normaliseAdId).filter((v): v is string => v !== null))];
      return Promise.resolve(ids.map((DAID) => ({ DAID })));
    },
  },
};

/** The platform of a share service, when this product can upload to it. */
export const sharePlatform = (service: string): SharePlatform | undefined => (SHARE_PLATFORMS as Record<string, SharePlatform | undefined>)[service];

/** Splits `items` into consecutive batches of at most `size` (the last may be shorter; none for no items). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

