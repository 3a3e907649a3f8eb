/**
 * Frequency caps (issue 13): at most N messages per person and channel per calendar day in the
 * person's time zone, counted over every message, journey and rule, all of which send through the
 * outbox; the SDK's in-app endpoint counts the same way (an in-app row is 'sent' when first handed
 * to the device).
 *
 * Several workers (and the two senders of one process) may hold rows of one person at once (two
 * messages due together). A worker counts, in one snapshot, what was sent today and what other
 * workers are sending this instant (their leased rows):
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
  return (await capCounts(db, rows, null, now)).sent;
}

/**
 * For a worker's batch: what each person got today (`sent`) and what other workers hold for them
 * this instant (`elsewhere`: rows leased, not yet recorded), both keyed `app:person:channel`.
 *
 * One statement, so one snapshot: a row another worker records as sent while this runs is counted
 * exactly once, as in flight or as sent. Read by two statements, it could fall between them (in
 * flight when the first looked, sent only after the second) and both workers would send the
 * person's last allowed message (a test sends two capped messages through two senders at once).
 */
export async function capCounts(db: Queryable, rows: readonly CapRow[], workerId: string | null, now: Date): Promise<{ sent: Map<string, number>; elsewhere: Map<string, number> }> {
  const { capped, apps, people } = personKeys(rows);
  const sent = new Map<string, number>();
  const elsewhere = new Map<string, number>();
  if (capped.length === 0) return { sent, elsewhere };
  const zoneOf = new Map(capped.map((r) => [`${r.app_id}:${r.person_id}`, r.time_zone]));
  const { rows: found } = await db.query<{ app_id: string; person_id: string; channel: string; sent_at: Date | null }>(
    `SELECT app_id, person_id::text, channel, CASE WHEN status = 'sent' THEN sent_at END AS sent_at FROM message_outbox
      WHERE (app_id, person_id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[])) AND NOT test
        AND ((status = 'sent' AND sent_at > $3::timestamptz - interval '2 days')
          OR ($4::text IS NOT NULL AND status = 'queued' AND locked_until > $3 AND locked_by <> $4))`,
    [apps, people, now, workerId]);
  for (const f of found) {
    const key = `${f.app_id}:${f.person_id}:${f.channel}`;
    if (f.sent_at === null) {
      elsewhere.set(key, (elsewhere.get(key) ?? 0) + 1);
      continue;
    }
    const zone = zoneOf.get(`${f.app_id}:${f.person_id}`) ?? 'UTC';
    if (localDay(f.sent_at, zone) !== localDay(now, zone)) continue;
    sent.set(key, (sent.get(key) ?? 0) + 1);
  }
  return { sent, elsewhere };
}
