/**
 * The A/B analysis, sending an A/B test's winner to the rest, and the performance histograms
 * (schemas/abAnalysis.ts). The reports need their screen's route key; sending the winner is the
 * play key of the message (its owner variant on one's own): it sends the message to more people,
 * which is what play does (shared message/abTest.ts).
 */
import { AbAnalysisAnswer, AbAnalysisQuery, HistogramAnswer, HistogramQuery, SendWinnerAnswer, SendWinnerRequest } from '../schemas/abAnalysis.ts';
import { ep } from './define.ts';

export const abAnalysisEndpoints = {
  abAnalysis: ep({
    method: 'GET', path: '/apps/:appId/ab-analysis', auth: 'route:/communication/report/ab-analysis', query: AbAnalysisQuery, response: AbAnalysisAnswer,
    summary: 'The app\'s played A/B tests and the analysis of one (query: messageId, default the latest; metric=open|click|conversion, default click): ' +
      'per variant sends, opens, clicks, conversions, rates with 95% Wilson intervals, z-tests against the control and the best, the declared winner, ' +
      'the people held back and whether the winner can be sent to them',
  }),
  sendAbWinner: ep({
    method: 'POST', path: '/apps/:appId/messages/:messageId/send-winner', auth: { or: ['ui:message.play', 'ui:message.play:owner'] },
    request: SendWinnerRequest, response: SendWinnerAnswer,
    summary: 'Send the declared winner of an A/B test to the people its test held back: one follow-up run, created once (a second call answers the same run, created: false); ' +
      '409 when the analysis does not declare that variant the winner, the test is still sending, or it held nobody back',
  }),
  performanceHistograms: ep({
    method: 'GET', path: '/apps/:appId/performance-histograms', auth: 'route:/communication/performance-histograms', query: HistogramQuery, response: HistogramAnswer,
    summary: 'Live sends of the range (startDay, endDay in the app\'s time zone; optional messageId): time from send to first open and to first click as histograms, ' +
      'and sends and first opens by hour 0-23 on each person\'s clock',
  }),
} as const;
