/**
 * Behaviour analytics endpoints: events, the event catalogue and explore (people has its own
 * table in ./people.ts). Query strings are parsed with the `query` schemas (schemas/behaviour.ts).
 */
import {
  EventBreakdownRetry, EventBreakdownsUpdate, EventCatalogueAnswer, EventDefinition, EventDefinitionUpdate, EventListAnswer, EventListQuery, EventPropertiesAnswer,
  EventPropertiesQuery, EventTrendAnswer, EventTrendQuery, ExploreAnswer, ExploreQuery,
} from '../schemas/behaviour.ts';
import { ep } from './define.ts';

const EVENTS_SCREENS = { or: ['route:/behavior/events', 'route:/behavior/explore'] } as const;

export const behaviourEndpoints = {
  listEvents: ep({
    method: 'GET', path: '/apps/:appId/events', auth: EVENTS_SCREENS, query: EventListQuery, response: EventListAnswer,
    summary: 'Every event name seen in the app with its events, distinct people, revenue and the previous period\'s events over a range (query: startDay, endDay as YYYY-MM-DD in the app\'s time zone, default the last 7 days; people=false leaves the distinct people out, null, for a fast answer from the rollup alone). Explore reads it too, to open on the most frequent event',
  }),
  eventTrend: ep({
    method: 'GET', path: '/apps/:appId/events/trend', auth: EVENTS_SCREENS, query: EventTrendQuery, response: EventTrendAnswer,
    summary: 'Events and distinct people of one event per time group (query: name, startDay, endDay, timeGroup=hour|day|week|month)',
  }),
  eventProperties: ep({
    method: 'GET', path: '/apps/:appId/events/properties', auth: EVENTS_SCREENS, query: EventPropertiesQuery, response: EventPropertiesAnswer,
    summary: 'Top properties of one event with their top values, over at most the latest 100,000 events of the range (query: name, startDay, endDay)',
  }),
  explore: ep({
    method: 'GET', path: '/apps/:appId/explore', auth: 'route:/behavior/explore', query: ExploreQuery, response: ExploreAnswer,
    summary:
      'One metric of one event per time group. Query: event (name, required); metric=events|people|revenue|eventsPerPerson (default events); ' +
      'startDay, endDay (YYYY-MM-DD in the app\'s time zone, both or neither; default the last 7 days; at most 366 days); ' +
      'timeGroup=hour|day|week|month (default day); breakdown=source|country|os|appVersion|property (optional; top 10 values + __other__, ' +
      'missing values __empty__); property (the property name, only with breakdown=property); compare=true|false (previous period). ' +
      'events and revenue by day/week/month with no breakdown or a source/country/os/appVersion breakdown come from the daily rollup ' +
      '(answer source "rollup"); events and revenue by a property marked as a breakdown in the catalogue come from its rollup (source "propertyRollup"); ' +
      'people and eventsPerPerson by day/week/month without a breakdown come from distinct people per day and the person month bitmaps (source "peopleRollup"); ' +
      'hours, unmarked properties and people by a breakdown read the events table (source "events"); all exact. ' +
      'Example: /api/apps/<appId>/explore?event=purchase&startDay=2026-01-01&endDay=2026-01-30&timeGroup=day&breakdown=country',
  }),
  listEventDefinitions: ep({
    method: 'GET', path: '/apps/:appId/event-definitions', auth: { or: ['route:/manage/events', 'route:/behavior/events', 'route:/behavior/explore'] }, response: EventCatalogueAnswer,
    summary: 'The event catalogue: custom events (label, conversion type, hidden) and the built-in events with their labels',
  }),
  updateEventDefinition: ep({
    method: 'PUT', path: '/apps/:appId/event-definitions/:eventName', auth: 'api:events.edit', request: EventDefinitionUpdate, response: { definition: EventDefinition },
    summary: 'Change the label, conversion type or hidden flag of a custom event (built-in events are not editable)',
  }),
  setEventBreakdowns: ep({
    method: 'PUT', path: '/apps/:appId/event-definitions/:eventName/breakdowns', auth: 'api:events.edit', request: EventBreakdownsUpdate, response: { definition: EventDefinition },
    summary:
      'Mark the properties of a custom event explore breaks down by from a rollup (body: properties, the whole set, at most 5). ' +
      'A new mark counts the events received from a cut-over a few seconds ahead at ingestion; a backfill job counts the earlier ones, ' +
      'then the mark is ready (definition.breakdowns[].state "ready"). Until then explore reads the events table. Unmarking drops the rollup rows. ' +
      'A backfill that fails is tried again a minute later, up to maxAttempts runs; then its state is "failed" with the last error',
  }),
  retryEventBreakdown: ep({
    method: 'POST', path: '/apps/:appId/event-definitions/:eventName/breakdowns/retry', auth: 'api:events.edit', request: EventBreakdownRetry, response: { definition: EventDefinition },
    summary:
      'Start the backfill of a breakdown mark whose every attempt failed over again (body: property): its attempts and error are cleared and it runs at once. ' +
      'Idempotent: a mark still counting or ready is left as it is. 10 when the property is not marked',
  }),
} as const;
