/** The messages report's table (pure): sorting by a column, name or a KPI of the range. */
import type { MessageReportRow } from '@gd/shared/schemas/messageAnalytics';
import type { KpiKey } from '../../entities/messageMetrics/format.ts';

export type ReportColumn = 'name' | KpiKey;
export interface ReportSort { column: ReportColumn; descending: boolean }
export const DEFAULT_REPORT_SORT: ReportSort = { column: 'sents', descending: true };

/** Clicking the sorted column flips it; another column sorts by it, numbers largest first, names A to Z. */
export function nextReportSort(current: ReportSort, column: ReportColumn): ReportSort {
  if (current.column === column) return { column, descending: !current.descending };
  return { column, descending: column !== 'name' };
}

export function sortReportRows(rows: readonly MessageReportRow[], sort: ReportSort, locale: string): MessageReportRow[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  const sign = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    let order: number;
    if (sort.column === 'name') order = collator.compare(a.name, b.name);
    else {
      const x = a.current[sort.column];
      const y = b.current[sort.column];
      // A missing ratio (ctr of nothing delivered) goes last either way.
      if (x === null || y === null) return x === y ? collator.compare(a.name, b.name) : x === null ? 1 : -1;
      order = x - y;
    }
    return order === 0 ? collator.compare(a.name, b.name) : sign * order;
  });
}
