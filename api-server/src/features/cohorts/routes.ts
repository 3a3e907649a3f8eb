/**
 * Cohorts (/behavior/cohort): the retention query and saving a cell as an audience (a fixed list
 * through segments/staticAudience.ts, `source_config.from = 'cohort'` with the query and the cell).
 */
import type { Router } from 'express';
import { ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { saveStaticAudience } from '../segments/staticAudience.ts';
import { cohortCellMembers, runCohort } from './compute.ts';

export function cohortRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'cohort', async ({ app, body }) => ok(await runCohort(db, app, body)));

  route(router, deps, 'saveCohortAudience', async ({ app, principal, body }) => {
    const members = await cohortCellMembers(db, app, body.query, body.cohort, body.period);
    if (!members.ok) return members;
    const saved = await saveStaticAudience(db, {
      accountId: principal.account.id, appId: app.id, createdBy: principal.user.id, name: body.name,
      origin: { from: 'cohort', query: body.query, cohort: body.cohort, period: body.period },
      members: members.value,
    });
    return saved.ok ? ok({ audience: saved.value }) : saved;
  });
}
