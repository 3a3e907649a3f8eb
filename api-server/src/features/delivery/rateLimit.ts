/**
 * Rate limits per provider (migration 026), shared by every worker process through Postgres.
 *
 * A provider's limit is N sends a second. Time is cut into one-second windows; a worker about to
 * send `want` rows through a provider claims them in the current window with one upsert that holds
 * the window's row lock for an instant, and is granted what is left of the window's N (maybe 0).
 * What it is not granted goes back to the queue for the next window, without counting as an
 * attempt. So two workers, or twenty, never send more than N in a second together, and a limit
 * costs one short statement per batch and provider, not one per send.
 *
 * Windows older than a minute are deleted by `pruneRateWindows` (the pipeline's housekeeping).
 */
import type { Queryable } from '../../db/pool.ts';

/** The window an instant falls in, and when the next one opens. */
export function windowOf(now: Date): { start: Date; next: Date } {
  const start = Math.floor(now.getTime() / 1000) * 1000;
  return { start: new Date(start), next: new Date(start + 1000) };
}

/** How many of `want` sends through `providerKey` may go out in `now`'s window, at most `perSecond` a window. */
export async function claimSends(db: Queryable, providerKey: string, perSecond: number, want: number, now: Date): Promise<number> {
  if (want <= 0) return 0;
  const { start } = windowOf(now);
  const { rows } = await db.query<{ last_grant: number }>(
    `INSERT INTO provider_rate_windows AS w (provider_key, window_start, used, last_grant) VALUES ($1, $2, least($3::int, $4::int), least($3::int, $4::int))
     ON CONFLICT (provider_key, window_start)
       DO UPDATE SET used = least(w.used + $3::int, $4::int), last_grant = least(w.used + $3::int, $4::int) - w.used
     RETURNING last_grant`,
    [providerKey, start, want, perSecond]);
  return Math.max(0, rows[0]?.last_grant ?? 0);
}

export async function pruneRateWindows(db: Queryable, now: Date): Promise<void> {
  await db.query(`DELETE FROM provider_rate_windows WHERE window_start < $1::timestamptz - interval '1 minute'`, [now]);
}
