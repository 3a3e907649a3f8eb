/**
 * Message analytics (issue 13): a message's metrics (the message screen, beside its sends), the
 * messages report (/communication/report) and the performance report
 * (/communication/performance-report) with its csv/zip export. Definitions in
 * schemas/messageAnalytics.ts. A message's metrics need the message's visibility (as its sends);
 * the reports need their route's key (an analyst reads them without the message keys).
 */
import { MessageMetrics, MessageReport, MessageReportQuery, PerformanceReport, PerformanceReportExportQuery, PerformanceReportQuery } from '../schemas/messageAnalytics.ts';
import { ep, none } from './define.ts';

const VIEW = { or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read'] } as const;
const REPORT = 'route:/communication/report' as const;
const PERFORMANCE = 'route:/communication/performance-report' as const;

export const messageAnalyticsEndpoints = {
  messageMetrics: ep({ method: 'GET', path: '/apps/:appId/messages/:messageId/metrics', summary: 'The message\'s metrics, total and per variant (sents, delivered, fails by reason, impressions, opens, clicks, ctr, redeems, conversions and revenue direct and indirect)', auth: VIEW, response: { metrics: MessageMetrics } }),
  messageReport: ep({ method: 'GET', path: '/apps/:appId/message-report', summary: 'The messages that sent or were interacted with in the range, with their KPIs and those of the previous period', auth: REPORT, query: MessageReportQuery, response: { report: MessageReport } }),
  performanceReport: ep({ method: 'GET', path: '/apps/:appId/performance-report', summary: 'Impacts or conversions by date group (the figures of the performance-report import)', auth: PERFORMANCE, query: PerformanceReportQuery, response: { report: PerformanceReport } }),
  exportPerformanceReport: ep({ method: 'GET', path: '/apps/:appId/performance-report/export', summary: 'The performance report as a CSV file, or a zip holding it (query: the report\'s, plus format)', auth: PERFORMANCE, query: PerformanceReportExportQuery, response: none }),
} as const;
