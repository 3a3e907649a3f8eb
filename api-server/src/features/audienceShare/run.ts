/**
 * Share runs: what changed in an audience since its last upload, sent to the platform.
 *
 * A run is claimed (repository `claimDueShare`: SKIP LOCKED, a lease of SHARE_LEASE_MINUTES taken
 * over when its process died), the audience shows `sync`, then, through the integration
 * (`integrationAccess`: the Authorization header, refreshed tokens):
 * 1. the platform audience is created when the share names none (its id stored at once, so a
 *    retry never creates a second one);
 * 2. people uploaded who left the audience are removed, page by page;
 * 3. on platforms whose memberships expire (The Trade Desk), members sent more than half the TTL
 *    ago are sent again;
 * 4. members not uploaded yet are read with their identifiers, normalised and hashed (shared
 *    `SHARE_PLATFORMS`), and uploaded page by page.
 * A page is at most the platform's batch size of people; its rows go in requests of at most the
 * batch size, in one upload session (a Google Ads job is run at the page's end), and once the
 * platform took them, the page is recorded in `audience_share_members` in one statement. So a run
 * that fails or dies part-way keeps what the platform took, and the next run sends only the rest.
 * The end: the share `ready` with its counts and the audience back to `ready`; or the share and
 * the audience `error` with the code and reason, retried after the next refresh or "sync now".
 */
import type { Logger } from 'pino';
import { ErrorCode, sharePlatform, batches, type ErrorCodeValue, type PersonIdentifiers, type UploadRow } from '@gd/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/pool.ts';
import { startLoop, type Loop } from '../../jobs/loop.ts';
import { netPolicy } from '../../net/index.ts';
import { integrationAccess, type IntegrationAccess } from '../integrations/access.ts';
import { PlatformFailure, uploaderFor, type PlatformUploader } from './uploaders/index.ts';
import * as repo from './repository.ts';

export interface ShareDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** The server secret (credentials are sealed with it); read from the database when absent. */
  secret?: string | undefined;
  /** People per page and rows per request, below the platform's own limit (tests use small ones). */
  batchSize?: number | undefined;
}

interface Outcome { added: number; removed: number }

const integrationGone = (label: string) => `The ${label} integration is disconnected: connect it again in Integrations, then sync`;

/** The name a created platform audience gets (the Trade Desk segment: a stable name made of the audience id). */
export function platformAudienceName(service: string, audience: { id: string; name: string }): string {
  return service === 'the_trade_desk' ? `growthdeck-${audience.id}` : `${audience.name} (Growthdeck)`.slice(0, 200);
}

/** Sends people (their rows) in requests of at most `size` rows, as one session; answers those the platform took. */
async function sendPage(uploader: PlatformUploader, platformId: string, op: 'add' | 'remove', people: repo.SentMember[], size: number): Promise<repo.SentMember[]> {
  const flat = people.flatMap((p, person) => p.rows.map((row) => ({ person, row })));
  if (flat.length === 0) return [];
  const session = uploader.session(platformId, op, flat.length);
  const failedRows = new Set<number>();
  const groups = batches(flat.map((f, i) => ({ ...f, i })), size);
  for (const [n, group] of groups.entries()) {
    const failed = await session.send(group.map((g) => g.row), n === groups.length - 1);
    for (const index of failed) {
      const at = group[index];
      if (at) failedRows.add(at.i);
    }
  }
  await session.close();
  const taken = new Map<string, UploadRow[]>();
  flat.forEach((f, i) => {
    const personId = people[f.person]?.person_id;
    if (failedRows.has(i) || personId === undefined) return;
    taken.set(personId, [...(taken.get(personId) ?? []), f.row]);
  });
  return [...taken].map(([person_id, rows]) => ({ person_id, rows }));
}

const identifiersOf = (m: repo.MemberIdentifiers): PersonIdentifiers => ({ customerId: m.customer_id, email: m.email, phone: m.phone, adIds: m.ad_ids ?? [] });

/** Steps 1 to 4 of the module doc (throws PlatformFailure when the platform refuses). */
async function upload(deps: ShareDeps, share: repo.ClaimedShare, access: IntegrationAccess): Promise<Outcome> {
  const platform = sharePlatform(share.service);
  const uploader = uploaderFor(access, netPolicy(deps.config));
  if (!platform || !uploader) throw new PlatformFailure(ErrorCode.MANDATORY, `Audiences cannot be shared to ${share.service} yet`);
  const size = Math.min(deps.batchSize ?? platform.batchSize, platform.batchSize);
  let platformId = share.platform_audience_id;
  if (!platformId) {
    platformId = await uploader.createAudience(share.platform_audience_name, `Audience "${share.audience_name}" shared from Growthdeck`);
    await repo.setPlatformAudience(deps.db, share.id, platformId);
  }
  let removed = 0;
  for (;;) {
    const page = await repo.removedMembers(deps.db, share, size);
    if (page.length === 0) break;
    await sendPage(uploader, platformId, 'remove', page, size);
    // Removed from the platform (a row it did not take is not on it either): forgotten.
    await repo.forgetSent(deps.db, share.id, page.map((p) => p.person_id));
    removed += page.length;
  }
  if (platform.ttlMinutes) {
    for (;;) {
      const page = await repo.staleMembers(deps.db, share, Math.floor(platform.ttlMinutes / 2), size);
      if (page.length === 0) break;
      const taken = await sendPage(uploader, platformId, 'add', page, size);
      await repo.recordSent(deps.db, share.id, taken);
      if (taken.length < page.length) break; // the rest is tried again on the next run
    }
  }
  let added = 0;
  let after: string | null = null;
  for (;;) {
    const members = await repo.addedMembers(deps.db, share, after, size);
    if (members.length === 0) break;
    after = members.at(-1)?.person_id ?? null;
    const page: repo.SentMember[] = [];
    for (const m of members) {
      const rows = await platform.rows(identifiersOf(m));
      if (rows.length > 0) page.push({ person_id: m.person_id, rows });
    }
    const taken = await sendPage(uploader, platformId, 'add', page, size);
    await repo.recordSent(deps.db, share.id, taken);
    added += taken.length;
  }
  return { added, removed };
}

/** Runs a claimed share to its end state; never throws. */
export async function runShare(deps: ShareDeps, share: repo.ClaimedShare): Promise<void> {
  const { db, log } = deps;
  await repo.audienceSyncing(db, share.app_id, share.audience_id);
  const fail = async (code: number, message: string) => {
    await repo.recordFailed(db, share.id, code, message);
    await repo.audienceShareFailed(db, share.app_id, share.audience_id, `Sharing to ${share.integration_name} failed (${code}): ${message}`);
  };
  try {
    const access = await integrationAccess(deps, share.app_id, share.integration_id);
    if (!access.ok) {
      const integration = await repo.findIntegrationBrief(db, share.app_id, share.integration_id);
      if (integration?.status === 'disconnected' || integration?.status === 'pending') {
        await repo.recordInactive(db, share.id, integrationGone(integration.name));
        await repo.audienceSynced(db, share.app_id, share.audience_id);
        return;
      }
      await fail(access.code, access.message);
      return;
    }
    const outcome = await upload(deps, share, access.value);
    await repo.recordSynced(db, share.id, outcome);
    await repo.audienceSynced(db, share.app_id, share.audience_id);
  } catch (error) {
    if (error instanceof PlatformFailure) {
      log.warn({ shareId: share.id, service: share.service, code: error.code, reason: error.message }, 'audience share failed');
      await fail(error.code, error.message).catch((e: unknown) => log.error({ err: e }, 'recording a share failure failed'));
      return;
    }
    log.error({ err: error, shareId: share.id }, 'audience share run failed');
    await fail(ErrorCode.GENERIC, 'The share could not be completed (an internal error); it is tried again after the next refresh')
      .catch((e: unknown) => log.error({ err: e }, 'recording a share failure failed'));
  }
}

/** Runs due shares one by one (up to `max`); answers how many ran. */
export async function syncDueShares(deps: ShareDeps, max = 10): Promise<number> {
  let done = 0;
  while (done < max) {
    const claimed = await repo.claimDueShare(deps.db);
    if (!claimed) break;
    await runShare(deps, claimed);
    done++;
  }
  return done;
}

/**
 * Removes from the platform audience every person the share uploaded (a deletion). Answers the
 * failure when the platform refuses; what was removed before it stays forgotten.
 */
export async function removeEverything(deps: ShareDeps, share: repo.ShareRow): Promise<{ ok: true } | { ok: false; code: ErrorCodeValue; message: string }> {
  if (!share.platform_audience_id) return { ok: true };
  const platform = sharePlatform(share.service);
  const access = await integrationAccess(deps, share.app_id, share.integration_id);
  if (!access.ok) return { ok: false, code: access.code, message: access.message };
  const uploader = uploaderFor(access.value, netPolicy(deps.config));
  if (!platform || !uploader) return { ok: true };
  const size = Math.min(deps.batchSize ?? platform.batchSize, platform.batchSize);
  try {
    for (;;) {
      const page = await repo.sentMembers(deps.db, share.id, null, size);
      if (page.length === 0) return { ok: true };
      await sendPage(uploader, share.platform_audience_id, 'remove', page, size);
      await repo.forgetSent(deps.db, share.id, page.map((p) => p.person_id));
    }
  } catch (error) {
    if (error instanceof PlatformFailure) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

const loops = new Set<Loop>();

/** Wakes this process's share loops (a new share, "sync now"); a worker elsewhere polls. */
export function wakeAudienceShares(): void {
  for (const loop of loops) loop.wake();
}

/**
 * The share loop of one process (the API with AUDIENCE_SHARE_IN_PROCESS on, and each worker):
 * due shares every `intervalMs` (after audience refreshes), at once when woken.
 */
export function startAudienceShares(deps: ShareDeps, opts: { intervalMs?: number } = {}): { wake(): void; stop(): Promise<void> } {
  const loop = startLoop('audience shares', deps.log, opts.intervalMs ?? 5000, async (self) => {
    while (!self.stopped && (await syncDueShares(deps, 10)) === 10) { /* more due: go on */ }
  });
  loops.add(loop);
  return {
    wake: () => loop.wake(),
    async stop() {
      loops.delete(loop);
      await loop.stop();
    },
  };
}
