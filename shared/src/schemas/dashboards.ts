/**
 * Dashboards (/main/dashboards) and the executive view (/main/executive): what is sent and answered.
 *
 * A dashboard is a row (name, window type, who created it) plus the collaborative document
 * `docName` holding its widgets (docs/dashboardDoc.ts; the widget model and the window's ranges are
 * in dashboard/model.ts). The row is changed here; the layout only through the document.
 *
 * The executive view: every app of the account side by side and in total, over a range of days
 * (each app's days in its own time zone) and the previous period of the same length.
 */
import { z } from 'zod';
import { Widget } from '../dashboard/model.ts';
import { DashboardWindow } from '../enums.ts';
import { DateString } from '../formats.ts';
import { checkRange } from './behaviour.ts';
import { Name } from './common.ts';

export const DashboardSummary = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  name: z.string(),
  window: DashboardWindow,
  /** The Yjs document holding the widgets (open it with a document token). */
  docName: z.string(),
  createdBy: z.string().uuid().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DashboardSummary = z.infer<typeof DashboardSummary>;

export const DashboardCreate = z.object({ name: Name, window: DashboardWindow.default('week') });
export type DashboardCreate = z.infer<typeof DashboardCreate>;
export const DashboardUpdate = z
  .object({ name: Name.optional(), window: DashboardWindow.optional() })
  .refine((v) => v.name !== undefined || v.window !== undefined, { message: 'Nothing to change: give name or window' });
export type DashboardUpdate = z.infer<typeof DashboardUpdate>;

export const DashboardDetail = {
  dashboard: DashboardSummary,
  /** The widgets as the live document holds them now, overlaps resolved (as drawn). */
  widgets: z.array(Widget),
};

// ---- executive ----

export const ExecutiveQuery = z.object({ startDay: DateString.optional(), endDay: DateString.optional() }).superRefine(checkRange);
export type ExecutiveQuery = z.infer<typeof ExecutiveQuery>;

export const EXECUTIVE_FIGURES = ['installs', 'activePeople', 'sessions', 'revenue', 'arpu', 'messagesSent', 'conversions'] as const;
export type ExecutiveFigure = (typeof EXECUTIVE_FIGURES)[number];

export const FigurePair = z.object({ current: z.number(), previous: z.number() });
export type FigurePair = z.infer<typeof FigurePair>;
export const ExecutiveFigures = z.object(Object.fromEntries(EXECUTIVE_FIGURES.map((f) => [f, FigurePair])) as Record<ExecutiveFigure, typeof FigurePair>);
export type ExecutiveFigures = z.infer<typeof ExecutiveFigures>;

export const ExecutiveApp = z.object({
  appId: z.string().uuid(),
  name: z.string(),
  timezone: z.string(),
  /** The one currency of the app's revenue in the range, else null (none named, or several). */
  currency: z.string().nullable(),
  figures: ExecutiveFigures,
});
export type ExecutiveApp = z.infer<typeof ExecutiveApp>;

export const ExecutiveAnswer = {
  range: z.object({ startDay: z.string(), endDay: z.string() }),
  previous: z.object({ startDay: z.string(), endDay: z.string() }),
  apps: z.array(ExecutiveApp),
  /**
   * All apps added up; active people are a sum over apps (a person of two apps counts twice: apps
   * do not share people) and ARPU is the total revenue over the total active people. `currency`
   * is the one currency of every app's revenue, else null (the sum then mixes them).
   */
  total: z.object({ currency: z.string().nullable(), figures: ExecutiveFigures }),
};
