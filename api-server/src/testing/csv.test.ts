import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';

describe('parseCsv (the tests\' CSV reader)', () => {
  it('reads quoted cells, doubled quotes and CRLF rows', () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n1,"line\r\nbreak",3\r\n')).toEqual([['a', 'b,c', 'say "hi"'], ['1', 'line\r\nbreak', '3']]);
  });

  it('is strict about CRLF by default, and takes LF rows only when asked', () => {
    expect(parseCsv('a,b\nc,d\r\n')).toEqual([['a', 'b\nc', 'd']]);
    expect(parseCsv('a,b\nc,d\r\n', { anyLineEnd: true })).toEqual([['a', 'b'], ['c', 'd']]);
  });
});
