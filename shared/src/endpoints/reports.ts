/**
 * Scheduled reports (/main/reports): reports of an app, their runs and the runs' files. Reading
 * needs the screen's route key; writing (create, edit, delete, run now) `api:reports.edit`.
 */
import { z } from 'zod';
import { Report, ReportInput, ReportRun } from '../schemas/reports.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/main/reports' as const;
const EDIT = { and: [VIEW, 'api:reports.edit'] } as const;

export const reportEndpoints = {
  listReports: ep({ method: 'GET', path: '/apps/:appId/reports', summary: 'Scheduled reports of an app with their next run and last run', auth: VIEW, response: { reports: z.array(Report) } }),
  getReport: ep({ method: 'GET', path: '/apps/:appId/reports/:reportId', summary: 'A scheduled report', auth: VIEW, response: { report: Report } }),
  createReport: ep({ method: 'POST', path: '/apps/:appId/reports', summary: 'Schedule a report (explore, funnel, cohort or communication) by e-mail or SFTP', auth: EDIT, request: ReportInput, response: { report: Report } }),
  updateReport: ep({ method: 'PUT', path: '/apps/:appId/reports/:reportId', summary: 'Edit a scheduled report (SFTP secrets absent are kept)', auth: EDIT, request: ReportInput, response: { report: Report } }),
  deleteReport: ep({ method: 'DELETE', path: '/apps/:appId/reports/:reportId', summary: 'Delete a scheduled report, its runs and their files', auth: EDIT, response: none }),
  runReportNow: ep({ method: 'POST', path: '/apps/:appId/reports/:reportId/run', summary: 'Run a report now over its range as of now', auth: EDIT, response: { run: ReportRun } }),
  listReportRuns: ep({ method: 'GET', path: '/apps/:appId/reports/:reportId/runs', summary: 'Runs of a report, newest first', auth: VIEW, response: { runs: z.array(ReportRun) } }),
  downloadReportRun: ep({ method: 'GET', path: '/apps/:appId/reports/:reportId/runs/:runId/download', summary: 'A run\'s file (text/csv or application/zip), when it is ready or warning', auth: VIEW, response: none }),
} as const;
