/**
 * Reading an import's CSV file as a stream of identifier batches, in constant memory: the file is
 * never loaded whole, and the parser pauses while a batch is being stored (backpressure).
 *
 * Rules (RFC 4180): fields separated by commas, optionally quoted with double quotes ("" inside a
 * quoted field is a quote), CRLF or LF line ends, a UTF-8 byte-order mark ignored, empty lines
 * skipped. The first row is a header; every row must have as many fields as the header. Any
 * violation (an unterminated or stray quote, a different field count, a record over 1 MiB) fails
 * the whole import with CsvSyntaxError naming the line.
 */
import { Transform, pipeline, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { AudienceIdType } from '@gd/shared';
import { ImportFailure, copyFailure } from './errors.ts';

/** Header names (lower-cased, without separators) that name each identifier type's column. */
const HEADER_NAMES: Record<AudienceIdType, readonly string[]> = {
  customerId: ['customerid', 'customer', 'cid', 'externalid', 'userid', 'user'],
  '{product}Id': ['productid', 'personid', 'person', 'id', 'gdid'],
  deviceId: ['deviceid', 'device', 'devicekey', 'idfa', 'idfv', 'gaid', 'oaid', 'adid', 'advertisingid'],
};

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The column holding the identifiers: the first whose header names the id type, else the first column. */
export function identifierColumn(header: readonly string[], idType: AudienceIdType): number {
  const names = HEADER_NAMES[idType];
  const cells = header.map(normalise);
  for (const name of names) {
    const index = cells.indexOf(name);
    if (index >= 0) return index;
  }
  return 0;
}

export const MAX_RECORD_BYTES = 1024 * 1024;

export interface CsvReadOptions {
  idType: AudienceIdType;
  batchRows: number;
  /** Called with the bytes read so far, as the file streams in. */
  onBytes?: (bytes: number) => void;
}

interface CsvParseError { code?: string; lines?: number; message: string }
const isCsvError = (e: unknown): e is CsvParseError => e instanceof CsvError;

/** The identifiers of the file, `batchRows` at a time (the header row excluded). */
export async function* identifierBatches(source: Readable, opts: CsvReadOptions): AsyncGenerator<string[]> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      opts.onBytes?.(bytes);
      callback(null, chunk);
    },
  });
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: false, max_record_size: MAX_RECORD_BYTES, record_delimiter: ['\r\n', '\n'] });
  let sourceError: unknown = null;
  source.once('error', (e) => { sourceError ??= e; });
  pipeline(source, counter, parser, (error) => {
    if (error && !isCsvError(error)) sourceError ??= error;
  });

  let column = -1;
  let batch: string[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (column < 0) {
        column = identifierColumn(record, opts.idType);
        continue;
      }
      batch.push((record[column] ?? '').trim());
      if (batch.length >= opts.batchRows) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (isCsvError(error)) {
      const line = typeof error.lines === 'number' ? error.lines : null;
      throw new ImportFailure('CsvSyntaxError', `CsvSyntaxError: line ${line ?? '?'}: ${error.message}`, { line, cause: error });
    }
    throw copyFailure(sourceError ?? error, 'reading the file failed');
  } finally {
    if (!source.destroyed) source.destroy();
  }
  if (sourceError) throw copyFailure(sourceError, 'reading the file failed');
  if (batch.length) yield batch;
}
