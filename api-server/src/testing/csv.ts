/**
 * A minimal RFC 4180 reader for tests (quoted fields, doubled quotes), one for every suite:
 * - by default strict about CRLF row ends, so a file the product writes with bare LF row ends reads
 *   as one row and the test sees it (report and file tests);
 * - `{ anyLineEnd: true }` takes LF or CRLF (a download as the browser saved it: e2e tests).
 */
export function parseCsv(text: string, opts: { anyLineEnd?: boolean } = {}): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endRow = () => { row.push(cell); rows.push(row); row = []; cell = ''; };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { endRow(); i++; }
    else if (opts.anyLineEnd && c === '\n') endRow();
    else if (!(opts.anyLineEnd && c === '\r')) cell += c;
  }
  return rows;
}
