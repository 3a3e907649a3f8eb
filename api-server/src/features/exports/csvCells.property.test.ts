/**
 * Export cells (csvCells.ts) over random values: a line of cells written and parsed back by an
 * RFC 4180 reader is the same cells, except that text a spreadsheet would run as a formula comes
 * back with one leading quote, so that no text cell ever starts with = + - @, TAB or CR.
 */
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csvCells.ts';

const FORMULA = ['=', '+', '-', '@', '\t', '\r'];
const char = fc.constantFrom('a', 'Z', '1', ' ', ',', '"', '\n', '\r', '\t', '=', '+', '-', '@', "'", 'é', '😀', '\uFEFF', ';');
const text = fc.string({ unit: char, maxLength: 8 });
const value = fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constant(null), fc.constant(undefined));

/** An RFC 4180 reader's records. */
const read = (text: string): string[][] => parse(text, { record_delimiter: '\r\n' });

/** What a cell reads back as. */
const shown = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : FORMULA.includes(v[0] ?? '') ? `'${v}` : v);

describe('export CSV cells (property)', () => {
  it('a line parses back to its cells, formulas neutralised', () => {
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), (cells) => {
      const line = csvLine(cells);
      expect(line.endsWith('\r\n')).toBe(true);
      const records = read(line);
      // One empty cell alone is an empty line; a reader skips or keeps it, and it holds nothing.
      if (cells.length === 1 && shown(cells[0]) === '') return;
      expect(records).toEqual([cells.map(shown)]);
    }), { numRuns: 1000 });
  });

  it('no text cell starts with a formula character once read', () => {
    fc.assert(fc.property(text, (t) => {
      const cell = read(`${csvCell(t)}\r\n`)[0]?.[0] ?? '';
      expect(FORMULA.includes(cell[0] ?? '')).toBe(false);
    }), { numRuns: 1000 });
  });

  it('a cell is quoted exactly when it holds a comma, a quote, CR or LF', () => {
    fc.assert(fc.property(text, (t) => {
      const cell = csvCell(t);
      const body = FORMULA.includes(t[0] ?? '') ? `'${t}` : t;
      expect(cell.startsWith('"')).toBe(/[",\r\n]/.test(body));
    }), { numRuns: 500 });
  });
});
