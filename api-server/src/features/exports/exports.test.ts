import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csvCells.ts';
import { exportBaseName } from './run.ts';

describe('export CSV cells', () => {
  it('prefixes cells a spreadsheet would run as formulas', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a-b=c')).toBe('a-b=c');
  });

  it('quotes per RFC 4180 and ends lines with CRLF', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvLine(['1', null, 'x,y'])).toBe('1,,"x,y"\r\n');
  });

  it('names files from the audience name without unsafe characters', () => {
    expect(exportBaseName('VIP buyers / Q3', '2026-11-22')).toBe('VIP-buyers-Q3-2026-11-22');
    expect(exportBaseName('***', '2026-11-22')).toBe('audience-2026-11-22');
  });
});
