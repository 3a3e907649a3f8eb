/** What every handler gets: the services' dependencies and, for signed-in calls, the principal. */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { PrincipalRow } from '../features/accounts/repository.ts';
import type { LiveDocReader } from '../features/documents/liveDocs.ts';

export interface Deps {
  db: Db;
  config: Config;
  secret: string;
  log: Logger;
  /** Wakes the mail worker after a message is queued (in-process); a no-op when the worker runs elsewhere. */
  notifyMail: () => void;
  /** Wakes the delivery loop after a message is played or tested (in-process; optional: a worker elsewhere polls). */
  notifyDelivery?: (() => void) | undefined;
  /** Wakes the journey engine and the rules after ingestion wrote trigger inbox rows (in-process; a worker elsewhere polls). */
  notifyTriggers?: (() => void) | undefined;
  /** Wakes the journey engine (launch, stop, audience refreshes, the trigger inbox; in-process; a worker elsewhere polls). */
  notifyJourneys?: (() => void) | undefined;
  /** Reads collaborative documents as they are live on the sync server (absent when unreachable). */
  liveDocs?: LiveDocReader | undefined;
  /** The address this process listens on (set once listening); links fall back to it without PUBLIC_URL. */
  listenUrl?: string | undefined;
}

/** The signed-in user with its role and account, and the version of its `/user/meta` answer. */
export type Principal = PrincipalRow;
