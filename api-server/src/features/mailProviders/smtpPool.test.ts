/**
 * The send pipeline's SMTP pool (smtpPool.ts) against a real SMTP server on loopback
 * (`smtp-server`): connections reused and bounded, replaced after their quota, a refused mailbox
 * leaving the connection usable, a closing answer or a dropped connection replaced, logins.
 */
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpPool, type SmtpPoolOptions } from './smtpPool.ts';

interface Server { port: number; connections: number; open: number; maxOpen: number; mails: { to: string[]; raw: string }[]; sockets: Set<net.Socket>; close(): Promise<void> }

const servers: Server[] = [];
const pools: SmtpPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) p.close();
  for (const s of servers.splice(0)) await s.close();
});

async function startServer(opts: { auth?: { user: string; pass: string }; refuseLogins?: number; onRcpt?: (address: string) => { code: number; message: string } | null; delayMs?: number } = {}): Promise<Server> {
  let refuseLogins = opts.refuseLogins ?? 0;
  const state: Server = { port: 0, connections: 0, open: 0, maxOpen: 0, mails: [], sockets: new Set(), close: () => Promise.resolve() };
  const server = new SMTPServer({
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (refuseLogins > 0) {
        refuseLogins--;
        return callback(new Error('Invalid username or password'));
      }
      if (auth.username === opts.auth?.user && auth.password === opts.auth?.pass) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const refusal = opts.onRcpt?.(address.address);
      if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => setTimeout(() => {
        state.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      }, opts.delayMs ?? 0));
    },
  });
  server.on('error', () => undefined);
  server.server.on('connection', (socket: net.Socket) => {
    state.connections++;
    state.open++;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    state.sockets.add(socket);
    socket.on('close', () => {
      state.open--;
      state.sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.port = (server.server.address() as AddressInfo).port;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  servers.push(state);
  return state;
}

function poolTo(server: Server, options: Partial<SmtpPoolOptions> = {}): SmtpPool {
  const pool = new SmtpPool({
    connection: { host: '127.0.0.1', port: server.port, ignoreTLS: true, logger: false, connectionTimeout: 2_000, greetingTimeout: 2_000, socketTimeout: 5_000 },
    getSocket: () => new Promise((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    }),
    maxConnections: 3,
    maxMessages: 100,
    ...options,
  });
  pools.push(pool);
  return pool;
}

const message = (to: string, subject = 'Hello') => ({ envelope: { from: 'team@example.com', to: [to] }, raw: `From: team@example.com\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\nHi\r\n.leading dot\r\n` });
const send = (pool: SmtpPool, to: string, subject?: string) => {
  const m = message(to, subject);
  return pool.send(m.envelope, m.raw);
};
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('SmtpPool', () => {
  it('sends one message after another on one connection, dot-stuffed, with the server answer', async () => {
    const server = await startServer();
    const pool = poolTo(server);
    for (let i = 0; i < 5; i++) {
      const info = await send(pool, `p${i}@example.com`, `S${i}`);
      expect(info.accepted).toEqual([`p${i}@example.com`]);
    }
    expect(server.connections).toBe(1);
    expect(server.mails.map((m) => m.to[0])).toEqual(['p0@example.com', 'p1@example.com', 'p2@example.com', 'p3@example.com', 'p4@example.com']);
    // The body's line that starts with a dot arrives as written (stuffed on the wire, unstuffed by the server).
    expect(server.mails[0]!.raw).toContain('\r\n.leading dot\r\n');
  });

  it('opens at most maxConnections, and the sends beyond them wait their turn', async () => {
    const server = await startServer({ delayMs: 20 });
    const pool = poolTo(server, { maxConnections: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => send(pool, `c${i}@example.com`)));
    expect(server.mails).toHaveLength(12);
    expect(server.connections).toBe(3);
    expect(server.maxOpen).toBe(3);
  });

  it('replaces a connection after maxMessages', async () => {
    const server = await startServer();
    const pool = poolTo(server, { maxMessages: 2 });
    for (let i = 0; i < 5; i++) await send(pool, `q${i}@example.com`);
    expect(server.mails).toHaveLength(5);
    expect(server.connections).toBe(3);
  });

  it('answers a refused mailbox with the server code and keeps the connection for the next message', async () => {
    const server = await startServer({ onRcpt: (a) => (a === 'gone@example.com' ? { code: 550, message: 'No such user' } : null) });
    // One connection: the next send waits for it to be reset (RSET) instead of opening another.
    const pool = poolTo(server, { maxConnections: 1 });
    await send(pool, 'ok1@example.com');
    await expect(send(pool, 'gone@example.com')).rejects.toMatchObject({ responseCode: 550, command: 'RCPT TO', code: 'EENVELOPE' });
    await send(pool, 'ok2@example.com');
    expect(server.mails.map((m) => m.to[0])).toEqual(['ok1@example.com', 'ok2@example.com']);
    expect(server.connections).toBe(1);
  });

  it('drops a connection that answered 421 and opens a new one for the next message', async () => {
    let first = true;
    const server = await startServer({
      onRcpt: () => {
        if (!first) return null;
        first = false;
        return { code: 421, message: 'Too busy, closing' };
      },
    });
    const pool = poolTo(server);
    await expect(send(pool, 'a@example.com')).rejects.toMatchObject({ responseCode: 421 });
    await send(pool, 'b@example.com');
    expect(server.mails.map((m) => m.to[0])).toEqual(['b@example.com']);
    expect(server.connections).toBe(2);
  });

  it('forgets an idle connection the server closed, and sends the next message on a new one', async () => {
    const server = await startServer();
    const pool = poolTo(server);
    await send(pool, 'before@example.com');
    for (const socket of server.sockets) socket.destroy();
    await until(() => server.open === 0);
    await new Promise((r) => setTimeout(r, 20));
    await send(pool, 'after@example.com');
    expect(server.mails.map((m) => m.to[0])).toEqual(['before@example.com', 'after@example.com']);
    expect(server.connections).toBe(2);
  });

  it('closes connections left idle for idleMs', async () => {
    const server = await startServer();
    const pool = poolTo(server, { idleMs: 50 });
    await send(pool, 'idle@example.com');
    expect(server.open).toBe(1);
    await until(() => server.open === 0);
  });

  it('logs in with the provider credentials, and a wrong password fails the send with the server answer', async () => {
    const server = await startServer({ auth: { user: 'mailer', pass: 's3cret' } });
    await send(poolTo(server, { auth: { user: 'mailer', pass: 's3cret' } }), 'auth@example.com');
    expect(server.mails).toHaveLength(1);
    await expect(send(poolTo(server, { auth: { user: 'mailer', pass: 'wrong' } }), 'no@example.com')).rejects.toMatchObject({ code: 'EAUTH', responseCode: 535 });
    expect(server.mails).toHaveLength(1);
  });

  it('counts a connection whose login failed out once: the connection limit still holds afterwards', async () => {
    const server = await startServer({ auth: { user: 'mailer', pass: 's3cret' }, refuseLogins: 1, delayMs: 20 });
    const pool = poolTo(server, { maxConnections: 1, auth: { user: 'mailer', pass: 's3cret' } });
    await expect(send(pool, 'refused@example.com')).rejects.toMatchObject({ code: 'EAUTH' });
    await until(() => server.open === 0);
    server.maxOpen = 0;
    await Promise.all(Array.from({ length: 4 }, (_, i) => send(pool, `after${i}@example.com`)));
    expect(server.mails).toHaveLength(4);
    expect(server.maxOpen).toBe(1);
  });

  it('fails a send whose connection cannot be made, and connects again for the next', async () => {
    const server = await startServer();
    let refuse = true;
    const pool = poolTo(server, {
      getSocket: () => new Promise((resolve, reject) => {
        if (refuse) return reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
        const socket = net.connect(server.port, '127.0.0.1', () => resolve(socket));
      }),
    });
    await expect(send(pool, 'x@example.com')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    refuse = false;
    await send(pool, 'y@example.com');
    expect(server.mails.map((m) => m.to[0])).toEqual(['y@example.com']);
  });

  it('after close, fails new sends at once', async () => {
    const server = await startServer();
    const pool = poolTo(server);
    await send(pool, 'one@example.com');
    pool.close();
    await expect(send(pool, 'two@example.com')).rejects.toMatchObject({ code: 'ECONNECTION' });
    await until(() => server.open === 0);
  });
});
