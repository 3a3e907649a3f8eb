/**
 * Monthly partitions of events, sessions, lifecycle events and message interactions are made ahead
 * of time, never by an ingestion request (any app key could otherwise make the database create
 * tables for every month it names): from MONTHS_BACK months ago to MONTHS_AHEAD months ahead, at
 * start and then every few hours. A late event whose month is older than that lands in the tables'
 * DEFAULT partition (migration 010), where queries still find it.
 */
import type { Logger } from 'pino';
import type { Queryable } from '../../db/pool.ts';
import { ensureMonthPartitions } from './repository.ts';

export const MONTHS_BACK = 13;
export const MONTHS_AHEAD = 2;
const EVERY_MS = 6 * 60 * 60 * 1000;

const monthStart = (d: Date, offset: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));

export async function ensurePartitionWindow(db: Queryable, now = new Date()): Promise<void> {
  await ensureMonthPartitions(db, monthStart(now, -MONTHS_BACK), monthStart(now, MONTHS_AHEAD));
}

/** Keeps the window moving with the calendar; failures are logged and tried again next time. */
export function startPartitionMaintenance(db: Queryable, log: Logger, everyMs = EVERY_MS): { stop(): void } {
  const timer = setInterval(() => {
    ensurePartitionWindow(db).catch((error: unknown) => log.error({ err: error }, 'partition maintenance failed'));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
