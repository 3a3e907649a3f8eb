/**
 * The explore table as text (pure): one row per bucket, one column per series (and, when
 * comparing, its previous period right after it), and a totals row. The screen renders these
 * strings and the CSV export writes the very same ones, so the file always matches the table.
 */
import type { ExploreSeries } from '@gd/shared/schemas/behaviour';

export interface ExploreTableText {
  head: string[];
  rows: string[][];
  totals: string[];
}

export interface TableLabels {
  bucket: string;
  total: string;
  series: (key: string | null) => string;
  previous: (seriesName: string) => string;
  format: (n: number) => string;
}

export function buildExploreTable(answer: { buckets: readonly string[]; series: readonly ExploreSeries[] }, labels: TableLabels): ExploreTableText {
  const columns = answer.series.flatMap((s) => {
    const name = labels.series(s.key);
    const current = { name, values: s.values, total: s.total };
    return s.previous ? [current, { name: labels.previous(name), values: s.previous, total: s.previousTotal ?? 0 }] : [current];
  });
  return {
    head: [labels.bucket, ...columns.map((c) => c.name)],
    rows: answer.buckets.map((bucket, i) => [bucket, ...columns.map((c) => labels.format(c.values[i] ?? 0))]),
    totals: [labels.total, ...columns.map((c) => labels.format(c.total))],
  };
}

/** The table as CSV rows: header, buckets, totals. */
export const tableRows = (table: ExploreTableText): string[][] => [table.head, ...table.rows, table.totals];
