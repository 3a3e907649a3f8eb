/**
 * Funnel endpoints (/behavior/funnels). The answer has two forms: `funnel` (GET, the query as JSON
 * in `q`, so the web app caches it like other range queries) and `queryFunnel` (POST, the query as
 * the body, for scripts). The drill-down and saving an audience take the query in their bodies.
 */
import { FunnelAnswer, FunnelAudienceAnswer, FunnelAudienceRequest, FunnelPeopleAnswer, FunnelPeopleRequest, FunnelQuery, FunnelQueryParam } from '../schemas/funnels.ts';
import { ep } from './define.ts';

export const funnelEndpoints = {
  funnel: ep({
    method: 'GET', path: '/apps/:appId/funnels/query', auth: 'route:/behavior/funnels', query: FunnelQueryParam, response: FunnelAnswer,
    summary: 'The funnel answer of queryFunnel, the query given as JSON in the query-string parameter q (cached by the web app like other range queries)',
  }),
  queryFunnel: ep({
    method: 'POST', path: '/apps/:appId/funnels/query', auth: 'route:/behavior/funnels', request: FunnelQuery, response: FunnelAnswer,
    summary:
      'A funnel of 2..20 steps (events with property filters) over a range (startDay, endDay in the app\'s time zone, default the last 7 days): ' +
      'people per step, overall and step-to-step conversion, average and median time to convert with a histogram, conversion over time by timeGroup, ' +
      'an optional breakdown (person attribute or event property, attribution first|last|{step}) and the previous period (compare)',
  }),
  funnelPeople: ep({
    method: 'POST', path: '/apps/:appId/funnels/people', auth: 'route:/behavior/funnels', request: FunnelPeopleRequest, response: FunnelPeopleAnswer,
    summary: 'The people who converted (reached step `step` or further) or dropped (reached step-1, not step) in a funnel: how many, and the first 100',
  }),
  saveFunnelAudience: ep({
    method: 'POST', path: '/apps/:appId/funnels/audience', auth: 'ui:audience.create', request: FunnelAudienceRequest, response: FunnelAudienceAnswer,
    summary: 'Save the people who converted or dropped at a step of a funnel as a fixed audience (source type none, source_config.from = funnel)',
  }),
};
