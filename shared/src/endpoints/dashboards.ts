/**
 * Dashboards (/main/dashboards) and the executive view (/main/executive). A dashboard's widgets
 * live in its Yjs document (open it with POST /docs/token); these endpoints manage the rows.
 *
 * Permissions (SPEC.md section 3): dashboards new, edit, delete, view, edit and delete with owner
 * variants (a user holding only `...:owner` acts on the dashboards they created; others answer
 * 10004 like missing ones). The executive view is account-wide: its route key.
 */
import { z } from 'zod';
import { DashboardCreate, DashboardDetail, DashboardSummary, DashboardUpdate, ExecutiveAnswer, ExecutiveQuery } from '../schemas/dashboards.ts';
import { ep, none } from './define.ts';

const EDIT = { or: ['ui:dashboards.edit', 'ui:dashboards.edit:owner'] } as const;
const DELETE = { or: ['ui:dashboards.delete', 'ui:dashboards.delete:owner'] } as const;

export const dashboardEndpoints = {
  listDashboards: ep({ method: 'GET', path: '/apps/:appId/dashboards', summary: 'Dashboards of an app, most recently changed first', auth: 'ui:dashboards.view', response: { dashboards: z.array(DashboardSummary) } }),
  getDashboard: ep({ method: 'GET', path: '/apps/:appId/dashboards/:dashboardId', summary: 'A dashboard with its widgets as the live document holds them', auth: 'ui:dashboards.view', response: DashboardDetail }),
  createDashboard: ep({ method: 'POST', path: '/apps/:appId/dashboards', summary: 'Create a dashboard (window day, week or month; its document starts without widgets)', auth: 'ui:dashboards.new', request: DashboardCreate, response: { dashboard: DashboardSummary } }),
  updateDashboard: ep({ method: 'PUT', path: '/apps/:appId/dashboards/:dashboardId', summary: 'Rename a dashboard or change its window type', auth: EDIT, request: DashboardUpdate, response: { dashboard: DashboardSummary } }),
  deleteDashboard: ep({ method: 'DELETE', path: '/apps/:appId/dashboards/:dashboardId', summary: 'Delete a dashboard (open editors lose access to its document)', auth: DELETE, response: none }),
  getExecutive: ep({
    method: 'GET', path: '/executive', auth: 'route:/main/executive', query: ExecutiveQuery, response: ExecutiveAnswer,
    summary: 'Every app of the account side by side and in total over a range (startDay, endDay: days in each app\'s time zone; default the last 7 days ' +
      'up to today in UTC) and the previous period of the same length: installs, active people, sessions, revenue, ARPU, messages sent, conversions',
  }),
} as const;
