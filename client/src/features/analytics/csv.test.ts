import { describe, expect, it } from 'vitest';
import { csvCell, safeFileName, toCsv } from './csv.ts';

describe('CSV writer', () => {
  it('leaves plain cells alone', () => {
    expect(csvCell('2026-03-01')).toBe('2026-03-01');
    expect(csvCell('12.5')).toBe('12.5');
    expect(csvCell('')).toBe('');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('1,234')).toBe('"1,234"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('joins cells with commas and lines with CRLF', () => {
    expect(toCsv([['Period', 'ES, Spain'], ['2026-03-01', '=2']])).toBe(`Period,"ES, Spain"\r\n2026-03-01,'=2\r\n`);
  });

  it('makes safe file names', () => {
    expect(safeFileName('explore purchase/2026-03-01..2026-03-07.csv')).toBe('explore_purchase_2026-03-01..2026-03-07.csv');
  });
});
