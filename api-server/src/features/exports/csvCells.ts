/**
 * CSV cells for exports: RFC 4180 (a field with a comma, a quote, CR or LF is quoted, quotes
 * doubled; lines end with CRLF) and safe to open in a spreadsheet: a cell starting with = + - @,
 * TAB or CR is prefixed with a single quote so it is shown as text and never run as a formula
 * (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;
