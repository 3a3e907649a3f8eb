/**
 * Rows of the events table (pure): the answer's events with their label and change on the
 * previous period, filtered by a search and the hidden flag, and sorted by a column. Events with
 * no previous figure ("new") sort above every change; equal values keep the busiest event first.
 */
import type { EventSummary } from '@gd/shared/schemas/behaviour';
import { variation } from './labels.ts';

export interface EventRow extends EventSummary {
  /** The display label: i18n label of a built-in event, catalogue label or name of a custom one. */
  display: string;
  /** Relative change of events on the previous period; null when the previous period had none. */
  change: number | null;
}

export const SORT_COLUMNS = ['display', 'events', 'people', 'revenue', 'change'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export interface Sort { column: SortColumn; direction: 'asc' | 'desc' }
export const DEFAULT_SORT: Sort = { column: 'events', direction: 'desc' };

export function toRows(events: readonly EventSummary[], labelOf: (e: EventSummary) => string): EventRow[] {
  return events.map((e) => ({ ...e, display: labelOf(e), change: variation(e.events, e.previousEvents) }));
}

export function filterRows(rows: readonly EventRow[], search: string, showHidden: boolean): EventRow[] {
  const needle = search.trim().toLowerCase();
  return rows.filter((r) => (showHidden || !r.hidden) && (!needle || r.name.toLowerCase().includes(needle) || r.display.toLowerCase().includes(needle)));
}

/** "New" (something after nothing) ranks above any change; nothing at all ranks below. */
const changeRank = (r: EventRow) => (r.change !== null ? r.change : r.events > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY);

export function sortRows(rows: readonly EventRow[], sort: Sort): EventRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compare = (a: EventRow, b: EventRow): number => {
    switch (sort.column) {
      case 'display':
        return a.display.localeCompare(b.display);
      case 'change': {
        const [x, y] = [changeRank(a), changeRank(b)];
        return x === y ? 0 : x < y ? -1 : 1;
      }
      default:
        // People not loaded yet (null) sort as the smallest.
        return (a[sort.column] ?? -1) - (b[sort.column] ?? -1);
    }
  };
  return [...rows].sort((a, b) => sign * compare(a, b) || b.events - a.events || a.name.localeCompare(b.name));
}

/** Clicking the sorted column flips it; another column starts descending (names ascending). */
export function nextSort(current: Sort, column: SortColumn): Sort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: column === 'display' ? 'asc' : 'desc' };
}
