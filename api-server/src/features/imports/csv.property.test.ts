/**
 * Reading import CSV files (csv.ts) over random tables: any table of strings (quotes, commas, LF,
 * CR, byte-order marks, spaces, non-ASCII) written as RFC 4180, with or without a BOM, with CRLF or
 * LF line ends, quoted where needed or everywhere, and delivered in chunks split anywhere (inside
 * a UTF-8 character or the BOM too), reads back as the identifier column of the original, trimmed,
 * in order, `batchRows` at a time. And no input at all makes the reader fail with anything but
 * CsvSyntaxError.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identifierBatches } from './csv.ts';
import { ImportFailure } from './errors.ts';

const cellChar = fc.constantFrom('a', 'B', '1', ' ', ',', '"', '\n', '\r', '\r\n', '\uFEFF', 'é', 'Σ', '😀', '\t', ';', "'", '=');
const cell = fc.string({ unit: cellChar, maxLength: 6 });

/** RFC 4180 writing: quote a field holding a comma, quote, CR or LF (or every field). */
const field = (text: string, quoteAll: boolean) => (quoteAll || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

const table = fc.integer({ min: 1, max: 4 }).chain((columns) => fc.record({
  column: fc.nat({ max: columns - 1 }),
  header: fc.array(fc.constantFrom('name', 'email', 'x', ''), { minLength: columns, maxLength: columns }),
  rows: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: 12 }),
  bom: fc.boolean(),
  eol: fc.constantFrom('\r\n', '\n'),
  finalEol: fc.boolean(),
  quoteAll: fc.boolean(),
  batchRows: fc.integer({ min: 1, max: 5 }),
  cuts: fc.array(fc.nat(), { maxLength: 6 }),
}));

async function read(chunks: Buffer[], batchRows: number): Promise<string[][]> {
  const batches: string[][] = [];
  for await (const batch of identifierBatches(Readable.from(chunks), { idType: 'customerId', batchRows })) batches.push(batch);
  return batches;
}
const split = (bytes: Buffer, cuts: readonly number[]) => {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => bytes.subarray(from, at[i] ?? bytes.length)).filter((b) => b.length > 0);
};

describe('import CSV reading (property)', () => {
  it('reads back the identifier column of any RFC 4180 table, trimmed, in batches', async () => {
    await fc.assert(fc.asyncProperty(table, async (t) => {
      const header = t.header.map((h, i) => (i === t.column ? 'customer_id' : h));
      const lines = [header, ...t.rows].map((row) => row.map((c) => field(c, t.quoteAll)).join(','));
      const text = `${t.bom ? '\uFEFF' : ''}${lines.join(t.eol)}${t.finalEol ? t.eol : ''}`;
      // An empty line is skipped: a one-column row holding '' written unquoted is nothing.
      const expected = t.rows.filter((row) => row.some((c, i) => c !== '' || i > 0) || t.quoteAll).map((row) => row[t.column]!.trim());
      const batches = await read(split(Buffer.from(text), t.cuts), t.batchRows);
      expect(batches.flat()).toEqual(expected);
      expect(batches.every((b, i) => b.length === (i < batches.length - 1 ? t.batchRows : b.length) && b.length > 0 && b.length <= t.batchRows)).toBe(true);
    }), { numRuns: 400 });
  });

  it('fails only with CsvSyntaxError on any bytes', async () => {
    const junk = fc.array(fc.oneof(cellChar, fc.constantFrom('"x', 'x"', ',,', '\n\n', '""""')), { maxLength: 30 }).map((parts) => parts.join(''));
    await fc.assert(fc.asyncProperty(junk, fc.array(fc.nat(), { maxLength: 4 }), async (text, cuts) => {
      try {
        await read(split(Buffer.from(`customer_id,x\n${text}`), cuts), 3);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportFailure);
        expect((error as ImportFailure).kind).toBe('CsvSyntaxError');
      }
    }), { numRuns: 300 });
  });
});
