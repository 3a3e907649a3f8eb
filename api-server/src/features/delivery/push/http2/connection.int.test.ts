/**
 * Our HTTP/2 client against a real HTTP/2 server (node:http2, which is nghttp2) over TLS, for the
 * protocol's corners the push clients rely on, and against a raw TCP peer writing frames by hand
 * for the violations no real server commits on purpose.
 */
import { createHash, randomUUID } from 'node:crypto';
import http2, { type Http2Session, type SecureServerOptions, type ServerHttp2Stream } from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Http2Endpoint, type Http2EndpointOptions } from '../http2Endpoint.ts';
import { apnsKey, loopbackPolicy } from '../testing/keys.ts';
import { loopbackCert } from '../testing/tls.ts';
import { Http2Connection } from './connection.ts';
import { ERROR, FRAME, frameHeader } from './frames.ts';
import { createApnsClient } from '../apns.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface TestServer { url: string; ca: string; sessions: Http2Session[] }

/** A TLS HTTP/2 server (nghttp2) whose streams `handle` answers. */
async function server(handle: (stream: ServerHttp2Stream, headers: http2.IncomingHttpHeaders, body: Buffer) => void, options: Partial<SecureServerOptions> = {}): Promise<TestServer> {
  const { key, cert } = await loopbackCert();
  const s = http2.createSecureServer({ key, cert, ...options });
  const sessions: Http2Session[] = [];
  s.on('session', (session) => {
    sessions.push(session);
    session.on('error', () => undefined);
  });
  s.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => handle(stream, headers, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    for (const session of sessions) session.destroy();
    s.close(() => resolve());
  }));
  return { url: `https://127.0.0.1:${(s.address() as AddressInfo).port}`, ca: cert, sessions };
}

function endpoint(s: TestServer, extra: Partial<Http2EndpointOptions> = {}): Http2Endpoint {
  const e = new Http2Endpoint({ url: s.url, policy: loopbackPolicy(s.ca), ...extra });
  cleanups.push(() => e.close());
  return e;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('HTTP/2 client against nghttp2', () => {
  it('sends the headers and body intact and reads the status, the (Huffman-coded, indexed) headers and the body', async () => {
    const s = await server((stream, h, body) => {
      stream.respond({ ':status': 201, 'x-path': String(h[':path']), 'x-auth': String(h.authorization), 'x-method': String(h[':method']), 'x-length': String(h['content-length']), 'x-body': sha(body), 'retry-after': '120' });
      stream.end(JSON.stringify({ reason: 'Created', path: h[':path'] }));
    });
    const e = endpoint(s);
    const token = `bearer ${'eyJhbGciOiJFUzI1NiJ9'.repeat(10)}`;
    const body = Buffer.from(JSON.stringify({ aps: { alert: 'héllo' } }));
    // Many requests with the same token: it is indexed once and referred to after; every one must arrive whole.
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => e.request({ ':path': `/3/device/${i.toString(16).padStart(64, '0')}`, authorization: token, 'apns-topic': 'com.example' }, body)));
    answers.forEach((a, i) => {
      expect(a.status).toBe(201);
      expect(a.headers['x-path']).toBe(`/3/device/${i.toString(16).padStart(64, '0')}`);
      expect(a.headers['x-auth']).toBe(token);
      expect(a.headers['x-method']).toBe('POST');
      expect(a.headers['x-length']).toBe(String(body.length));
      expect(a.headers['x-body']).toBe(sha(body));
      expect(a.headers['retry-after']).toBe('120');
      expect(JSON.parse(a.body)).toEqual({ reason: 'Created', path: `/3/device/${i.toString(16).padStart(64, '0')}` });
    });
    expect(e.sessionsOpened).toBe(1);
  });

  it('keeps to flow control: a 1 MiB body into a 1,000-octet window, and 3 MiB answers through our windows', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const s = await server((stream, h, body) => {
      stream.respond({ ':status': 200, 'x-body': sha(body), 'x-length': String(body.length) });
      stream.end(h[':path'] === '/big' ? big : 'ok');
    }, { settings: { initialWindowSize: 1_000 } });
    const e = endpoint(s, { maxResponseBytes: 4 * 1024 * 1024 });
    const upload = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < upload.length; i++) upload[i] = (i * 31) & 0xff;
    const sent = await e.request({ ':path': '/upload' }, upload);
    expect(sent.headers['x-length']).toBe(String(upload.length));
    expect(sent.headers['x-body']).toBe(sha(upload));
    // Three 3 MiB answers at once: past half of each stream's window and of the connection's, so both need our WINDOW_UPDATEs.
    const downloads = await Promise.all([1, 2, 3].map(() => e.request({ ':path': '/big' }, Buffer.from('x'))));
    for (const d of downloads) {
      expect(d.status).toBe(200);
      expect(d.body.length).toBe(big.length);
    }
  });

  it('reads padded frames, a header block in CONTINUATION frames, an informational answer and trailers', async () => {
    const s = await server((stream, h) => {
      stream.additionalHeaders({ ':status': 103, link: '</style.css>; rel=preload' });
      stream.respond({ ':status': 200, 'x-big': 'v'.repeat(30_000), 'x-got': String((h['x-big'] as string | undefined)?.length ?? 0) }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'x-checksum': 'abc' }));
      stream.end('padded body');
    }, { paddingStrategy: http2.constants.PADDING_STRATEGY_MAX, settings: { maxHeaderListSize: 100_000 }, maxSendHeaderBlockLength: 100_000 });
    const e = endpoint(s);
    // Our 30,000-octet header does not fit one 16,384-octet frame either: HEADERS + CONTINUATION.
    const a = await e.request({ ':path': '/', 'x-big': 'w'.repeat(30_000) }, Buffer.from('{}'));
    expect(a.status).toBe(200);
    expect(a.headers['x-big']).toBe('v'.repeat(30_000));
    expect(a.headers['x-got']).toBe('30000');
    expect(a.body).toBe('padded body');
    expect(a.headers['x-checksum']).toBeUndefined();
  });

  it('sends no dynamic table entries to a server that allows none (SETTINGS_HEADER_TABLE_SIZE 0)', async () => {
    const seen: string[] = [];
    const s = await server((stream, h) => {
      seen.push(String(h.authorization));
      stream.respond({ ':status': 200 }, { endStream: true });
    }, { settings: { headerTableSize: 0 } });
    const e = endpoint(s);
    for (let i = 0; i < 20; i++) expect((await e.request({ ':path': '/', authorization: `bearer ${i % 3}` }, Buffer.from('x'))).status).toBe(200);
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `bearer ${i % 3}`));
    // nghttp2 would have ended the connection with COMPRESSION_ERROR on an entry past its table.
    expect(e.sessionsOpened).toBe(1);
  });

  it('fails a reset stream alone, with the reset code', async () => {
    const s = await server((stream, h) => {
      if (h[':path'] === '/refuse') stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      else stream.respond({ ':status': 200 }, { endStream: true });
    });
    const e = endpoint(s);
    const [refused, ok] = await Promise.allSettled([e.request({ ':path': '/refuse' }, Buffer.from('x')), e.request({ ':path': '/ok' }, Buffer.from('x'))]);
    expect(refused.status === 'rejected' && (refused.reason as { code?: string }).code).toBe('HTTP2_RST_7');
    expect(ok.status === 'fulfilled' && ok.value.status).toBe(200);
    expect(e.sessionsOpened).toBe(1);
  });

  it('on GOAWAY finishes the streams the server kept, fails the others as not processed, and opens a new connection for the next send', async () => {
    const held: ServerHttp2Stream[] = [];
    const s = await server((stream) => {
      held.push(stream);
      if (held.length < 3) return;
      const first = held[0];
      if (!first) return;
      // Keep only the first stream; the two after it were never processed.
      first.session?.goaway(http2.constants.NGHTTP2_NO_ERROR, first.id ?? 0);
      first.respond({ ':status': 200 }, { endStream: true });
    }, { settings: { maxConcurrentStreams: 10 } });
    const e = endpoint(s, { maxConnections: 1 });
    const first = e.request({ ':path': '/1' }, Buffer.from('x'));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    const rest = [e.request({ ':path': '/2' }, Buffer.from('x')), e.request({ ':path': '/3' }, Buffer.from('x'))];
    expect((await first).status).toBe(200);
    for (const r of await Promise.allSettled(rest)) expect(r.status === 'rejected' && (r.reason as { code?: string }).code).toBe('HTTP2_GOAWAY');
    held.length = 0;
    const next = e.request({ ':path': '/4' }, Buffer.from('x'));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    held[0]?.respond({ ':status': 204 }, { endStream: true });
    expect((await next).status).toBe(204);
    expect(e.sessionsOpened).toBe(2);
  });

  it('fails every stream in flight when the connection drops, and reconnects for the next send', async () => {
    let drop = true;
    const s = await server((stream) => {
      if (drop) stream.session?.socket.destroy();
      else stream.respond({ ':status': 200 }, { endStream: true });
    });
    const e = endpoint(s);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => e.request({ ':path': '/' }, Buffer.from('x'))));
    for (const r of results) expect(r.status === 'rejected' && (r.reason as { code?: string }).code).toBe('ECONNRESET');
    drop = false;
    expect((await e.request({ ':path': '/' }, Buffer.from('x'))).status).toBe(200);
    expect(e.sessionsOpened).toBe(2);
  });

  it('cancels a stream past its deadline (RST_STREAM CANCEL) and keeps the connection for the others', async () => {
    const resets: number[] = [];
    const s = await server((stream, h) => {
      stream.on('close', () => resets.push(stream.rstCode ?? -1));
      if (h[':path'] !== '/hang') stream.respond({ ':status': 200 }, { endStream: true });
    });
    const e = endpoint(s, { requestTimeoutMs: 300 });
    await expect(e.request({ ':path': '/hang' }, Buffer.from('x'))).rejects.toMatchObject({ reason: 'timeout', code: 'ETIMEDOUT' });
    await vi.waitFor(() => expect(resets).toContain(http2.constants.NGHTTP2_CANCEL));
    expect((await e.request({ ':path': '/ok' }, Buffer.from('x'))).status).toBe(200);
    expect(e.sessionsOpened).toBe(1);
  });

  it('refuses an answer larger than maxResponseBytes', async () => {
    const s = await server((stream) => {
      stream.respond({ ':status': 200 });
      stream.end(Buffer.alloc(10_000));
    });
    const e = endpoint(s, { maxResponseBytes: 1_000 });
    await expect(e.request({ ':path': '/' }, Buffer.from('x'))).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('answers the server\'s PING', async () => {
    const s = await server((stream) => stream.respond({ ':status': 200 }, { endStream: true }));
    const e = endpoint(s);
    await e.request({ ':path': '/' }, Buffer.from('x'));
    const session = s.sessions[0];
    const rtt = await new Promise<number>((resolve, reject) => session?.ping((error, duration) => (error ? reject(error) : resolve(duration))));
    expect(rtt).toBeGreaterThanOrEqual(0);
  });

  it('refuses a header value with a line break before sending anything', async () => {
    let streams = 0;
    const s = await server((stream) => {
      streams++;
      stream.respond({ ':status': 200 }, { endStream: true });
    });
    const e = endpoint(s);
    await expect(e.request({ ':path': '/', 'apns-collapse-id': 'a\r\nx-injected: 1' }, Buffer.from('x'))).rejects.toMatchObject({ code: 'ERR_HTTP2_INVALID_HEADER_VALUE' });
    await expect(e.request({ ':path': '/', 'Bad Name': 'x' }, Buffer.from('x'))).rejects.toMatchObject({ code: 'ERR_INVALID_HTTP_TOKEN' });
    expect(streams).toBe(0);
    expect(e.sessionsOpened).toBe(0);
  });
});

type Write = (type: number, flags: number, id: number, payload: Buffer) => void;

/** A raw HTTP/2 server over TCP (h2c with prior knowledge): reads the preface and frames, answers what a test tells it. */
async function rawServer(onHeaders: (id: number, write: Write) => void) {
  const received: { type: number; flags: number; id: number; payload: Buffer }[] = [];
  const srv = net.createServer((socket) => {
    let input = Buffer.alloc(0);
    let prefaced = false;
    const write: Write = (type, flags, id, payload) => socket.write(Buffer.concat([frameHeader(type, flags, id, payload.length), payload]));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      input = Buffer.concat([input, chunk]);
      if (!prefaced) {
        if (input.length < 24) return;
        expect(input.subarray(0, 24).toString('latin1')).toBe('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
        input = input.subarray(24);
        prefaced = true;
        write(FRAME.SETTINGS, 0, 0, Buffer.alloc(0));
      }
      while (input.length >= 9 && input.length >= 9 + input.readUIntBE(0, 3)) {
        const length = input.readUIntBE(0, 3);
        const frame = { type: input[3] ?? 0, flags: input[4] ?? 0, id: input.readUInt32BE(5), payload: Buffer.from(input.subarray(9, 9 + length)) };
        input = input.subarray(9 + length);
        received.push(frame);
        if (frame.type === FRAME.HEADERS) onHeaders(frame.id, write);
      }
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => srv.close(() => resolve())));
  return { port: (srv.address() as AddressInfo).port, received };
}

/** A connection of ours to a raw server; `send` makes one request on it. */
async function rawPeer(onHeaders: (id: number, write: Write) => void) {
  const { port, received } = await rawServer(onHeaders);
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const connection = new Http2Connection(socket, { authority: 'localhost', scheme: 'http', maxResponseBytes: 1_000 });
  cleanups.push(() => connection.destroy());
  await new Promise((resolve) => connection.once('settings', resolve));
  const send = () => new Promise<unknown>((resolve, reject) => connection.request([[':path', '/']], Buffer.from('x'), { resolve, reject }));
  return { connection, send, received };
}

describe('HTTP/2 client against a peer that breaks the protocol', () => {
  const cases: { name: string; code: keyof typeof ERROR; answer: (id: number, write: Write) => void }[] = [
    { name: 'a frame longer than our SETTINGS_MAX_FRAME_SIZE', code: 'FRAME_SIZE_ERROR', answer: (id, write) => write(FRAME.DATA, 1, id, Buffer.alloc(20_000)) },
    { name: 'a PUSH_PROMISE with push disabled', code: 'PROTOCOL_ERROR', answer: (id, write) => write(FRAME.PUSH_PROMISE, 4, id, Buffer.from([0, 0, 0, 2, 0x82])) },
    { name: 'a header block that does not decode (index 0)', code: 'COMPRESSION_ERROR', answer: (id, write) => write(FRAME.HEADERS, 5, id, Buffer.from([0x80])) },
    { name: 'DATA on a stream the client never opened', code: 'PROTOCOL_ERROR', answer: (id, write) => write(FRAME.DATA, 1, id + 2, Buffer.from('x')) },
    { name: 'a header block interrupted by another frame', code: 'PROTOCOL_ERROR', answer: (id, write) => { write(FRAME.HEADERS, 0, id, Buffer.from([0x88])); write(FRAME.DATA, 1, id, Buffer.from('x')); } },
    { name: 'a connection window past 2^31-1', code: 'FLOW_CONTROL_ERROR', answer: (_id, write) => write(FRAME.WINDOW_UPDATE, 0, 0, Buffer.from([0x7f, 0xff, 0xff, 0xff])) },
  ];
  for (const c of cases) {
    it(`ends the connection with GOAWAY ${c.code} on ${c.name}, failing the stream`, async () => {
      const peer = await rawPeer(c.answer);
      await expect(peer.send()).rejects.toMatchObject({ code: `HTTP2_${c.code}` });
      expect(peer.connection.closed).toBe(true);
      await vi.waitFor(() => {
        const goaway = peer.received.find((f) => f.type === FRAME.GOAWAY);
        expect(goaway?.payload.readUInt32BE(4)).toBe(ERROR[c.code]);
      });
    });
  }

  it('keeps the APNs provider token indexed while every notification carries its own collapse id', async () => {
    const server = await rawServer((id, write) => write(FRAME.HEADERS, 5, id, Buffer.from([0x88])));
    const key = apnsKey();
    const apns = createApnsClient({ keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example', privateKeyPem: key.privateKeyPem, endpoint: `http://127.0.0.1:${server.port}`, policy: loopbackPolicy('') });
    cleanups.push(() => apns.close());
    for (let i = 0; i < 120; i++) {
      const id = randomUUID();
      expect(await apns.send({ token: 'ab'.repeat(32), title: 't', id, collapseId: id })).toMatchObject({ outcome: 'sent' });
    }
    const blocks = server.received.filter((f) => f.type === FRAME.HEADERS).map((f) => f.payload);
    expect(blocks).toHaveLength(120);
    // The first block carries the token (a plain literal: no Huffman coding); the others refer to it by index.
    const bearer = Buffer.from('bearer ');
    expect(blocks[0]?.includes(bearer)).toBe(true);
    expect(blocks.slice(1).filter((b) => b.includes(bearer))).toHaveLength(0);
  });

  it('reads answers whose header blocks use the dynamic table, Huffman strings and CONTINUATION', async () => {
    let answered = 0;
    const peer = await rawPeer((id, write) => {
      if (answered++ === 0) {
        // :status 200 (indexed 0x88), then "apns-id: abc" with incremental indexing (new name, Huffman value 1c 64), over two frames.
        const block = Buffer.from([0x88, 0x40, 0x07, ...Buffer.from('apns-id'), 0x82, 0x1c, 0x64]);
        write(FRAME.HEADERS, 0, id, block.subarray(0, 4));
        write(FRAME.CONTINUATION, 4, id, block.subarray(4));
        write(FRAME.DATA, 1, id, Buffer.from('{}'));
      } else {
        // :status 404, then the entry the first answer added: dynamic index 62 (0xbe).
        write(FRAME.HEADERS, 5, id, Buffer.from([0x8d, 0xbe]));
      }
    });
    expect(await peer.send()).toMatchObject({ status: 200, headers: { 'apns-id': 'abc' } });
    expect(await peer.send()).toMatchObject({ status: 404, headers: { 'apns-id': 'abc' } });
    expect(peer.connection.closed).toBe(false);
  });
});
