/**
 * HTTP/2's wire format (RFC 9113 4 and 6) as the push clients' connection (connection.ts) writes
 * and reads it: frame types, flags, settings, error codes, the frame header, padding, and the error
 * every failed stream or connection is answered with.
 */

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const FRAME_HEADER = 9;

export const FRAME = { DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;
export const SETTING = { HEADER_TABLE_SIZE: 1, ENABLE_PUSH: 2, MAX_CONCURRENT_STREAMS: 3, INITIAL_WINDOW_SIZE: 4, MAX_FRAME_SIZE: 5, MAX_HEADER_LIST_SIZE: 6 } as const;
/** RFC 9113 7. */
export const ERROR = { NO_ERROR: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2, FLOW_CONTROL_ERROR: 3, SETTINGS_TIMEOUT: 4, STREAM_CLOSED: 5, FRAME_SIZE_ERROR: 6, REFUSED_STREAM: 7, CANCEL: 8, COMPRESSION_ERROR: 9 } as const;
export type ErrorName = keyof typeof ERROR;

export const MAX_WINDOW = 2 ** 31 - 1;
/** Frames we accept: the protocol's default SETTINGS_MAX_FRAME_SIZE, which we do not raise. */
export const OUR_MAX_FRAME = 16_384;

/**
 * Why a stream or the connection failed. `code` is what result.ts classifies: `HTTP2_<ERROR>` for a
 * protocol error, `HTTP2_RST_<n>` for a stream the server reset, `HTTP2_GOAWAY` for one the server
 * never processed, `ECONNRESET` for a connection that ended under it, `ERR_HTTP2_INVALID_SESSION`
 * for a connection that takes no new streams.
 */
export class Http2Error extends Error {
  override name = 'Http2Error';
  readonly code: string;
  /** For a protocol error: the error code (ERROR) a GOAWAY or RST_STREAM carries for it. */
  readonly wireCode: number | undefined;
  constructor(message: string, code: string, wireCode?: number) {
    super(message);
    this.code = code;
    this.wireCode = wireCode;
  }
}

export const protocolError = (name: ErrorName, message: string) => new Http2Error(`HTTP/2: ${message}`, `HTTP2_${name}`, ERROR[name]);

/** A frame header: 24-bit length, type, flags, 31-bit stream id. */
export function frameHeader(type: number, flags: number, id: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER);
  header[0] = (length >>> 16) & 0xff;
  header[1] = (length >>> 8) & 0xff;
  header[2] = length & 0xff;
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(id, 5);
  return header;
}

/** 32-bit big-endian words: WINDOW_UPDATE, RST_STREAM and GOAWAY payloads. */
export function words(...values: number[]): Buffer {
  const payload = Buffer.allocUnsafe(4 * values.length);
  values.forEach((v, i) => payload.writeUInt32BE(v, 4 * i));
  return payload;
}

/** A SETTINGS payload: 16-bit identifier, 32-bit value each. */
export function settingsPayload(entries: readonly (readonly [number, number])[]): Buffer {
  const payload = Buffer.allocUnsafe(6 * entries.length);
  entries.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return payload;
}

/** The payload without its padding (6.1, 6.2), or null when the padding is longer than the frame. */
export function unpad(flags: number, payload: Buffer): Buffer | null {
  if (!(flags & FLAG.PADDED)) return payload;
  const pad = payload[0] ?? 0;
  if (payload.length < 1 + pad) return null;
  return payload.subarray(1, payload.length - pad);
}

export interface Frame { type: number; flags: number; id: number; payload: Buffer }

/**
 * Cuts the bytes a socket delivers into frames, keeping a partial frame for the next chunk.
 * `push` answers the complete frames, or a FRAME_SIZE_ERROR for a frame longer than we accept.
 */
export class FrameReader {
  private input: Buffer | null = null;

  push(chunk: Buffer): Frame[] | Http2Error {
    const data = this.input ? Buffer.concat([this.input, chunk]) : chunk;
    const frames: Frame[] = [];
    let pos = 0;
    while (data.length - pos >= FRAME_HEADER) {
      const length = ((data[pos] ?? 0) << 16) | ((data[pos + 1] ?? 0) << 8) | (data[pos + 2] ?? 0);
      if (length > OUR_MAX_FRAME) return protocolError('FRAME_SIZE_ERROR', `a frame of ${length} octets (at most ${OUR_MAX_FRAME})`);
      if (data.length - pos < FRAME_HEADER + length) break;
      frames.push({ type: data[pos + 3] ?? 0, flags: data[pos + 4] ?? 0, id: data.readUInt32BE(pos + 5) & 0x7fffffff, payload: data.subarray(pos + FRAME_HEADER, pos + FRAME_HEADER + length) });
      pos += FRAME_HEADER + length;
    }
    // Only the unread tail is kept (copied, so the big chunk it came in can be collected).
    this.input = pos < data.length ? Buffer.from(data.subarray(pos)) : null;
    return frames;
  }
}

/**
 * A SETTINGS payload's entries (6.5), checked against 6.5.2: ENABLE_PUSH 0 or 1, an initial window
 * of at most 2^31-1, a frame size between 2^14 and 2^24-1. A bad length or value is the error.
 */
export function readSettings(payload: Buffer): [id: number, value: number][] | Http2Error {
  if (payload.length % 6 !== 0) return protocolError('FRAME_SIZE_ERROR', 'SETTINGS of the wrong size');
  const entries: [number, number][] = [];
  for (let at = 0; at < payload.length; at += 6) {
    const id = payload.readUInt16BE(at);
    const value = payload.readUInt32BE(at + 2);
    if (id === SETTING.ENABLE_PUSH && value > 1) return protocolError('PROTOCOL_ERROR', 'ENABLE_PUSH above 1');
    if (id === SETTING.INITIAL_WINDOW_SIZE && value > MAX_WINDOW) return protocolError('FLOW_CONTROL_ERROR', 'INITIAL_WINDOW_SIZE above 2^31-1');
    if (id === SETTING.MAX_FRAME_SIZE && (value < 16_384 || value > 16_777_215)) return protocolError('PROTOCOL_ERROR', `MAX_FRAME_SIZE ${value}`);
    entries.push([id, value]);
  }
  return entries;
}
