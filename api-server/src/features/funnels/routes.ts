/**
 * Funnel routes (/behavior/funnels): the answer, the people who converted or dropped at a step,
 * and saving them as a fixed audience (features/segments/staticAudience.ts, source type none with
 * source_config.from = 'funnel' and the query, so the audience screen can say where it came from).
 */
import type { Router } from 'express';
import { ANALYTICS_LIMITS, FUNNEL_LIMITS, ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { saveStaticAudience } from '../segments/staticAudience.ts';
import { funnelRange, outcomeSpec, runFunnel } from './compute.ts';
import { funnelPeople, selectedPeopleQuery } from './repository.ts';

export function funnelRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'funnel', async ({ app, query }) => ok(await runFunnel(db, app, query.q)));
  route(router, deps, 'queryFunnel', async ({ app, body }) => ok(await runFunnel(db, app, body)));

  route(router, deps, 'funnelPeople', async ({ app, body }) => {
    const range = await funnelRange(db, app, body.query);
    const spec = await outcomeSpec(db, app, body.query, range, { withBreakdown: body.breakdownValue !== undefined, top: ANALYTICS_LIMITS.breakdownTop });
    const { total, rows } = await funnelPeople(db, spec, body, FUNNEL_LIMITS.peopleLimit);
    return ok({
      total,
      people: rows.map((r) => ({
        id: r.id, customerId: r.customer_id, email: r.email, country: r.country, os: r.os, startedAt: r.started_at.toISOString(), reached: r.reached,
      })),
    });
  });

  route(router, deps, 'saveFunnelAudience', async ({ app, principal, body }) => {
    const range = await funnelRange(db, app, body.query);
    const spec = await outcomeSpec(db, app, body.query, range, { withBreakdown: body.breakdownValue !== undefined, top: ANALYTICS_LIMITS.breakdownTop });
    const saved = await saveStaticAudience(db, {
      accountId: principal.account.id, appId: app.id, createdBy: principal.user.id, name: body.name,
      origin: { from: 'funnel', query: { ...body.query, startDay: range.startDay, endDay: range.endDay }, step: body.step, outcome: body.outcome, ...(body.breakdownValue !== undefined ? { breakdownValue: body.breakdownValue } : {}) },
      members: selectedPeopleQuery(spec, body),
    });
    return saved.ok ? ok({ audience: saved.value }) : saved;
  });
}
