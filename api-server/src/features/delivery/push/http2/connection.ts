/**
 * An HTTP/2 client connection (RFC 9113) over a socket we already hold (TLS with ALPN h2, or TCP
 * for h2c), made for one job: many small POSTs to one push provider, multiplexed. Why not
 * node:http2: its client costs 44-68 µs of CPU per request on the 2-core machines this runs on
 * (an Http2Stream duplex with its events per request), this one 17-24 (docs/BENCHMARKS.md, push):
 * per request it encodes one header block, writes a HEADERS and a DATA frame into a buffer flushed
 * once per turn of the event loop, and parses the answer's frames in place. It speaks what a
 * client of APNs and FCM needs (frames.ts has the wire format, hpack.ts the header compression):
 * - the preface and SETTINGS (push disabled, a 1 MiB stream window, our connection window raised to
 *   16 MiB), SETTINGS ACK, PING answered, PRIORITY and unknown frame types ignored (5.5);
 * - requests: HEADERS split into CONTINUATION past the peer's frame size, then DATA within both
 *   flow-control windows (6.9), waiting for WINDOW_UPDATE when one is spent; the peer's
 *   SETTINGS_INITIAL_WINDOW_SIZE changes move every open stream's window;
 * - answers: HEADERS/CONTINUATION (padding and priority skipped, 1xx answers skipped, trailers read
 *   and dropped), DATA (padding counted against flow control), RST_STREAM, our WINDOW_UPDATEs;
 * - GOAWAY: streams above its last stream id were never processed and fail at once, the rest
 *   finish, and the connection closes after the last; a peer that breaks the protocol gets a
 *   GOAWAY with the error's code. Failures reach the caller as frames.ts `Http2Error`s.
 * Not here, as no push provider needs them: server push, priorities, streamed request bodies, h2c
 * by Upgrade (prior knowledge only).
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { NetError } from '../../../../net/index.ts';
import { ERROR, FLAG, FRAME, FrameReader, Http2Error, MAX_WINDOW, PREFACE, SETTING, frameHeader, protocolError, readSettings, settingsPayload, unpad, words, type ErrorName } from './frames.ts';
import { HpackDecoder, HpackEncoder, HpackError, type HeaderList } from './hpack.ts';

/** What we let the peer send on one stream before a WINDOW_UPDATE (answers are a few hundred bytes). */
const STREAM_WINDOW = 1 << 20;
/** What we let the peer send on the whole connection (16 MiB; the default 65,535 would throttle 1,000 streams). */
const CONNECTION_WINDOW = 1 << 24;

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
  /** Largest answer body (a stream past it is cancelled and fails with NetError `too_large`). */
  maxResponseBytes: number;
  /**
   * Request headers sent again and again with the same value (the provider token, the topic): a
   * dynamic table entry each (hpack.ts). Not a header that changes per request (a collapse id): an
   * entry per request would push the others out of the table.
   */
  repeatedHeaders?: readonly string[];
}

/**
 * Events: 'settings' (the peer's SETTINGS arrived; the first one means the connection is ready),
 * 'goaway' (no new streams), 'close' (the socket is gone; every stream has been settled).
 */
export class Http2Connection extends EventEmitter {
  /** The peer's SETTINGS_MAX_CONCURRENT_STREAMS (unlimited until it says). */
  remoteMaxStreams = Number.POSITIVE_INFINITY;
  /** No new streams (GOAWAY either way, an error, or close()). */
  draining = false;
  closed = false;

  private readonly socket: Duplex;
  private readonly opts: Http2ConnectionOptions;
  private readonly encoder: HpackEncoder;
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
  private readonly reader = new FrameReader();
  /** A header block arriving in CONTINUATION frames: its stream, flags and fragments. */
  private continuing: { id: number; endStream: boolean; fragments: Buffer[]; size: number } | null = null;

  constructor(socket: Duplex, opts: Http2ConnectionOptions) {
    super();
    this.socket = socket;
    this.opts = opts;
    this.encoder = new HpackEncoder([':authority', ...(opts.repeatedHeaders ?? [])]);
    this.out.push(PREFACE);
    this.frame(FRAME.SETTINGS, 0, 0, settingsPayload([[SETTING.ENABLE_PUSH, 0], [SETTING.INITIAL_WINDOW_SIZE, STREAM_WINDOW], [SETTING.MAX_HEADER_LIST_SIZE, 64 * 1024]]));
    this.frame(FRAME.WINDOW_UPDATE, 0, 0, words(CONNECTION_WINDOW - 65_535));
    this.flush();
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error: Error) => this.destroy(error));
    socket.on('close', () => this.destroy(new Http2Error('the connection closed', 'ECONNRESET')));
    socket.on('end', () => this.destroy(new Http2Error('the connection ended', 'ECONNRESET')));
  }

  /**
   * Opens a stream: POST-like request headers (pseudo-headers first, as given) and a body. Returns
   * the stream id (for `cancel`), or throws when the connection takes no new streams.
   */
  request(headers: HeaderList, body: Buffer, handler: StreamHandler): number {
    if (this.draining || this.closed) throw new Http2Error('the HTTP/2 connection takes no new streams', 'ERR_HTTP2_INVALID_SESSION');
    if (this.nextId > MAX_WINDOW) {
      // Stream ids are spent: this connection ends once its streams do, and the caller opens another.
      this.draining = true;
      this.emit('goaway');
      throw new Http2Error('the HTTP/2 connection has used every stream id', 'ERR_HTTP2_INVALID_SESSION');
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
    this.rst(id, 'CANCEL');
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
    const failure = error ?? new Http2Error('the HTTP/2 connection was closed', 'ECONNRESET');
    for (const stream of [...this.streams.values()]) this.settle(stream, failure);
    this.blocked.clear();
    this.flush();
    this.socket.destroy();
    this.emit('close');
  }

  // ── Writing ────────────────────────────────────────────────────────────────────────────────────

  private frame(type: number, flags: number, id: number, payload: Buffer | null, start = 0, end = payload?.length ?? 0): void {
    this.out.push(frameHeader(type, flags, id, end - start));
    if (payload && end > start) this.out.push(start === 0 && end === payload.length ? payload : payload.subarray(start, end));
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
    this.frame(FRAME.WINDOW_UPDATE, 0, id, words(increment));
  }

  private rst(id: number, name: ErrorName): void {
    this.frame(FRAME.RST_STREAM, 0, id, words(ERROR[name]));
    this.scheduleFlush();
  }

  /** A stream error (5.4.2): RST_STREAM with the code, and the stream fails. */
  private streamError(stream: Stream, name: ErrorName, message: string): void {
    this.rst(stream.id, name);
    this.settle(stream, protocolError(name, message));
  }

  /** A connection error (5.4.1): GOAWAY with the code, then the socket ends. */
  private fail(name: ErrorName, message: string): void {
    this.failWith(protocolError(name, message));
  }

  private failWith(error: Http2Error): void {
    if (this.closed) return;
    // We accept no streams from the server, so the last stream id we processed is 0.
    this.frame(FRAME.GOAWAY, 0, 0, words(0, error.wireCode ?? ERROR.INTERNAL_ERROR));
    this.destroy(error);
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
    this.frame(FRAME.GOAWAY, 0, 0, words(0, ERROR.NO_ERROR));
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
    const frames = this.reader.push(chunk);
    if (frames instanceof Http2Error) return this.failWith(frames);
    for (const { type, flags, id, payload } of frames) {
      if (this.closed) return;
      try {
        this.onFrame(type, flags, id, payload);
      } catch (error) {
        if (error instanceof HpackError) return this.fail('COMPRESSION_ERROR', error.message);
        throw error;
      }
    }
    this.scheduleFlush();
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.continuing && type !== FRAME.CONTINUATION) return this.fail('PROTOCOL_ERROR', 'a header block was interrupted');
    switch (type) {
      case FRAME.DATA: return this.onData(flags, id, payload);
      case FRAME.HEADERS: return this.onHeaders(flags, id, payload);
      case FRAME.CONTINUATION: return this.onContinuation(flags, id, payload);
      case FRAME.RST_STREAM: return this.onRst(id, payload);
      case FRAME.SETTINGS: return this.onSettings(flags, id, payload);
      case FRAME.PING: return this.onPing(flags, id, payload);
      case FRAME.GOAWAY: return this.onGoaway(id, payload);
      case FRAME.WINDOW_UPDATE: return this.onWindowUpdate(id, payload);
      case FRAME.PUSH_PROMISE: return this.fail('PROTOCOL_ERROR', 'PUSH_PROMISE with push disabled');
      case FRAME.PRIORITY:
        if (id === 0) return this.fail('PROTOCOL_ERROR', 'PRIORITY on stream 0');
        if (payload.length !== 5) return this.fail('FRAME_SIZE_ERROR', 'PRIORITY of the wrong size');
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

  private onData(flags: number, id: number, payload: Buffer): void {
    if (!this.validStream(id)) return this.fail('PROTOCOL_ERROR', `DATA on stream ${id}`);
    // The whole frame, padding included, counts against both windows (6.9.1).
    this.unacknowledged += payload.length;
    if (this.unacknowledged >= CONNECTION_WINDOW / 2) {
      this.windowUpdate(0, this.unacknowledged);
      this.unacknowledged = 0;
    }
    const data = unpad(flags, payload);
    if (data === null) return this.fail('PROTOCOL_ERROR', 'DATA padding longer than the frame');
    const stream = this.streams.get(id);
    // A stream we cancelled or settled: its late DATA only counts for flow control.
    if (!stream) return;
    if (!stream.headers) {
      return this.streamError(stream, 'PROTOCOL_ERROR', 'DATA before the answer\'s headers');
    }
    stream.bytes += data.length;
    if (stream.bytes > this.opts.maxResponseBytes) {
      this.rst(id, 'CANCEL');
      return this.settle(stream, new NetError('too_large', `the answer is longer than ${this.opts.maxResponseBytes} bytes`));
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
    if (!this.validStream(id)) return this.fail('PROTOCOL_ERROR', `HEADERS on stream ${id}`);
    let fragment = unpad(flags, payload);
    if (fragment === null) return this.fail('PROTOCOL_ERROR', 'HEADERS padding longer than the frame');
    if (flags & FLAG.PRIORITY) {
      if (fragment.length < 5) return this.fail('FRAME_SIZE_ERROR', 'HEADERS too short for its priority');
      fragment = fragment.subarray(5);
    }
    const endStream = (flags & FLAG.END_STREAM) !== 0;
    if (flags & FLAG.END_HEADERS) return this.onHeaderBlock(id, endStream, fragment);
    this.continuing = { id, endStream, fragments: [Buffer.from(fragment)], size: fragment.length };
  }

  private onContinuation(flags: number, id: number, payload: Buffer): void {
    const c = this.continuing;
    if (!c || c.id !== id) return this.fail('PROTOCOL_ERROR', 'CONTINUATION without a header block');
    c.fragments.push(Buffer.from(payload));
    c.size += payload.length;
    if (c.size > 256 * 1024) return this.fail('PROTOCOL_ERROR', 'a header block longer than 256 KiB');
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
        return this.streamError(stream, 'PROTOCOL_ERROR', 'an answer without a valid :status');
      }
      // An informational answer (100 Continue, 103 Early Hints): the real one follows.
      if (status < 200) {
        if (endStream) this.settle(stream, protocolError('PROTOCOL_ERROR', 'a stream ended on an informational answer'));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of fields) if (name[0] !== ':' && !(name in headers)) headers[name] = value;
      stream.status = status;
      stream.headers = headers;
    } else if (!endStream) {
      // Trailers must end the stream (8.1).
      return this.streamError(stream, 'PROTOCOL_ERROR', 'a second header block that does not end the stream');
    }
    if (endStream) this.settle(stream, null);
  }

  private onRst(id: number, payload: Buffer): void {
    if (id === 0 || !this.validStream(id)) return this.fail('PROTOCOL_ERROR', `RST_STREAM on stream ${id}`);
    if (payload.length !== 4) return this.fail('FRAME_SIZE_ERROR', 'RST_STREAM of the wrong size');
    const stream = this.streams.get(id);
    if (!stream) return;
    const code = payload.readUInt32BE(0);
    this.settle(stream, new Http2Error(`the server reset the stream (code ${code})`, `HTTP2_RST_${code}`));
  }

  private onSettings(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) return this.fail('PROTOCOL_ERROR', 'SETTINGS on a stream');
    if (flags & FLAG.ACK) {
      if (payload.length !== 0) return this.fail('FRAME_SIZE_ERROR', 'SETTINGS ACK with a payload');
      return;
    }
    const settings = readSettings(payload);
    if (settings instanceof Http2Error) return this.failWith(settings);
    for (const [setting, value] of settings) {
      if (setting === SETTING.HEADER_TABLE_SIZE) this.encoder.setLimit(value);
      else if (setting === SETTING.MAX_CONCURRENT_STREAMS) this.remoteMaxStreams = value;
      else if (setting === SETTING.MAX_FRAME_SIZE) this.remoteMaxFrame = value;
      else if (setting === SETTING.INITIAL_WINDOW_SIZE) {
        const delta = value - this.remoteInitialWindow;
        this.remoteInitialWindow = value;
        for (const stream of this.streams.values()) {
          stream.sendWindow += delta;
          if (stream.sendWindow > MAX_WINDOW) return this.fail('FLOW_CONTROL_ERROR', 'a stream window above 2^31-1');
        }
      }
      // MAX_HEADER_LIST_SIZE is advice (our requests are far below any server's); unknown settings are ignored.
    }
    this.frame(FRAME.SETTINGS, FLAG.ACK, 0, null);
    this.resumeBlocked();
    this.emit('settings');
  }

  private onPing(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) return this.fail('PROTOCOL_ERROR', 'PING on a stream');
    if (payload.length !== 8) return this.fail('FRAME_SIZE_ERROR', 'PING of the wrong size');
    if (!(flags & FLAG.ACK)) this.frame(FRAME.PING, FLAG.ACK, 0, Buffer.from(payload));
  }

  private onGoaway(id: number, payload: Buffer): void {
    if (id !== 0) return this.fail('PROTOCOL_ERROR', 'GOAWAY on a stream');
    if (payload.length < 8) return this.fail('FRAME_SIZE_ERROR', 'GOAWAY too short');
    const last = payload.readUInt32BE(0) & 0x7fffffff;
    const code = payload.readUInt32BE(4);
    const wasDraining = this.draining;
    this.draining = true;
    // Streams above `last` were never processed: they fail now and may be sent again elsewhere.
    for (const stream of [...this.streams.values()]) {
      if (stream.id > last) this.settle(stream, new Http2Error(`the server went away before this stream (code ${code})`, 'HTTP2_GOAWAY'));
    }
    if (!wasDraining) this.emit('goaway');
    this.closeIfIdle();
  }

  private onWindowUpdate(id: number, payload: Buffer): void {
    if (payload.length !== 4) return this.fail('FRAME_SIZE_ERROR', 'WINDOW_UPDATE of the wrong size');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (id === 0) {
      if (increment === 0) return this.fail('PROTOCOL_ERROR', 'a connection WINDOW_UPDATE of 0');
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW) return this.fail('FLOW_CONTROL_ERROR', 'the connection window above 2^31-1');
      return this.resumeBlocked();
    }
    if (!this.validStream(id)) return this.fail('PROTOCOL_ERROR', `WINDOW_UPDATE on stream ${id}`);
    const stream = this.streams.get(id);
    if (!stream) return;
    if (increment === 0) {
      return this.streamError(stream, 'PROTOCOL_ERROR', 'a stream WINDOW_UPDATE of 0');
    }
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) {
      return this.streamError(stream, 'FLOW_CONTROL_ERROR', 'a stream window above 2^31-1');
    }
    if (stream.pendingBody) {
      this.sendBody(stream);
      this.scheduleFlush();
    }
  }
}
