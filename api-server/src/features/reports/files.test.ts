/** Report files: csv quoting and neutralised formulas, the zip's tables, row counts and names. */
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '@gd/shared';
import { parseCsv } from '../../testing/csv.ts';
import { breakdownLabel, reportBaseName, reportFile, type Table } from './files.ts';

const main: Table = {
  name: 'series', columns: ['date', 'value', 'note'],
  rows: [['2026-03-01', 5, 'plain'], ['2026-03-02', 7, 'has, comma'], ['2026-03-03', 0, 'say "hi"\nthere'], ['2026-03-04', -3, '=HYPERLINK("x")'], ['2026-03-05', null, '@SUM(A1)']],
};
const totals: Table = { name: 'totals', columns: ['metric', 'value'], rows: [['events', 9], ['+danger', '-1']] };

describe('report files', () => {
  it('csv: the main table with quoting, CRLF and formulas neutralised; numbers stay numbers', () => {
    const file = reportFile('csv', 'weekly-2026-03-01', [main, totals]);
    expect(file.fileName).toBe('weekly-2026-03-01.csv');
    expect(file.rows).toBe(5);
    const text = file.bytes.toString('utf8');
    expect(text.startsWith('date,value,note\r\n2026-03-01,5,plain\r\n')).toBe(true);
    expect(text).toContain('"has, comma"');
    expect(text).toContain('"say ""hi""\nthere"');
    expect(text).toContain(`'=HYPERLINK(""x"")`);
    expect(text).toContain(`,'@SUM(A1)\r\n`);
    expect(text).toContain('2026-03-04,-3,');
    expect(parseCsv(text)).toEqual([
      ['date', 'value', 'note'], ['2026-03-01', '5', 'plain'], ['2026-03-02', '7', 'has, comma'], ['2026-03-03', '0', 'say "hi"\nthere'],
      ['2026-03-04', '-3', `'=HYPERLINK("x")`], ['2026-03-05', '', `'@SUM(A1)`],
    ]);
  });

  it('zip: the main csv plus one csv per further table; rows of every table counted', () => {
    const file = reportFile('zip', 'weekly', [main, totals]);
    expect(file.fileName).toBe('weekly.zip');
    expect(file.rows).toBe(7);
    const entries = unzipSync(new Uint8Array(file.bytes));
    expect(Object.keys(entries).sort()).toEqual(['weekly-totals.csv', 'weekly.csv']);
    expect(parseCsv(strFromU8(entries['weekly.csv']!))).toHaveLength(6);
    expect(parseCsv(strFromU8(entries['weekly-totals.csv']!))).toEqual([['metric', 'value'], ['events', '9'], [`'+danger`, `'-1`]]);
    const single = unzipSync(new Uint8Array(reportFile('zip', 'one', [main]).bytes));
    expect(Object.keys(single)).toEqual(['one.csv']);
  });

  it('property: any text cell reads back as written, or with a leading quote when it could be a formula', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { maxLength: 20 }), (rows) => {
      const file = reportFile('csv', 'p', [{ name: 'p', columns: ['a', 'b'], rows }]);
      const back = parseCsv(file.bytes.toString('utf8')).slice(1);
      expect(back).toEqual(rows.map((r) => r.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c))));
    }));
  });

  it('labels the breakdown sentinels and names files safely', () => {
    expect(breakdownLabel(EMPTY_SENTINEL)).toBe('(empty)');
    expect(breakdownLabel(OTHER_SENTINEL)).toBe('Other');
    expect(breakdownLabel('ES')).toBe('ES');
    expect(reportBaseName('Ventas / día: España', '2026-03-01', '2026-03-07')).toBe('Ventas-dia-Espana-2026-03-01-to-2026-03-07');
    expect(reportBaseName('***', '2026-03-01', '2026-03-01')).toBe('report-2026-03-01');
  });
});
