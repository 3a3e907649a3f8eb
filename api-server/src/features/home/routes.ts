/** The home screen (`/`): key figures of the app over a range, and what needs attention. */
import type { Router } from 'express';
import { ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { previousPeriod, resolveRange } from '../analytics/range.ts';
import { todayIn } from '../analytics/repository.ts';
import { homeAttention } from './attention.ts';
import { homeFigures } from './repository.ts';

/** The one currency of the range's revenue, or null (none, not named, or several). */
export function singleCurrency(currencies: readonly (string | null)[]): string | null {
  const [only] = currencies;
  return currencies.length === 1 && only ? only : null;
}

export function homeRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'getHomeSummary', async ({ app, query }) => {
    const resolved = resolveRange(query, query.startDay === undefined ? await todayIn(db, app.timezone) : query.startDay);
    const range = { startDay: resolved.startDay, endDay: resolved.endDay };
    const previous = previousPeriod(range);
    const row = await homeFigures(db, app.id, app.timezone, range, previous);
    return ok({
      range,
      previous,
      figures: {
        people: { current: row.people, previous: row.previous_people },
        sessions: { current: row.sessions, previous: row.previous_sessions },
        events: { current: row.events, previous: row.previous_events },
        revenue: { current: row.revenue, previous: row.previous_revenue },
      },
      currency: singleCurrency(row.currencies),
      hasData: row.has_data,
    });
  });

  route(router, deps, 'getHomeAttention', async ({ app, subject }) => ok(await homeAttention(db, app.id, subject)));
}
