/**
 * CSV writing (RFC 4180) for exports a person opens in a spreadsheet. Cells that begin with
 * = + - @, a tab or a carriage return get a leading single quote so a spreadsheet shows them as
 * text instead of running them as formulas (OWASP "CSV injection"); a negative number therefore
 * reads '-5, which is the price of never executing a cell. Cells holding a comma, a double quote
 * or a line break are quoted, with inner quotes doubled. Lines end with CRLF.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A byte order mark first, so spreadsheet programs read the file as UTF-8 (accents, "(vacío)"). */
export const UTF8_BOM = '\uFEFF';

/** A file name without characters that file systems refuse. */
export function safeFileName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').replace(/_+/g, '_').slice(0, 120);
}

/** Saves text as a download in the browser. */
export function downloadCsv(fileName: string, rows: readonly (readonly string[])[]): void {
  const blob = new Blob([UTF8_BOM, toCsv(rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = safeFileName(fileName);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
