/** The background jobs of this product (imports, exports), started in the API process or the worker. */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { LiveDocReader } from '../features/documents/liveDocs.ts';
import { exportJobKind } from '../features/exports/run.ts';
import { netPolicy } from '../net/index.ts';
import { importJobKind } from '../features/imports/run.ts';
import { reportRunJobKind, reportScheduleJobKind } from '../features/reports/run.ts';
import { breakdownBackfillJobKind } from '../features/analytics/breakdowns.ts';
import { startJobRunner, type JobRunner } from './runner.ts';
import { alongside, postbackWorkerId, startPostbacks } from '../features/postbacks/send.ts';

export interface JobDeps {
  db: Db;
  log: Logger;
  config: Config;
  /** The server secret (stored credentials are sealed with it). */
  secret: string;
  liveDocs?: LiveDocReader | undefined;
  /** Wakes the journey engine (an import added members to an audience a journey starts from). */
  notifyJourneys?: (() => void) | undefined;
}

/**
 * Two jobs at a time per process (an import and an export can run side by side); on embedded
 * PGlite they share its one connection, statement by statement.
 */
export function startBackgroundJobs(deps: JobDeps, opts: { intervalMs?: number; concurrency?: number } = {}): JobRunner {
  const net = netPolicy(deps.config);
  // Provider postbacks (features/postbacks/send.ts): the trigger inbox and the calls, on leased rows of acq_postbacks.
  const postbacks = deps.config.POSTBACKS_IN_PROCESS === 'on' ? startPostbacks({ db: deps.db, log: deps.log, netPolicy: net }, postbackWorkerId()) : null;
  return alongside(postbacks, startJobRunner({
    db: deps.db, log: deps.log, queue: deps.config.JOB_QUEUE, intervalMs: opts.intervalMs ?? 1000, concurrency: opts.concurrency ?? 2,
    kinds: [
      importJobKind({
        db: deps.db, log: deps.log, secret: deps.secret, net,
        get liveDocs() { return deps.liveDocs; },
        notifyJourneys: () => deps.notifyJourneys?.(),
      }),
      exportJobKind({ db: deps.db, log: deps.log }),
      reportScheduleJobKind({ db: deps.db, log: deps.log, secret: deps.secret, net }),
      reportRunJobKind({ db: deps.db, log: deps.log, secret: deps.secret, net }),
      breakdownBackfillJobKind({ db: deps.db, log: deps.log }),
    ],
  }));
}
