/**
 * Audience sharing (issue 17, docs/design/integrations.md "B."): an audience's members sent to an
 * ad platform through an integration (SPEC §3 "audience: share (to a social platform, a search-ad
 * platform, a trade-desk platform)"; SPEC §4 audience states `sync` and `error`).
 *
 * A share links one audience to one integration of a share service (`shareServices(entry)`):
 * the platform audience it fills (created on the platform at the first run when none is named),
 * its state (`sync` while a run is due or running, `ready`, `error` with the catalogue code and
 * reason, `inactive` when sharing was stopped) and counts. It records, per person, the rows it
 * uploaded, so each run sends only the people added since the last one and removes those who left,
 * in batches of the platform's size.
 *
 * Decisions where SPEC says nothing ("not shown"):
 * - Who may share: the entry's permission (`ui:audience.shareSocial|shareSearchAds|shareTradeDesk`)
 *   for the integration's service; seeing shares needs `ui:audience.view`. A share is owned by the
 *   audience: anybody holding the entry's key acts on it.
 * - One share per audience and integration (a second one answers 30, like a name in use).
 * - The platform audience: named by the user (an existing Meta custom audience id, Google Ads user
 *   list resource name or Trade Desk segment name), or created at the first run, named after the
 *   audience ("<audience name> (Growthdeck)"; Trade Desk: a segment name made of the audience's id).
 * - When runs happen: at once when shared, after each refresh of the audience (its refreshed_at
 *   passes the one the last run uploaded), and on "sync now". A run that fails leaves the share
 *   and the audience `error` (audience error name RecoverableTaskError, the reason in its message)
 *   and is tried again after the next refresh or "sync now"; what was uploaded before the failure
 *   is kept and not sent twice.
 * - While a run goes, the audience is `sync`; after it, `ready` (unless something else changed its
 *   state meanwhile). An audience being counted (in progress), inactive or never counted is not
 *   shared until it is ready.
 * - A member whose identifiers change after being uploaded keeps the rows first uploaded until they
 *   leave the audience (then those rows are removed); members with no identifier the platform
 *   matches on are not sent, counted as "without identifiers", and looked at again on each run.
 * - Deleting a share removes from the platform audience every person the share uploaded (the
 *   platform audience itself stays: campaigns may still name it), then forgets the share. If the
 *   platform cannot be reached the deletion is refused with the service's connection code and
 *   nothing changes; `keepOnPlatform: true` stops syncing without removing anybody.
 * - Phones come from the person's `phone` profile attribute (E.164, identifiers.ts).
 */
import { z } from 'zod';

/** The share entries of the audience menu (permission `ui:audience.share<Entry>`). */
export const ShareEntry = z.enum(['social', 'searchAds', 'tradeDesk']);
export type ShareEntry = z.infer<typeof ShareEntry>;

export const ShareStatus = z.enum(['sync', 'ready', 'error', 'inactive']);
export type ShareStatus = z.infer<typeof ShareStatus>;

/** The permission key of each share entry. */
export const SHARE_PERMISSION = {
  social: 'ui:audience.shareSocial',
  searchAds: 'ui:audience.shareSearchAds',
  tradeDesk: 'ui:audience.shareTradeDesk',
} as const satisfies Record<ShareEntry, string>;

/** The audience error name a failed share records (SPEC §8 import error names: retried on the next refresh). */
export const SHARE_ERROR_NAME = 'RecoverableTaskError';

/** A run left `sync` this long without finishing (its process died) is taken over. */
export const SHARE_LEASE_MINUTES = 15;
