/**
 * The outgoing connection module against real servers on loopback: the address check at connect
 * time (IP literals, names through the connection's own lookup, every resolved address, DNS
 * rebinding, redirects), the loopback allow list, timeouts and size limits. Names are answered by
 * a test resolver (the policy's `resolve`), the way a DNS server would answer them.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppSchemeUrl, isLinkTarget, isPublicUrl } from '@gd/shared';
import {
  NetError, allowList, guardedConnect, guardedRequest, guardedSocket, limitedStream, readBody, type NetPolicy, type Resolver,
} from './index.ts';
import { Readable } from 'node:stream';

interface Loopback { port: number; connections: number; requests: string[]; close(): Promise<void> }

/** An HTTP server on `host` counting connections (a refused address must never get one). */
async function serve(host: string, handler: http.RequestListener, port = 0): Promise<Loopback> {
  const server = http.createServer(handler);
  const state: Loopback = {
    port: 0, connections: 0, requests: [],
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  server.on('connection', () => { state.connections++; });
  server.on('request', (req: http.IncomingMessage) => state.requests.push(req.url ?? ''));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

const ok: http.RequestListener = (req, res) => {
  if (req.method === 'POST') {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: body })));
    return;
  }
  res.writeHead(200).end('hello');
};

/** A resolver answering names from a table, as a DNS server would (anything else: not found). */
function dns(table: Record<string, string[] | (() => string[])>): Resolver {
  return (host) => {
    const entry = table[host];
    if (!entry) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    const addresses = typeof entry === 'function' ? entry() : entry;
    return Promise.resolve(addresses.map((address) => ({ address, family: net.isIP(address) })));
  };
}

const strict: NetPolicy = { allow: allowList(undefined) };
const tests = (resolve?: Resolver): NetPolicy => ({ allow: allowList('127.0.0.1'), ...(resolve ? { resolve } : {}) });

async function failure(promise: Promise<unknown>): Promise<NetError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof NetError) return error;
    throw error;
  }
  throw new Error('no failure');
}

/** A body larger than the buffers between the socket and its reader, so a slow reader pauses the socket. */
const WHOLE = Buffer.alloc(1024 * 1024, 'x');
let markRedirectClosed: () => void = () => undefined;
let markWholeSent: () => void = () => undefined;
let wholeSent = Promise.resolve();

let main: Loopback;
let other: Loopback;
beforeAll(async () => {
  main = await serve('127.0.0.1', (req, res) => {
    if (req.url === '/to-other') return void res.writeHead(302, { location: `http://127.0.0.2:${other.port}/` }).end();
    if (req.url === '/to-name') return void res.writeHead(307, { location: `http://rebound.test:${main.port}/` }).end();
    if (req.url === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (req.url === '/hop') return void res.writeHead(303, { location: '/' }).end();
    if (req.url === '/hop-stalls') {
      // A redirect whose body starts and never ends: `closed` settles when the client closes it.
      res.writeHead(302, { location: '/' }).write('moved');
      res.once('close', () => markRedirectClosed());
      return;
    }
    if (req.url === '/big') return void res.writeHead(200, { 'content-length': '2048' }).end('x'.repeat(2048));
    if (req.url === '/chunked-big') {
      res.writeHead(200);
      for (let i = 0; i < 20; i++) res.write('x'.repeat(100));
      return void res.end();
    }
    if (req.url === '/stall') {
      res.writeHead(200);
      res.write('a');
      return;
    }
    if (req.url === '/whole') {
      // The whole body in one write: `sent` settles once it is all handed to the connection.
      res.writeHead(200, { 'content-length': String(WHOLE.length) });
      res.end(WHOLE, () => markWholeSent());
      return;
    }
    if (req.url === '/trickle') {
      res.writeHead(200);
      const timer = setInterval(() => { if (!res.destroyed) res.write('.'); }, 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    ok(req, res);
  });
  // Another loopback address, on the same port where it can: what a rebinding would reach.
  other = await serve('127.0.0.2', ok, main.port).catch(() => serve('127.0.0.2', ok));
});
afterAll(async () => {
  await Promise.all([main?.close(), other?.close()]);
});

describe('the address guard (issue 11, item 18)', () => {
  it('refuses in forms: http://localhost./, http://[fe90::1]/ and app-scheme links to this machine', () => {
    for (const url of ['http://localhost./', 'http://LOCALHOST../x', 'http://[fe90::1]/', 'http://[febf::1]/']) {
      expect(isPublicUrl(url), url).toBe(false);
      expect(isLinkTarget(url), url).toBe(false);
    }
    for (const url of [
      'myapp://localhost:8080/x', 'myapp://[::1]/x', 'myapp://LOCALHOST.:1/x', 'myapp://user@localhost/x', 'myapp://%6cocalhost/x',
      'myapp://127.0.0.1:80/x', 'myapp://[::ffff:127.0.0.1]/x', 'myapp://[fe90::1]/x', 'myapp://10.0.0.1/x', 'myapp://[::1', 'ftp://example.com/x', 'file:///etc/passwd',
    ]) {
      expect(isAppSchemeUrl(url), url).toBe(false);
      expect(isLinkTarget(url), url).toBe(false);
    }
    for (const url of ['myapp://product/42', 'myapp:///home', 'shop://example.com:8080/p', 'myapp://[2606:4700::1111]/x']) {
      expect(isAppSchemeUrl(url), url).toBe(true);
    }
  });

  it('refuses them again when connecting, before any packet leaves', async () => {
    for (const url of ['http://localhost./', 'http://[fe90::1]/', 'http://[::1]/', `http://127.0.0.1:${main.port}/`, 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:7f00:1]/']) {
      const error = await failure(guardedRequest(url, strict, { connectTimeoutMs: 2000 }));
      expect(error.reason, url).toBe('refused_address');
    }
    for (const host of ['fe80::1%lo', '::1', 'localhost', 'LOCALHOST.']) {
      expect((await failure(guardedConnect(strict, { host, port: main.port }))).reason, host).toBe('refused_address');
    }
    expect(main.connections).toBe(0);
  });
});

describe('guardedRequest', () => {
  it('reaches a loopback server only through the explicit allow list', async () => {
    const before = main.connections;
    expect((await failure(guardedRequest(`http://127.0.0.1:${main.port}/`, strict))).message).toContain('127.0.0.1 is a private address');
    expect(main.connections).toBe(before);
    const res = await guardedRequest(`http://127.0.0.1:${main.port}/`, tests());
    expect([res.status, (await readBody(res)).toString()]).toEqual([200, 'hello']);
    // The list names 127.0.0.1 only: its neighbour stays refused.
    expect((await failure(guardedRequest(`http://127.0.0.2:${other.port}/`, tests()))).reason).toBe('refused_address');
    expect(other.connections).toBe(0);
  });

  it('checks every address a name resolves to, when connecting', async () => {
    const policy = tests(dns({ 'files.test': ['127.0.0.1'], 'mixed.test': ['127.0.0.1', '10.0.0.7'], 'metadata.test': ['169.254.169.254'] }));
    const res = await guardedRequest(`http://files.test:${main.port}/`, policy);
    expect((await readBody(res)).toString()).toBe('hello');
    expect((await failure(guardedRequest(`http://mixed.test:${main.port}/`, policy))).message).toBe('mixed.test is a private address (10.0.0.7)');
    expect((await failure(guardedRequest('http://metadata.test/latest', policy))).message).toContain('169.254.169.254');
    expect((await failure(guardedRequest('http://nowhere.test/', policy))).reason).toBe('host_not_found');
  });

  it('connects to the address it checked: a name rebound to a private address between requests never reaches it', async () => {
    let answers = 0;
    // The first answer is allowed, every later one a private address (a DNS rebinding attack).
    const policy = tests(dns({ 'rebound.test': () => (answers++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']) }));
    const first = await guardedRequest(`http://rebound.test:${main.port}/`, policy);
    expect(first.status).toBe(200);
    await readBody(first);
    const second = await failure(guardedRequest(`http://rebound.test:${main.port}/`, policy));
    expect(second.message).toBe('rebound.test is a private address (127.0.0.2)');
    expect(answers).toBe(2);
    expect(other.connections).toBe(0);
  });

  it('answers redirects as they are unless told to follow, and checks every hop', async () => {
    const plain = await guardedRequest(`http://127.0.0.1:${main.port}/to-other`, tests());
    expect([plain.status, plain.headers.location]).toEqual([302, `http://127.0.0.2:${other.port}/`]);
    plain.body.resume();
    expect((await failure(guardedRequest(`http://127.0.0.1:${main.port}/to-other`, tests(), { maxRedirects: 3 }))).message).toBe('127.0.0.2 is a private address');
    const rebinding = tests(dns({ 'rebound.test': ['10.1.1.1'] }));
    expect((await failure(guardedRequest(`http://127.0.0.1:${main.port}/to-name`, rebinding, { maxRedirects: 3 }))).message).toContain('10.1.1.1');
    expect((await failure(guardedRequest(`http://127.0.0.1:${main.port}/to-file`, tests(), { maxRedirects: 3 }))).reason).toBe('refused_answer');
    expect(other.connections).toBe(0);
    const followed = await guardedRequest(`http://127.0.0.1:${main.port}/hop`, tests(), { maxRedirects: 1, method: 'POST', body: 'x' });
    expect([followed.status, followed.url.pathname, (await readBody(followed)).toString()]).toEqual([200, '/', 'hello']);
  });

  it('closes a followed redirect without waiting for its body', async () => {
    const closed = new Promise<void>((resolve) => { markRedirectClosed = resolve; });
    const res = await guardedRequest(`http://127.0.0.1:${main.port}/hop-stalls`, tests(), { maxRedirects: 1 });
    expect([res.status, (await readBody(res)).toString()]).toEqual([200, 'hello']);
    await closed;
  });

  it('sends a body and reads the answer', async () => {
    const res = await guardedRequest(`http://127.0.0.1:${main.port}/postback`, tests(), { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse((await readBody(res)).toString())).toEqual({ got: '{"a":1}' });
  });

  it('limits the size of an answer, announced or not', async () => {
    expect((await failure(guardedRequest(`http://127.0.0.1:${main.port}/big`, tests(), { maxBytes: 1024 }))).reason).toBe('too_large');
    const res = await guardedRequest(`http://127.0.0.1:${main.port}/chunked-big`, tests(), { maxBytes: 1024 });
    expect((await failure(readBody(res))).reason).toBe('too_large');
  });

  it('limits connecting (TLS included), silence and the whole exchange', async () => {
    // A TCP server that accepts and never says a word: the TLS handshake never ends.
    const mute = net.createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const port = (mute.address() as AddressInfo).port;
      const connecting = await failure(guardedRequest(`https://127.0.0.1:${port}/`, tests(), { connectTimeoutMs: 200 }));
      expect([connecting.reason, connecting.transient, connecting.message]).toEqual(['timeout', true, `connecting to 127.0.0.1:${port} took longer than 200 ms`]);
    } finally {
      mute.close();
    }
    const stalled = await guardedRequest(`http://127.0.0.1:${main.port}/stall`, tests(), { idleMs: 200 });
    const silent = await failure(readBody(stalled));
    expect([silent.reason, silent.message]).toEqual(['timeout', `waiting for data while reading 127.0.0.1:${main.port}/stall took longer than 200 ms`]);
    const trickling = await guardedRequest(`http://127.0.0.1:${main.port}/trickle`, tests(), { idleMs: 1000, totalMs: 300 });
    expect((await failure(readBody(trickling))).message).toMatch(/took longer than 300 ms/);
  });

  it('does not count a slow reader of the body as a silent server', async () => {
    wholeSent = new Promise<void>((resolve) => { markWholeSent = resolve; });
    const res = await guardedRequest(`http://127.0.0.1:${main.port}/whole`, tests(), { idleMs: 100 });
    let total = 0;
    let pauses = 0;
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      // The server has sent everything; the reader (a parser under back-pressure) takes longer
      // than idleMs between reads, a few times over.
      if (pauses < 3) {
        await wholeSent;
        await new Promise((resolve) => setTimeout(resolve, 300));
        pauses++;
      }
    }
    expect([total, pauses]).toEqual([WHOLE.length, 3]);
  });
});

describe('raw connections', () => {
  it('guardedConnect connects to checked addresses only', async () => {
    const before = other.connections;
    expect((await failure(guardedConnect(tests(), { host: '127.0.0.2', port: other.port }))).reason).toBe('refused_address');
    expect((await failure(guardedConnect(tests(dns({ 'db.test': ['127.0.0.2'] })), { host: 'db.test', port: other.port }))).reason).toBe('refused_address');
    expect(other.connections).toBe(before);
    const socket = await guardedConnect(tests(dns({ 'web.test': ['127.0.0.1'] })), { host: 'web.test', port: main.port });
    expect(socket.remoteAddress).toBe('127.0.0.1');
    socket.destroy();
  });

  it('guardedSocket refuses a literal, a name and a local path the way clients call connect', async () => {
    const attempts: [string, (s: net.Socket) => void][] = [
      ['options', (s) => s.connect({ host: '127.0.0.2', port: other.port })],
      ['port and host', (s) => s.connect(other.port, '127.0.0.2')],
      ['a name', (s) => s.connect({ host: 'db.test', port: other.port })],
      ['a path', (s) => s.connect('/tmp/some.sock')],
    ];
    for (const [how, connect] of attempts) {
      const socket = guardedSocket(tests(dns({ 'db.test': ['127.0.0.2'] })));
      const error = await new Promise<Error>((resolve) => { socket.once('error', resolve); connect(socket); });
      expect(error, how).toBeInstanceOf(NetError);
    }
    expect(other.connections).toBe(0);
  });
});

describe('limitedStream', () => {
  it('does not count a slow reader as a silent source', async () => {
    const source = Readable.from((function* () { for (let i = 0; i < 200; i++) yield Buffer.alloc(1024, 1); })());
    const limited = limitedStream(source, { idleMs: 50, what: 'reading' });
    let total = 0;
    for await (const chunk of limited) {
      total += (chunk as Buffer).length;
      if (total % (32 * 1024) === 0) await new Promise((resolve) => setTimeout(resolve, 120));
    }
    expect(total).toBe(200 * 1024);
  });
});
