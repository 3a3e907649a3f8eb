/**
 * What ingestion hands to attribution (the one call it makes, in the batch's transaction): each
 * fresh `gd_install`, `gd_reinstall` and `gd_retargeting_open` becomes an `acq_pending` row with
 * the request's IP and user agent (the fingerprint) and the click id its install referrer carried
 * (shared `referrerClickId`: the `gd_click` or `referrer` property). Batches without those events
 * cost nothing; with them, one INSERT.
 */
import { builtInEventName } from '@gd/shared';
import { referrerClickId } from '@gd/shared/acquisition/attribution';
import type { Queryable } from '../../db/pool.ts';

const KINDS = new Map([
  [builtInEventName('install'), 'install'],
  [builtInEventName('reinstall'), 'reinstall'],
  [builtInEventName('retargeting_open'), 'retargeting_open'],
] as const);

export interface TouchEvent { name: string; time: Date; properties: Record<string, unknown> }

/** Whether an event's name is one attribution waits for. */
export const isAttributionEvent = (name: string): boolean => KINDS.has(name);

/**
 * Writes the pending rows of these (fresh) events; answers how many. A user agent longer than 1 KB
 * is cut (no browser sends one; it would only bloat the fingerprint index).
 */
export async function recordPending(db: Queryable, ctx: { appId: string; personId: string; deviceId: string; ip: string | null; userAgent: string | null },
  events: readonly TouchEvent[]): Promise<number> {
  const touches = events.filter((e) => KINDS.has(e.name));
  if (touches.length === 0) return 0;
  await db.query(
    `INSERT INTO acq_pending (app_id, kind, event_time, person_id, device_id, ip, user_agent, referrer_click_id)
     SELECT $1, k, t, $2, $3, $4::inet, $5, r FROM unnest($6::text[], $7::timestamptz[], $8::uuid[]) AS x(k, t, r)`,
    [ctx.appId, ctx.personId, ctx.deviceId, ctx.ip, ctx.userAgent?.slice(0, 1024) ?? null,
      touches.map((e) => KINDS.get(e.name)), touches.map((e) => e.time), touches.map((e) => referrerClickId(e.properties))],
  );
  return touches.length;
}
