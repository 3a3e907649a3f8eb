/**
 * Cohorts (/behavior/cohort): the retention query and saving a cell's people as an audience. The
 * query is a POST (a nested query object), read with the screen's route key.
 */
import { AudienceSummary } from '../schemas/segments.ts';
import { CohortAnswer, CohortAudienceInput, CohortQuery } from '../schemas/cohorts.ts';
import { ep } from './define.ts';

export const cohortEndpoints = {
  cohort: ep({
    method: 'POST', path: '/apps/:appId/cohorts/query', auth: 'route:/behavior/cohort', request: CohortQuery, response: CohortAnswer,
    summary:
      'Retention: people who did the start event (first time ever, or recurring) per day, week or month cohort, and how many did the return event ' +
      '(null = any event) in each later period (returnOn "on") or in it or any later one ("onOrAfter"). Body: startDay, endDay (cohorts are the whole ' +
      'buckets overlapping the range, app time zone), start {event, filters}, return, mode, period, periods (1..36), returnOn, breakdown ' +
      '({kind:"attribute", field} or {kind:"property", property} of the start event). Rows per cohort with counts and complete flags, a size-weighted curve over complete periods',
  }),
  saveCohortAudience: ep({
    method: 'POST', path: '/apps/:appId/cohorts/audience', auth: 'ui:audience.create', request: CohortAudienceInput, response: { audience: AudienceSummary },
    summary: 'Save the people of one cell of a retention table (cohort = its bucket start, period 0 = the whole cohort) as a fixed audience',
  }),
} as const;
