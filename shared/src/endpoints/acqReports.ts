/**
 * Acquisition reports (schemas/acqReports.ts): /acquisition/activity and the installs,
 * uninstalls, retargeting and assisted-installs screens. Each is read with its screen's route key.
 */
import { AcqActivityAnswer, AcqReportAnswer } from '../schemas/acqReports.ts';
import { AnalyticsRangeQuery } from '../schemas/behaviour.ts';
import { ep } from './define.ts';

const APPS = '/apps/:appId/acquisition/reports';
const RANGE = 'range: startDay, endDay as YYYY-MM-DD in the app\'s time zone (both or neither: the last 7 days), timeGroup';

export const acqReportEndpoints = {
  acqActivity: ep({
    method: 'GET', path: `${APPS}/activity`, auth: 'route:/acquisition/activity', query: AnalyticsRangeQuery, response: AcqActivityAnswer,
    summary: `Clicks, installs, conversion rate, cost, revenue and ROI by source (and Organic) over a range and the previous period, and over time (${RANGE})`,
  }),
  acqInstalls: ep({
    method: 'GET', path: `${APPS}/installs`, auth: 'route:/acquisition/installs', query: AnalyticsRangeQuery, response: AcqReportAnswer,
    summary: `Installs and reinstalls: totals against the previous period, over time, by source and campaign, and the latest with their match kind (${RANGE})`,
  }),
  acqUninstalls: ep({
    method: 'GET', path: `${APPS}/uninstalls`, auth: 'route:/acquisition/uninstalls', query: AnalyticsRangeQuery, response: AcqReportAnswer,
    summary: `Uninstalls, each credited to the person's install attribution: totals, over time, by source and campaign, the latest (${RANGE})`,
  }),
  acqRetargeting: ep({
    method: 'GET', path: `${APPS}/retargeting`, auth: 'route:/acquisition/retargeting', query: AnalyticsRangeQuery, response: AcqReportAnswer,
    summary: `Retargeting opens (reactivations): totals, over time, by source and campaign, the latest (${RANGE})`,
  }),
  acqAssisted: ep({
    method: 'GET', path: `${APPS}/assisted`, auth: 'route:/acquisition/assisted-installs', query: AnalyticsRangeQuery, response: AcqReportAnswer,
    summary: `Installs with assisting clicks (other counted clicks of the lookback window) and those clicks by source and campaign (${RANGE})`,
  }),
} as const;
