/**
 * The home screen (`/`): key figures of an app and what needs attention (schemas/home.ts).
 *
 * Permissions: the key figures are behaviour analytics, so they need what the events and explore
 * screens need. "Needs attention" answers to anyone who may see journeys, audiences or import
 * tasks, and looks only at the areas the caller may see (its `checked`).
 */
import { AnalyticsRangeQuery } from '../schemas/behaviour.ts';
import { HomeAttentionAnswer, HomeSummaryAnswer } from '../schemas/home.ts';
import { ep } from './define.ts';

/** Same permission as the events and explore screens' shared endpoints (endpoints/behaviour.ts). */
export const HOME_FIGURES_AUTH = { or: ['route:/behavior/events', 'route:/behavior/explore'] } as const;
export const HOME_ATTENTION_AUTH = { or: ['ui:journey.view', 'ui:journey.view:owner', 'ui:audience.view', 'route:/manage/import-task'] } as const;

export const homeEndpoints = {
  getHomeSummary: ep({
    method: 'GET', path: '/apps/:appId/home/summary', auth: HOME_FIGURES_AUTH, query: AnalyticsRangeQuery, response: HomeSummaryAnswer,
    summary: 'People, sessions, events and revenue of the app over a range and over the previous period of the same length ' +
      '(query: startDay, endDay as YYYY-MM-DD in the app\'s time zone, both or neither: default the last 7 days), the revenue\'s ' +
      'currency when every revenue event of the range named the same one, and whether the app ever received an event',
  }),
  getHomeAttention: ep({
    method: 'GET', path: '/apps/:appId/home/attention', auth: HOME_ATTENTION_AUTH, response: HomeAttentionAnswer,
    summary: 'What needs attention in the app, among what the caller may see: live journeys whose launched version names what the app ' +
      'no longer has, live journeys edited since launch, audiences in error, imports failed in the last 7 days',
  }),
} as const;
