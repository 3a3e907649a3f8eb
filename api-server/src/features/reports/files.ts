/**
 * A report's file from its tables (tables.ts): csv = the main table (the first); zip = a zip holding
 * that csv plus, for multi-table reports (a funnel's steps and its conversion over time, a
 * communication report's messages and totals), one csv per further table (SPEC.md section 3, export
 * formats). Cells are written by exports/csvCells.ts: RFC 4180 quoting, CRLF, and formulas
 * neutralised exactly as audience exports do. Breakdown sentinels are written as their labels
 * (SPEC section 3: "(empty)"; "Other" for the values past the top, as the explore screen says).
 *
 * Report answers are aggregates (buckets x series, a funnel's steps, a cohort triangle, at most
 * MESSAGE_REPORT_LIMIT messages), so the file is built in memory, bounded by REPORT_LIMITS.maxFileBytes.
 */
import { strToU8, zipSync } from 'fflate';
import { EMPTY_SENTINEL, OTHER_SENTINEL, REPORT_LIMITS } from '@gd/shared';
import { csvLine } from '../exports/csvCells.ts';

export type Cell = string | number | null | undefined;
export interface Table {
  /** The table's file name part (the main table's is not used). */
  name: string;
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
}
export interface ReportFile { fileName: string; bytes: Buffer; rows: number }

/** A breakdown value as shown: the sentinels as their labels. */
export const breakdownLabel = (value: string | null): string => (value === EMPTY_SENTINEL ? '(empty)' : value === OTHER_SENTINEL ? 'Other' : (value ?? ''));

export const tableCsv = (t: Table): string => csvLine(t.columns) + t.rows.map((r) => csvLine(r)).join('');

/** A file name from the report's name and its days: letters, digits, - and _ only. */
export function reportBaseName(reportName: string, startDay: string, endDay: string): string {
  const slug = reportName.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'report';
  return startDay === endDay ? `${slug}-${startDay}` : `${slug}-${startDay}-to-${endDay}`;
}

export class ReportTooLarge extends Error {}

/** The report's file; `rows` counts the data rows written (headers not counted). */
export function reportFile(format: 'csv' | 'zip', base: string, tables: readonly Table[]): ReportFile {
  const [main, ...more] = tables;
  if (!main) throw new Error('a report has at least one table');
  let bytes: Buffer;
  let rows: number;
  if (format === 'csv') {
    bytes = Buffer.from(tableCsv(main), 'utf8');
    rows = main.rows.length;
  } else {
    const entries: Record<string, Uint8Array> = { [`${base}.csv`]: strToU8(tableCsv(main)) };
    for (const t of more) entries[`${base}-${t.name}.csv`] = strToU8(tableCsv(t));
    bytes = Buffer.from(zipSync(entries, { level: 6 }));
    rows = tables.reduce((n, t) => n + t.rows.length, 0);
  }
  if (bytes.length > REPORT_LIMITS.maxFileBytes) throw new ReportTooLarge(`the report's file is larger than ${REPORT_LIMITS.maxFileBytes / 1024 / 1024} MiB`);
  return { fileName: `${base}.${format}`, bytes, rows };
}
