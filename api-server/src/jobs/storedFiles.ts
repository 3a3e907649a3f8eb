/**
 * Files kept in Postgres (table stored_file_chunks) in chunks of about 1 MiB: uploaded import
 * files and export results. Every API and worker process reaches them (no shared disk needed), and
 * reading or writing one never holds more than a chunk in memory.
 */
import { Readable } from 'node:stream';
import type { Db, Queryable } from '../db/pool.ts';

export const CHUNK_BYTES = 1024 * 1024;

/** Appends bytes to a file, one INSERT per full chunk. */
export class ChunkWriter {
  private readonly db: Queryable;
  private readonly fileId: string;
  private parts: Buffer[] = [];
  private pending = 0;
  private seq = 0;
  bytes = 0;
  constructor(db: Queryable, fileId: string) {
    this.db = db;
    this.fileId = fileId;
  }

  async write(data: Uint8Array): Promise<void> {
    if (data.length === 0) return;
    this.parts.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    this.pending += data.length;
    this.bytes += data.length;
    while (this.pending >= CHUNK_BYTES) await this.flush(CHUNK_BYTES);
  }

  /** Writes what is left; answers the file's size. */
  async end(): Promise<number> {
    if (this.pending > 0) await this.flush(this.pending);
    return this.bytes;
  }

  private async flush(size: number): Promise<void> {
    const all = Buffer.concat(this.parts, this.pending);
    const chunk = all.subarray(0, size);
    const rest = all.subarray(size);
    this.parts = rest.length ? [Buffer.from(rest)] : [];
    this.pending = rest.length;
    await this.db.query('INSERT INTO stored_file_chunks (file_id, seq, data) VALUES ($1, $2, $3)', [this.fileId, this.seq++, chunk]);
  }
}

/** Stores a stream as the file `fileId` (replacing it); throws TooLarge past `maxBytes` and keeps nothing then. */
export async function storeStream(db: Queryable, fileId: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes: number): Promise<number> {
  await deleteFile(db, fileId);
  const writer = new ChunkWriter(db, fileId);
  try {
    for await (const data of source) {
      if (writer.bytes + data.length > maxBytes) throw new FileTooLarge(maxBytes);
      await writer.write(data);
    }
    return await writer.end();
  } catch (error) {
    await deleteFile(db, fileId).catch(() => undefined);
    throw error;
  }
}

export class FileTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`);
    this.maxBytes = maxBytes;
  }
}

/** The file as a stream, read one chunk per query. */
export function readFile(db: Db, fileId: string): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const { rows } = await db.query<{ data: Buffer }>('SELECT data FROM stored_file_chunks WHERE file_id = $1 AND seq = $2', [fileId, seq]);
      const row = rows[0];
      if (!row) return;
      yield row.data;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

export async function fileSize(db: Queryable, fileId: string): Promise<number> {
  const { rows } = await db.query<{ n: string | null }>('SELECT sum(length(data))::text AS n FROM stored_file_chunks WHERE file_id = $1', [fileId]);
  return Number(rows[0]?.n ?? 0);
}

export async function deleteFile(db: Queryable, fileId: string): Promise<void> {
  await db.query('DELETE FROM stored_file_chunks WHERE file_id = $1', [fileId]);
}
