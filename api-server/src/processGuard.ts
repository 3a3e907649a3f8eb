/**
 * The last line of defence of a product process (the API, which in `npm start` also runs the sync
 * server and the worker for every account): an error that escaped every handler (an unheeded
 * stream or socket error, a rejected promise nobody awaited) is logged and the process keeps
 * serving. Each such error is a bug to fix where it arose (the log names it); ending the process
 * would turn one account's bad import into an outage for all, and a task claimed again after the
 * restart would end it again.
 */
import type { Logger } from 'pino';

let installed = false;

export function keepServing(log: Logger): void {
  if (installed) return;
  installed = true;
  process.on('uncaughtException', (error, origin) => {
    log.error({ err: error, origin }, 'uncaught exception: kept serving (this is a bug: handle the error where it arose)');
  });
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection: kept serving (this is a bug: handle the error where it arose)');
  });
}
