/**
 * Frequency caps (issue 13): at most N messages per person and channel per calendar day in the
 * person's time zone, counted over every message, journey and rule, all of which send through the
 * outbox; the SDK's in-app endpoint counts the same way (an in-app row is 'sent' when first handed
 * to the device).
 *
 * Several workers may hold rows of one person at once (two messages due together). A worker
 * counts what was sent today and what other workers are sending this instant (their leased rows):
 * over the cap by what was sent, the row is skipped; over it only with the sends in flight, it
 * waits a few seconds and is decided again on what they became, so two workers never both send
 * the person's last allowed message, and nobody is skipped for a send that then failed.
 */
import type { Queryable } from '../../db/pool.ts';
import { localDay } from './timing.ts';

type CapRow = { app_id: string; person_id: string; time_zone: string; test: boolean };

const personKeys = (rows: readonly CapRow[]) => {
  const capped = rows.filter((r) => !r.test);
  return { capped, apps: capped.map((r) => r.app_id), people: capped.map((r) => r.person_id) };
};

/** Messages each person got on each channel during their current local day, keyed `app:person:channel`. */
export async function sentToday(db: Queryable, rows: readonly CapRow[], now: Date): Promise<Map<string, number>> {
  const { capped, apps, people } = personKeys(rows);
  const counts = new Map<string, number>();
  if (capped.length === 0) return counts;
  const zoneOf = new Map(capped.map((r) => [`${r.app_id}:${r.person_id}`, r.time_zone]));
  const { rows: sent } = await db.query<{ app_id: string; person_id: string; channel: string; sent_at: Date }>(
    `SELECT app_id, person_id::text, channel, sent_at FROM message_outbox
      WHERE (app_id, person_id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[])) AND status = 'sent' AND NOT test
        AND sent_at > $3::timestamptz - interval '2 days'`,
    [apps, people, now]);
  for (const s of sent) {
    const zone = zoneOf.get(`${s.app_id}:${s.person_id}`) ?? 'UTC';
    if (localDay(s.sent_at, zone) !== localDay(now, zone)) continue;
    const key = `${s.app_id}:${s.person_id}:${s.channel}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Rows of these people other workers hold this instant (leased, not yet recorded), keyed `app:person:channel`. */
export async function inFlightElsewhere(db: Queryable, rows: readonly CapRow[], workerId: string, now: Date): Promise<Map<string, number>> {
  const { capped, apps, people } = personKeys(rows);
  const counts = new Map<string, number>();
  if (capped.length === 0) return counts;
  const { rows: held } = await db.query<{ app_id: string; person_id: string; channel: string; n: number }>(
    `SELECT app_id, person_id::text, channel, count(*)::int AS n FROM message_outbox
      WHERE (app_id, person_id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[])) AND status = 'queued' AND NOT test
        AND locked_until > $3 AND locked_by <> $4
      GROUP BY 1, 2, 3`,
    [apps, people, now, workerId]);
  for (const h of held) counts.set(`${h.app_id}:${h.person_id}:${h.channel}`, h.n);
  return counts;
}
