/**
 * Queuing provider postbacks (issue 16, piece D), always in the caller's transaction, so a
 * postback exists exactly when what caused it was committed:
 *
 * - `queueAttributionPostbacks(tx, appId, attributionIds)`: called by the attribution engine
 *   (features/attribution) in the transaction that wrote the attributions. For each attribution
 *   (install, reinstall or retargeting open) that credits a campaign whose source's account provider
 *   is active and has an install postback URL (its own, else its catalogue entry's), one
 *   `acq_postbacks` row; key `<kind>:<attribution id>`, so running it twice queues nothing twice.
 *   Organic attributions and providers without a URL queue nothing.
 * - `queueEventPostbacks(tx, limit)`: one batch of the trigger inbox of consumer `postbacks`
 *   (ingestion writes a row for each event whose name an active tracker listens for; trackers keep
 *   `trigger_interests` up to date). Each event of a person whose latest attribution at or before it
 *   credits a campaign queues a postback per matching tracker (that campaign's provider, the
 *   tracker's campaign when it names one); key `event:<tracker id>:<event client id>`. The inbox
 *   rows are deleted in the same transaction. A person whose install still waits for attribution is
 *   left for a later pass (at most WAIT_FOR_ATTRIBUTION_SECONDS).
 *
 * The request is built here (values.ts) and stored whole: the worker (send.ts) only sends it.
 */
import type { DbClient, Queryable } from '../../db/pool.ts';
import { buildRequest, macroValues } from './values.ts';
import * as repo from './repository.ts';

export const INBOX_BATCH = 200;
/** How long an event waits for its person's install to be attributed before it is judged without it. */
export const WAIT_FOR_ATTRIBUTION_SECONDS = 600;

function build(template: string, method: 'GET' | 'POST', facts: Parameters<typeof macroValues>[0], key: string, extra?: { event?: string | null; macros?: readonly string[] }) {
  try {
    return buildRequest(template, method, macroValues(facts, key), extra);
  } catch {
    // A template that does not make a URL once filled (it was checked when saved; a catalogue edit may have broken it).
    return null;
  }
}

/** Queues the install postbacks of these attributions (see the module doc); answers how many were new. */
export async function queueAttributionPostbacks(tx: Queryable, appId: string, attributionIds: readonly (string | number | bigint)[]): Promise<number> {
  if (attributionIds.length === 0) return 0;
  const facts = await repo.attributionFacts(tx, appId, attributionIds.map(String));
  const rows: repo.NewPostback[] = [];
  for (const f of facts) {
    if (!f.install_url) continue;
    const key = `${f.kind}:${f.attribution_id}`;
    const req = build(f.install_url, f.method, repo.factsOf(f), key);
    if (!req) continue;
    rows.push({
      appId, campaignId: f.campaign_id, providerId: f.provider_id, kind: f.kind, dedupKey: key, attributionId: f.attribution_id,
      trackerId: null, eventName: null, method: req.method, url: req.url, body: req.body,
    });
  }
  return repo.insertPostbacks(tx, rows);
}

/** One batch of the inbox (see the module doc), in the caller's transaction; answers the inbox rows consumed. */
export async function queueEventPostbacks(tx: DbClient, limit = INBOX_BATCH): Promise<{ consumed: number; queued: number }> {
  const inbox = await repo.leaseInbox(tx, limit, WAIT_FOR_ATTRIBUTION_SECONDS);
  if (inbox.length === 0) return { consumed: 0, queued: 0 };
  const byId = new Map(inbox.map((r) => [r.id, r]));
  const rows: repo.NewPostback[] = [];
  for (const m of await repo.eventMatches(tx, inbox.map((r) => r.id))) {
    const event = byId.get(m.inbox_id);
    const template = m.tracker_url ?? m.event_url;
    if (!event || !template) continue;
    const key = `event:${m.tracker_id}:${event.client_id}`;
    const req = build(template, m.method, repo.factsOf(m, { at: event.at, properties: event.properties, revenue: m.revenue }), key,
      { event: m.provider_event, macros: m.macros });
    if (!req) continue;
    rows.push({
      appId: event.app_id, campaignId: m.campaign_id, providerId: m.provider_id, kind: 'event', dedupKey: key, attributionId: m.attribution_id,
      trackerId: m.tracker_id, eventName: event.name, method: req.method, url: req.url, body: req.body,
    });
  }
  const queued = await repo.insertPostbacks(tx, rows);
  await repo.deleteInbox(tx, inbox.map((r) => r.id));
  return { consumed: inbox.length, queued };
}
