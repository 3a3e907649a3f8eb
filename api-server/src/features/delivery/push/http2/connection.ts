/**
 * An HTTP/2 client connection (RFC 9113) over a socket we already hold (TLS with ALPN h2, or TCP
 * for h2c), made for one job: many small POSTs to one push provider, multiplexed.
 *
 * Why not node:http2: issue 13 asks 20,000 notifications a second from one worker. On the 2-core
 * machines this runs on, node:http2's client needs 50-65 µs of CPU per request (the Http2Stream
 * duplex, its events and the C++ boundary per stream), so one core carries at most 15,000-19,000
 * and the provider's loopback server takes the other (docs/BENCHMARKS.md, "push"). This one needs
 * about a third of that: per request it encodes one header block and writes one HEADERS and one DATA
 * frame into a buffer flushed once per turn of the event loop, and parses the answer's frames in
 * place. It speaks only what a client of APNs and FCM needs:
 *
 * - the preface and SETTINGS (push disabled, a 1 MiB stream window, our connection window raised to
 *   16 MiB), SETTINGS ACK, PING answered, PRIORITY ignored, unknown frame types ignored (5.5);
 * - requests: HEADERS (HPACK, hpack.ts) split into CONTINUATION past the peer's frame size, then
 *   DATA within both flow-control windows (6.9); bodies wait for WINDOW_UPDATE when a window is
 *   spent, and the peer's SETTINGS_INITIAL_WINDOW_SIZE changes move every open stream's window;
 * - answers: HEADERS/CONTINUATION (padding and priority fields skipped, informational 1xx answers
 *   skipped, trailers read and dropped), DATA (padding counted against flow control, as it must
 *   be), RST_STREAM, and WINDOW_UPDATEs of ours as the windows drain;
 * - GOAWAY: streams above its last stream id were not processed and fail at once (`refused`, safe to
 *   send again), the rest finish, no new stream opens, and the connection closes when the last one
 *   ends; any protocol violation by the peer ends the connection with GOAWAY and its error code.
 *
 * Not here, because no push provider needs it: server push (refused by SETTINGS), stream
 * priorities, request bodies streamed in parts, the Upgrade dance for h2c (prior knowledge only).
 *
 * A stream's outcome reaches its caller through `StreamHandler`; a failed stream's error carries a
 * `code` (`HTTP2_RST_<n>` for a reset, `HTTP2_GOAWAY` for a stream the server never processed,
 * `ECONNRESET` for a connection that ended under it), which result.ts turns into `retry`.
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { HpackDecoder, HpackEncoder, HpackError, type HeaderList } from './hpack.ts';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export const FRAME = { DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;
export const SETTING = { HEADER_TABLE_SIZE: 1, ENABLE_PUSH: 2, MAX_CONCURRENT_STREAMS: 3, INITIAL_WINDOW_SIZE: 4, MAX_FRAME_SIZE: 5, MAX_HEADER_LIST_SIZE: 6 } as const;
/** RFC 9113 7. */
export const ERROR = { NO_ERROR: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2, FLOW_CONTROL_ERROR: 3, SETTINGS_TIMEOUT: 4, STREAM_CLOSED: 5, FRAME_SIZE_ERROR: 6, REFUSED_STREAM: 7, CANCEL: 8, COMPRESSION_ERROR: 9 } as const;

const MAX_WINDOW = 2 ** 31 - 1;
/** What we let the peer send on one stream before a WINDOW_UPDATE (answers are a few hundred bytes). */
const STREAM_WINDOW = 1 << 20;
/** What we let the peer send on the whole connection (16 MiB; the default 65,535 would throttle 1,000 streams). */
const CONNECTION_WINDOW = 1 << 24;
/** Frames we accept: the protocol's default SETTINGS_MAX_FRAME_SIZE, which we do not raise. */
const OUR_MAX_FRAME = 16_384;

/**
 * Headers a request sends again and again with the same value: worth a dynamic table entry each.
 * Not apns-collapse-id or apns-id: the pipeline gives every notification its own, and an entry per
 * request would push the provider token out of the table within a few dozen requests.
 */
const REPEATED = [':authority', 'authorization', 'apns-topic', 'apns-push-type', 'apns-priority', 'content-type'];

export class Http2ProtocolError extends Error {
  override name = 'Http2ProtocolError';
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

export interface Http2Response {
  status: number;
  /** Lower-case names; a repeated header keeps its first value (the providers send none twice). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface StreamHandler {
  resolve(response: Http2Response): void;
  reject(error: Error): void;
}

interface Stream {
  id: number;
  handler: StreamHandler;
  /** What the peer lets us send on this stream. */
  sendWindow: number;
  /** Body octets not yet sent (flow control); null once all is out. */
  pendingBody: Buffer | null;
  status: number;
  headers: Record<string, string> | null;
  chunks: Buffer[];
  bytes: number;
  /** Octets received on this stream since our last WINDOW_UPDATE for it. */
  unacknowledged: number;
}

export interface Http2ConnectionOptions {
  /** :authority and :scheme of every request. */
  authority: string;
  scheme: 'https' | 'http';
  /** Largest answer body (a stream past it is cancelled and fails with code `ETOOLARGE`). */
  maxResponseBytes: number;
}

/**
 * Events: 'settings' (the peer's SETTINGS arrived; the first one means the connection is ready),
 * 'goaway' (no new streams), 'close' (the socket is gone; every stream has been settled).
 */
export class Http2Connection extends EventEmitter {
  /** The peer's SETTINGS_MAX_CONCURRENT_STREAMS (unlimited until it says). */
  remoteMaxStreams = Number.POSITIVE_INFINITY;
  /** Set once the peer's first SETTINGS arrived. */
  ready = false;
  /** No new streams (GOAWAY either way, an error, or close()). */
  draining = false;
  closed = false;

  private readonly socket: Duplex;
  private readonly opts: Http2ConnectionOptions;
  private readonly encoder = new HpackEncoder(REPEATED);
  private readonly decoder = new HpackDecoder(4096);
  private readonly streams = new Map<number, Stream>();
  private nextId = 1;
  private sendWindow = 65_535;
  private remoteInitialWindow = 65_535;
  private remoteMaxFrame = 16_384;
  /** Octets received on the connection since our last connection WINDOW_UPDATE. */
  private unacknowledged = 0;
  /** Streams whose body waits for window, in the order they were opened. */
  private readonly blocked = new Set<Stream>();
  private out: Buffer[] = [];
  private flushScheduled = false;
  private input: Buffer | null = null;
  /** A header block arriving in CONTINUATION frames: its stream, flags and fragments. */
  private continuing: { id: number; endStream: boolean; fragments: Buffer[]; size: number } | null = null;

  constructor(socket: Duplex, opts: Http2ConnectionOptions) {
    super();
    this.socket = socket;
    this.opts = opts;
    const settings = Buffer.alloc(18);
    [[SETTING.ENABLE_PUSH, 0], [SETTING.INITIAL_WINDOW_SIZE, STREAM_WINDOW], [SETTING.MAX_HEADER_LIST_SIZE, 64 * 1024]].forEach(([id, value], i) => {
      settings.writeUInt16BE(id ?? 0, i * 6);
      settings.writeUInt32BE(value ?? 0, i * 6 + 2);
    });
    this.queue(PREFACE);
    this.frame(FRAME.SETTINGS, 0, 0, settings);
    this.windowUpdate(0, CONNECTION_WINDOW - 65_535);
    this.flush();
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error: Error) => this.destroy(error));
    socket.on('close', () => this.destroy(Object.assign(new Error('the connection closed'), { code: 'ECONNRESET' })));
    socket.on('end', () => this.destroy(Object.assign(new Error('the connection ended'), { code: 'ECONNRESET' })));
  }

  /** Streams open now. */
  get active(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream: POST-like request headers (pseudo-headers first, as given) and a body. Returns
   * the stream id (for `cancel`), or throws when the connection takes no new streams.
   */
  request(headers: HeaderList, body: Buffer, handler: StreamHandler): number {
    if (this.draining || this.closed) throw Object.assign(new Error('the HTTP/2 connection takes no new streams'), { code: 'ERR_HTTP2_INVALID_SESSION' });
    if (this.nextId > MAX_WINDOW) {
      // Stream ids are spent: this connection ends once its streams do, and the caller opens another.
      this.draining = true;
      this.emit('goaway');
      throw Object.assign(new Error('the HTTP/2 connection has used every stream id'), { code: 'ERR_HTTP2_INVALID_SESSION' });
    }
    const fields: HeaderList = [[':method', 'POST'], [':scheme', this.opts.scheme], [':authority', this.opts.authority]];
    for (const field of headers) fields.push(field);
    fields.push(['content-length', String(body.length)]);
    const block = this.encoder.encode(fields);
    const id = this.nextId;
    this.nextId += 2;
    const stream: Stream = { id, handler, sendWindow: this.remoteInitialWindow, pendingBody: body, status: 0, headers: null, chunks: [], bytes: 0, unacknowledged: 0 };
    this.streams.set(id, stream);
    this.headersFrames(id, block, body.length === 0);
    if (body.length === 0) stream.pendingBody = null;
    else this.sendBody(stream);
    this.scheduleFlush();
    return id;
  }

  /** Cancels a stream (RST_STREAM CANCEL) and fails it with `error`. */
  cancel(id: number, error: Error): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    this.rst(id, ERROR.CANCEL);
    this.settle(stream, error);
  }

  /** Takes no new streams, lets the open ones finish, then says GOAWAY and closes. */
  close(): Promise<void> {
    this.draining = true;
    if (this.closed) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.once('close', () => resolve()));
    this.closeIfIdle();
    return done;
  }

  /** Ends the connection now: every open stream fails with `error`. */
  destroy(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.draining = true;
    const failure = error ?? Object.assign(new Error('the HTTP/2 connection was closed'), { code: 'ECONNRESET' });
    for (const stream of [...this.streams.values()]) this.settle(stream, failure);
    this.blocked.clear();
    this.flush();
    this.socket.destroy();
    this.emit('close');
  }

  // ── Writing ────────────────────────────────────────────────────────────────────────────────────

  private queue(chunk: Buffer): void {
    this.out.push(chunk);
  }

  private frame(type: number, flags: number, id: number, payload: Buffer | null, start = 0, end = payload?.length ?? 0): void {
    const header = Buffer.allocUnsafe(9);
    const length = end - start;
    header[0] = (length >>> 16) & 0xff;
    header[1] = (length >>> 8) & 0xff;
    header[2] = length & 0xff;
    header[3] = type;
    header[4] = flags;
    header.writeUInt32BE(id, 5);
    this.out.push(header);
    if (payload && length > 0) this.out.push(start === 0 && end === payload.length ? payload : payload.subarray(start, end));
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Once per turn of the event loop: every request made in this turn goes out in one TLS write.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.out.length === 0 || this.socket.destroyed) {
      this.out = [];
      return;
    }
    const chunks = this.out;
    this.out = [];
    this.socket.write(chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(chunks));
  }

  private headersFrames(id: number, block: Buffer, endStream: boolean): void {
    const max = this.remoteMaxFrame;
    if (block.length <= max) {
      this.frame(FRAME.HEADERS, FLAG.END_HEADERS | (endStream ? FLAG.END_STREAM : 0), id, block);
      return;
    }
    this.frame(FRAME.HEADERS, endStream ? FLAG.END_STREAM : 0, id, block, 0, max);
    for (let at = max; at < block.length; at += max) {
      const end = Math.min(block.length, at + max);
      this.frame(FRAME.CONTINUATION, end === block.length ? FLAG.END_HEADERS : 0, id, block, at, end);
    }
  }

  /** Sends as much of the stream's body as both windows allow; the rest waits in `blocked`. */
  private sendBody(stream: Stream): void {
    let body = stream.pendingBody;
    while (body && body.length > 0) {
      const room = Math.min(this.sendWindow, stream.sendWindow, this.remoteMaxFrame);
      if (room <= 0) break;
      const size = Math.min(room, body.length);
      const last = size === body.length;
      this.frame(FRAME.DATA, last ? FLAG.END_STREAM : 0, stream.id, body, 0, size);
      this.sendWindow -= size;
      stream.sendWindow -= size;
      body = last ? null : body.subarray(size);
    }
    stream.pendingBody = body;
    if (body) this.blocked.add(stream);
    else this.blocked.delete(stream);
  }

  private resumeBlocked(): void {
    for (const stream of this.blocked) {
      if (this.sendWindow <= 0) break;
      this.sendBody(stream);
    }
    this.scheduleFlush();
  }

  private windowUpdate(id: number, increment: number): void {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(increment, 0);
    this.frame(FRAME.WINDOW_UPDATE, 0, id, payload);
  }

  private rst(id: number, code: number): void {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(code, 0);
    this.frame(FRAME.RST_STREAM, 0, id, payload);
    this.scheduleFlush();
  }

  /** A connection error (5.4.1): GOAWAY with the code, then the socket ends. */
  private fail(code: number, message: string): void {
    if (this.closed) return;
    const payload = Buffer.alloc(8);
    // We accept no streams from the server, so the last stream id we processed is 0.
    payload.writeUInt32BE(code, 4);
    this.frame(FRAME.GOAWAY, 0, 0, payload);
    this.destroy(new Http2ProtocolError(`HTTP/2: ${message}`, `HTTP2_${Object.keys(ERROR).find((k) => ERROR[k as keyof typeof ERROR] === code) ?? code}`));
  }

  private settle(stream: Stream, error: Error | null): void {
    if (!this.streams.delete(stream.id)) return;
    this.blocked.delete(stream);
    if (error) stream.handler.reject(error);
    else stream.handler.resolve({ status: stream.status, headers: stream.headers ?? {}, body: stream.chunks.length === 1 ? (stream.chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(stream.chunks) });
    this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (!this.draining || this.closed || this.streams.size > 0) return;
    const payload = Buffer.alloc(8);
    this.frame(FRAME.GOAWAY, 0, 0, payload);
    this.flush();
    this.closed = true;
    this.socket.end();
    // end() lets the GOAWAY out; the socket is destroyed when the peer closes or after a grace period.
    const timer = setTimeout(() => this.socket.destroy(), 2_000);
    timer.unref();
    this.emit('close');
  }

  // ── Reading ────────────────────────────────────────────────────────────────────────────────────

  private receive(chunk: Buffer): void {
    let data = this.input ? Buffer.concat([this.input, chunk]) : chunk;
    let pos = 0;
    while (!this.closed && data.length - pos >= 9) {
      const length = ((data[pos] ?? 0) << 16) | ((data[pos + 1] ?? 0) << 8) | (data[pos + 2] ?? 0);
      if (length > OUR_MAX_FRAME) return this.fail(ERROR.FRAME_SIZE_ERROR, `a frame of ${length} octets (at most ${OUR_MAX_FRAME})`);
      if (data.length - pos < 9 + length) break;
      const type = data[pos + 3] ?? 0;
      const flags = data[pos + 4] ?? 0;
      const id = data.readUInt32BE(pos + 5) & 0x7fffffff;
      const payload = data.subarray(pos + 9, pos + 9 + length);
      pos += 9 + length;
      try {
        this.onFrame(type, flags, id, payload);
      } catch (error) {
        if (error instanceof HpackError) return this.fail(ERROR.COMPRESSION_ERROR, error.message);
        throw error;
      }
    }
    if (pos < data.length && !this.closed) {
      // Keep only the unread tail (copied, so the big chunk it came in can be collected).
      data = data.subarray(pos);
      this.input = Buffer.from(data);
    } else this.input = null;
    this.scheduleFlush();
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.continuing && type !== FRAME.CONTINUATION) return this.fail(ERROR.PROTOCOL_ERROR, 'a header block was interrupted');
    switch (type) {
      case FRAME.DATA: return this.onData(flags, id, payload);
      case FRAME.HEADERS: return this.onHeaders(flags, id, payload);
      case FRAME.CONTINUATION: return this.onContinuation(flags, id, payload);
      case FRAME.RST_STREAM: return this.onRst(id, payload);
      case FRAME.SETTINGS: return this.onSettings(flags, id, payload);
      case FRAME.PING: return this.onPing(flags, id, payload);
      case FRAME.GOAWAY: return this.onGoaway(id, payload);
      case FRAME.WINDOW_UPDATE: return this.onWindowUpdate(id, payload);
      case FRAME.PUSH_PROMISE: return this.fail(ERROR.PROTOCOL_ERROR, 'PUSH_PROMISE with push disabled');
      case FRAME.PRIORITY:
        if (id === 0) return this.fail(ERROR.PROTOCOL_ERROR, 'PRIORITY on stream 0');
        if (payload.length !== 5) return this.fail(ERROR.FRAME_SIZE_ERROR, 'PRIORITY of the wrong size');
        return;
      default:
        // Unknown frame types are ignored (5.5).
        return;
    }
  }

  /** A stream id the server may send frames on: one of ours, open or closed; anything else is an error. */
  private validStream(id: number): boolean {
    return id !== 0 && id % 2 === 1 && id < this.nextId;
  }

  /** The payload without its padding (6.1, 6.2), or null when the padding is longer than the frame. */
  private unpad(flags: number, payload: Buffer): Buffer | null {
    if (!(flags & FLAG.PADDED)) return payload;
    const pad = payload[0] ?? 0;
    if (payload.length < 1 + pad) return null;
    return payload.subarray(1, payload.length - pad);
  }

  private onData(flags: number, id: number, payload: Buffer): void {
    if (!this.validStream(id)) return this.fail(ERROR.PROTOCOL_ERROR, `DATA on stream ${id}`);
    // The whole frame, padding included, counts against both windows (6.9.1).
    this.unacknowledged += payload.length;
    if (this.unacknowledged >= CONNECTION_WINDOW / 2) {
      this.windowUpdate(0, this.unacknowledged);
      this.unacknowledged = 0;
    }
    const data = this.unpad(flags, payload);
    if (data === null) return this.fail(ERROR.PROTOCOL_ERROR, 'DATA padding longer than the frame');
    const stream = this.streams.get(id);
    // A stream we cancelled or settled: its late DATA only counts for flow control.
    if (!stream) return;
    if (!stream.headers) {
      this.rst(id, ERROR.PROTOCOL_ERROR);
      return this.settle(stream, new Http2ProtocolError('DATA before the answer\'s headers', 'HTTP2_PROTOCOL_ERROR'));
    }
    stream.bytes += data.length;
    if (stream.bytes > this.opts.maxResponseBytes) {
      this.rst(id, ERROR.CANCEL);
      return this.settle(stream, Object.assign(new Error(`the answer is longer than ${this.opts.maxResponseBytes} bytes`), { code: 'ETOOLARGE' }));
    }
    if (data.length > 0) stream.chunks.push(Buffer.from(data));
    if (flags & FLAG.END_STREAM) return this.settle(stream, null);
    stream.unacknowledged += payload.length;
    if (stream.unacknowledged >= STREAM_WINDOW / 2) {
      this.windowUpdate(id, stream.unacknowledged);
      stream.unacknowledged = 0;
    }
  }

  private onHeaders(flags: number, id: number, payload: Buffer): void {
    if (!this.validStream(id)) return this.fail(ERROR.PROTOCOL_ERROR, `HEADERS on stream ${id}`);
    let fragment = this.unpad(flags, payload);
    if (fragment === null) return this.fail(ERROR.PROTOCOL_ERROR, 'HEADERS padding longer than the frame');
    if (flags & FLAG.PRIORITY) {
      if (fragment.length < 5) return this.fail(ERROR.FRAME_SIZE_ERROR, 'HEADERS too short for its priority');
      fragment = fragment.subarray(5);
    }
    const endStream = (flags & FLAG.END_STREAM) !== 0;
    if (flags & FLAG.END_HEADERS) return this.onHeaderBlock(id, endStream, fragment);
    this.continuing = { id, endStream, fragments: [Buffer.from(fragment)], size: fragment.length };
  }

  private onContinuation(flags: number, id: number, payload: Buffer): void {
    const c = this.continuing;
    if (!c || c.id !== id) return this.fail(ERROR.PROTOCOL_ERROR, 'CONTINUATION without a header block');
    c.fragments.push(Buffer.from(payload));
    c.size += payload.length;
    if (c.size > 256 * 1024) return this.fail(ERROR.PROTOCOL_ERROR, 'a header block longer than 256 KiB');
    if (flags & FLAG.END_HEADERS) {
      this.continuing = null;
      this.onHeaderBlock(id, c.endStream, Buffer.concat(c.fragments));
    }
  }

  private onHeaderBlock(id: number, endStream: boolean, block: Buffer): void {
    // Every block is decoded, even for a stream we no longer follow: the dynamic table must stay in step.
    const fields = this.decoder.decode(block);
    const stream = this.streams.get(id);
    if (!stream) return;
    if (stream.headers === null) {
      const status = Number(fields.find(([name]) => name === ':status')?.[1]);
      if (!Number.isInteger(status) || status < 100 || status > 999) {
        this.rst(id, ERROR.PROTOCOL_ERROR);
        return this.settle(stream, new Http2ProtocolError('an answer without a valid :status', 'HTTP2_PROTOCOL_ERROR'));
      }
      // An informational answer (100 Continue, 103 Early Hints): the real one follows.
      if (status < 200) {
        if (endStream) this.settle(stream, new Http2ProtocolError('a stream ended on an informational answer', 'HTTP2_PROTOCOL_ERROR'));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of fields) if (name[0] !== ':' && !(name in headers)) headers[name] = value;
      stream.status = status;
      stream.headers = headers;
    } else if (!endStream) {
      // Trailers must end the stream (8.1).
      this.rst(id, ERROR.PROTOCOL_ERROR);
      return this.settle(stream, new Http2ProtocolError('a second header block that does not end the stream', 'HTTP2_PROTOCOL_ERROR'));
    }
    if (endStream) this.settle(stream, null);
  }

  private onRst(id: number, payload: Buffer): void {
    if (id === 0 || !this.validStream(id)) return this.fail(ERROR.PROTOCOL_ERROR, `RST_STREAM on stream ${id}`);
    if (payload.length !== 4) return this.fail(ERROR.FRAME_SIZE_ERROR, 'RST_STREAM of the wrong size');
    const stream = this.streams.get(id);
    if (!stream) return;
    const code = payload.readUInt32BE(0);
    this.settle(stream, Object.assign(new Error(`the server reset the stream (code ${code})`), { code: `HTTP2_RST_${code}` }));
  }

  private onSettings(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) return this.fail(ERROR.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & FLAG.ACK) {
      if (payload.length !== 0) return this.fail(ERROR.FRAME_SIZE_ERROR, 'SETTINGS ACK with a payload');
      return;
    }
    if (payload.length % 6 !== 0) return this.fail(ERROR.FRAME_SIZE_ERROR, 'SETTINGS of the wrong size');
    for (let at = 0; at < payload.length; at += 6) {
      const setting = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      switch (setting) {
        case SETTING.HEADER_TABLE_SIZE:
          this.encoder.setLimit(value);
          break;
        case SETTING.ENABLE_PUSH:
          if (value > 1) return this.fail(ERROR.PROTOCOL_ERROR, 'ENABLE_PUSH above 1');
          break;
        case SETTING.MAX_CONCURRENT_STREAMS:
          this.remoteMaxStreams = value;
          break;
        case SETTING.INITIAL_WINDOW_SIZE: {
          if (value > MAX_WINDOW) return this.fail(ERROR.FLOW_CONTROL_ERROR, 'INITIAL_WINDOW_SIZE above 2^31-1');
          const delta = value - this.remoteInitialWindow;
          this.remoteInitialWindow = value;
          for (const stream of this.streams.values()) {
            stream.sendWindow += delta;
            if (stream.sendWindow > MAX_WINDOW) return this.fail(ERROR.FLOW_CONTROL_ERROR, 'a stream window above 2^31-1');
          }
          break;
        }
        case SETTING.MAX_FRAME_SIZE:
          if (value < 16_384 || value > 16_777_215) return this.fail(ERROR.PROTOCOL_ERROR, `MAX_FRAME_SIZE ${value}`);
          this.remoteMaxFrame = value;
          break;
        default:
          // MAX_HEADER_LIST_SIZE is advice (our requests are far below any server's), unknown settings are ignored.
          break;
      }
    }
    this.frame(FRAME.SETTINGS, FLAG.ACK, 0, null);
    this.ready = true;
    this.resumeBlocked();
    this.emit('settings');
  }

  private onPing(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) return this.fail(ERROR.PROTOCOL_ERROR, 'PING on a stream');
    if (payload.length !== 8) return this.fail(ERROR.FRAME_SIZE_ERROR, 'PING of the wrong size');
    if (!(flags & FLAG.ACK)) this.frame(FRAME.PING, FLAG.ACK, 0, Buffer.from(payload));
  }

  private onGoaway(id: number, payload: Buffer): void {
    if (id !== 0) return this.fail(ERROR.PROTOCOL_ERROR, 'GOAWAY on a stream');
    if (payload.length < 8) return this.fail(ERROR.FRAME_SIZE_ERROR, 'GOAWAY too short');
    const last = payload.readUInt32BE(0) & 0x7fffffff;
    const code = payload.readUInt32BE(4);
    const wasDraining = this.draining;
    this.draining = true;
    // Streams above `last` were never processed: they fail now and may be sent again elsewhere.
    for (const stream of [...this.streams.values()]) {
      if (stream.id > last) this.settle(stream, Object.assign(new Error(`the server went away before this stream (code ${code})`), { code: 'HTTP2_GOAWAY' }));
    }
    if (!wasDraining) this.emit('goaway');
    this.closeIfIdle();
  }

  private onWindowUpdate(id: number, payload: Buffer): void {
    if (payload.length !== 4) return this.fail(ERROR.FRAME_SIZE_ERROR, 'WINDOW_UPDATE of the wrong size');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (id === 0) {
      if (increment === 0) return this.fail(ERROR.PROTOCOL_ERROR, 'a connection WINDOW_UPDATE of 0');
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW) return this.fail(ERROR.FLOW_CONTROL_ERROR, 'the connection window above 2^31-1');
      return this.resumeBlocked();
    }
    if (!this.validStream(id)) return this.fail(ERROR.PROTOCOL_ERROR, `WINDOW_UPDATE on stream ${id}`);
    const stream = this.streams.get(id);
    if (!stream) return;
    if (increment === 0) {
      this.rst(id, ERROR.PROTOCOL_ERROR);
      return this.settle(stream, new Http2ProtocolError('a stream WINDOW_UPDATE of 0', 'HTTP2_PROTOCOL_ERROR'));
    }
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) {
      this.rst(id, ERROR.FLOW_CONTROL_ERROR);
      return this.settle(stream, new Http2ProtocolError('a stream window above 2^31-1', 'HTTP2_FLOW_CONTROL_ERROR'));
    }
    if (stream.pendingBody) {
      this.sendBody(stream);
      this.scheduleFlush();
    }
  }
}
