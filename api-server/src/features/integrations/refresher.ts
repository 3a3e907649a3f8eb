/**
 * The token refresher of one process (the API under `npm start` with INTEGRATION_REFRESH_IN_PROCESS
 * on, and each worker): every minute it refreshes the OAuth 2 access tokens of connected
 * integrations that expire within twice TOKEN_REFRESH_MARGIN_SECONDS, so a use rarely waits for
 * a refresh. Each refresh runs under the integration's row lock (access.ts refreshIntegration),
 * so several processes, and a use racing the loop, refresh a token once. A refusal leaves the
 * integration in `error` with the reason (and it is no longer picked until it is connected again).
 * Expired OAuth 2 states older than a day are purged on the way.
 */
import { TOKEN_REFRESH_MARGIN_SECONDS } from '@gd/shared';
import { startLoop } from '../../jobs/loop.ts';
import { refreshIntegration, type AccessDeps } from './access.ts';
import * as repo from './repository.ts';

export interface IntegrationRefresher { wake(): void; stop(): Promise<void> }

const BATCH = 50;

/** One pass: refreshes what expires soon; answers how many were refreshed (ok or not). */
export async function refreshExpiring(deps: AccessDeps, now = new Date()): Promise<number> {
  const margin = TOKEN_REFRESH_MARGIN_SECONDS * 2;
  const due = await repo.expiringIntegrations(deps.db, new Date(now.getTime() + margin * 1000), BATCH);
  for (const row of due) {
    const result = await refreshIntegration(deps, row.app_id, row.id, { margin });
    if (!result.ok) deps.log.warn({ integrationId: row.id, code: result.code }, 'integration token refresh failed');
  }
  await repo.purgeOAuthStates(deps.db);
  return due.length;
}

export function startIntegrationRefresher(deps: AccessDeps, opts: { intervalMs?: number } = {}): IntegrationRefresher {
  const loop = startLoop('integration refresher', deps.log, opts.intervalMs ?? 60_000, async () => {
    await refreshExpiring(deps);
  });
  return { wake: () => loop.wake(), stop: () => loop.stop() };
}
