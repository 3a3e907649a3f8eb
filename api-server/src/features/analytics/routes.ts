/** Behaviour analytics: events (/behavior/events), explore (/behavior/explore) and the event catalogue (/manage/events). */
import type { Request, Router } from 'express';
import {
  ANALYTICS_LIMITS, EMPTY_SENTINEL, ErrorCode, EventNameParam, fail, isBuiltInEvent, languageFromBrowser, ok,
  type EventProperty, type EventSummary, type TimeGroup,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { parseWith } from '../../http/validate.ts';
import { tx } from '../../db/pool.ts';
import { wakeJobRunners } from '../../jobs/runner.ts';
import { retryMark, setMarks } from './breakdowns.ts';
import { builtInDefinitions, customEvents, definitionsByName, eventKnown, updateDefinition } from './catalogue.ts';
import { explore } from './explore.ts';
import { previousPeriod, resolveRange } from './range.ts';
import { eventProperties, eventTotals, peopleByEvent, revenueCurrencies, todayIn, utcBounds, type PropertyRow } from './repository.ts';

type App = { id: string; timezone: string };
type RangeInput = { startDay?: string | undefined; endDay?: string | undefined; timeGroup: TimeGroup };

/** Property rows (one per property and value) grouped into properties with their values. */
export function groupProperties(rows: readonly PropertyRow[]): EventProperty[] {
  const byName = new Map<string, EventProperty>();
  for (const row of rows) {
    if (row.key === null || row.value === null) continue;
    let property = byName.get(row.key);
    if (!property) {
      property = { name: row.key, count: row.n ?? 0, distinct: row.distinct_values ?? 0, values: [] };
      byName.set(row.key, property);
    }
    property.values.push({ value: row.value === '' ? EMPTY_SENTINEL : row.value, count: row.value_count ?? 0 });
  }
  return [...byName.values()];
}

const requestLanguage = (req: Request) => languageFromBrowser(req.acceptsLanguages());

export function analyticsRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  /** The query's range, or the last 7 days including today in the app's time zone. */
  const rangeOf = async (app: App, query: RangeInput) =>
    resolveRange(query, query.startDay === undefined ? await todayIn(db, app.timezone) : query.startDay);

  route(router, deps, 'listEvents', async ({ app, query }) => {
    const range = await rangeOf(app, query);
    const previous = previousPeriod(range);
    const bounds = utcBounds(db, range.startDay, range.endDay, app.timezone);
    const totals = eventTotals(db, app.id, range, previous.startDay);
    const [totalsRows, people, definitions, currencies] = await Promise.all([
      totals,
      query.people ? bounds.then((b) => peopleByEvent(db, app.id, b)) : null,
      definitionsByName(db, app.id),
      Promise.all([totals, bounds]).then(([rows, b]) => revenueCurrencies(db, app.id, rows.filter((r) => r.revenue !== 0).map((r) => r.name), b)),
    ]);
    const events = totalsRows.map((t): EventSummary => {
      const definition = definitions.get(t.name);
      return {
        name: t.name, builtIn: isBuiltInEvent(t.name), label: definition?.label ?? null, hidden: definition?.hidden ?? false,
        events: t.events, people: people ? (people.get(t.name) ?? 0) : null, revenue: t.revenue, currency: currencies.get(t.name) ?? null,
        previousEvents: t.previousEvents,
      };
    });
    events.sort((a, b) => b.events - a.events || a.name.localeCompare(b.name));
    return ok({ range, previous, events });
  });

  route(router, deps, 'eventTrend', async ({ app, query }) => {
    const range = await rangeOf(app, query);
    const base = { event: query.name, compare: false, timeGroup: range.timeGroup } as const;
    const [events, people] = await Promise.all([
      explore(db, app, range, { ...base, metric: 'events' }),
      explore(db, app, range, { ...base, metric: 'people' }),
    ]);
    return ok({ range, buckets: events.buckets, events: events.series[0]?.values ?? [], people: people.series[0]?.values ?? [] });
  });

  route(router, deps, 'eventProperties', async ({ app, query }) => {
    const range = await rangeOf(app, query);
    const bounds = await utcBounds(db, range.startDay, range.endDay, app.timezone);
    const rows = await eventProperties(db, app.id, query.name, bounds, {
      sample: ANALYTICS_LIMITS.propertySample, properties: ANALYTICS_LIMITS.topProperties, values: ANALYTICS_LIMITS.topValues,
    });
    return ok({ range, sampled: rows[0]?.sampled ?? 0, sampleLimit: ANALYTICS_LIMITS.propertySample, properties: groupProperties(rows) });
  });

  route(router, deps, 'explore', async ({ app, query }) => ok(await explore(db, app, await rangeOf(app, query), query)));

  route(router, deps, 'listEventDefinitions', async ({ app, req }) =>
    ok({ custom: await customEvents(db, app.id), builtIn: builtInDefinitions(requestLanguage(req)) }));

  route(router, deps, 'updateEventDefinition', async ({ app, params, body }) => {
    const name = parseWith(EventNameParam, params.eventName);
    if (!name.ok) return name;
    if (isBuiltInEvent(name.value)) return fail(ErrorCode.NO_PERMISSION, 'Built-in events are not editable', [{ path: 'eventName', message: 'Built-in event' }]);
    if (!(await eventKnown(db, app.id, name.value))) return fail(ErrorCode.NOT_EXIST, `No event named ${name.value} in this app`);
    return ok({ definition: await updateDefinition(db, app.id, app.timezone, name.value, body) });
  });

  // Breakdown marks (breakdowns.ts): the definition row is made when only the rollup knew the event.
  route(router, deps, 'setEventBreakdowns', async ({ app, params, body, principal }) => {
    const name = parseWith(EventNameParam, params.eventName);
    if (!name.ok) return name;
    if (isBuiltInEvent(name.value)) return fail(ErrorCode.NO_PERMISSION, 'Built-in events are not editable', [{ path: 'eventName', message: 'Built-in event' }]);
    if (!(await eventKnown(db, app.id, name.value))) return fail(ErrorCode.NOT_EXIST, `No event named ${name.value} in this app`);
    const definition = await tx(db, async (client) => {
      await client.query('SELECT 1 FROM apps WHERE id = $1 FOR UPDATE', [app.id]); // one change of an app's marks at a time
      await setMarks(client, { appId: app.id, name: name.value, properties: body.properties, userId: principal.user.id, queue: deps.config.JOB_QUEUE, now: new Date() });
      return updateDefinition(client, app.id, app.timezone, name.value, {});
    });
    return ok({ definition });
  });

  // A failed backfill started over (breakdowns.ts `retryMark`); idempotent: other states stay as they are.
  route(router, deps, 'retryEventBreakdown', async ({ app, params, body }) => {
    const name = parseWith(EventNameParam, params.eventName);
    if (!name.ok) return name;
    const outcome = await retryMark(db, { appId: app.id, name: name.value, property: body.property });
    if (outcome === 'missing') return fail(ErrorCode.NOT_EXIST, `${body.property} is not a breakdown property of ${name.value}`, [{ path: 'property', message: 'Not marked' }]);
    if (outcome === 'retried') wakeJobRunners();
    // Read, not written: a mark's event has its definition row (setEventBreakdowns made it), except marks written by SQL (benchmarks).
    const definition = (await definitionsByName(db, app.id)).get(name.value) ?? (await updateDefinition(db, app.id, app.timezone, name.value, {}));
    return ok({ definition });
  });
}
