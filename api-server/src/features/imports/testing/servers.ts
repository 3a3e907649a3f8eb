/**
 * Servers on loopback for the import tests, each speaking its real protocol: HTTPS with a
 * certificate made for the run (trusted by the API only through OUTGOING_EXTRA_CA_FILE), FTP
 * (ftp-srv, with a login), SFTP (ssh2's server, with a password login, whose host key can be
 * replaced while it runs: `listenSsh`), and an S3 GetObject endpoint that checks the AWS signature
 * V4 of every request as S3 does (a request signed with another key answers 403
 * SignatureDoesNotMatch).
 */
import { createHash } from 'node:crypto';
import { ed25519Pair } from '../../../testing/sshKeys.ts';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AwsV4Signer } from 'aws4fetch';
import { FtpSrv } from 'ftp-srv';
import { generate } from 'selfsigned';
import ssh2 from 'ssh2';

type Route = string | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface HttpsFixture { url: string; caFile: string; requests: string[]; close(): Promise<void> }

/** An HTTPS server on 127.0.0.1 answering `routes` (path → body or handler); 404 otherwise. */
export async function startHttpsServer(routes: Record<string, Route>): Promise<HttpsFixture> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'gd-import-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  await writeFile(caFile, pems.cert);
  const requests: string[] = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    requests.push(req.url ?? '');
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (route === undefined) {
      res.writeHead(404).end('not found');
    } else if (typeof route === 'string') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(route) }).end(route);
    } else route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`, caFile, requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export interface FtpFixture { port: number; close(): Promise<void> }

const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

/** An FTP server on 127.0.0.1 serving `root` to one user. */
export async function startFtpServer(opts: { root: string; user: string; password: string }): Promise<FtpFixture> {
  // Port 0: the system picks a free port as the server binds it (no probe-then-bind race with
  // another test process), read back from the listening socket.
  const server = new FtpSrv({ url: 'ftp://127.0.0.1:0', pasv_url: '127.0.0.1', pasv_min: 40000, pasv_max: 49999, anonymous: false, greeting: 'test', log: quiet });
  server.on('login', ({ username, password }, resolve, reject) => {
    if (username === opts.user && password === opts.password) resolve({ root: opts.root });
    else reject(new Error('login refused'));
  });
  await server.listen();
  const { port } = (server as unknown as { server: net.Server }).server.address() as AddressInfo;
  return { port, close: async () => { await server.close(); } };
}

/**
 * The listening side of a loopback SSH server whose host key can change while it runs: one TCP
 * listener hands each connection to an ssh2 Server made with the current host key, so
 * `replaceHostKey` makes the same host and port present another key to the next connections (a
 * reinstalled server, or someone in between).
 */
export interface SshListener {
  port: number;
  /** The current host key's fingerprint as `ssh-keygen -lf` prints it (computed here, apart from the code under test). */
  readonly hostKeyFingerprint: string;
  /** Makes a new host key for the next connections; answers its fingerprint. */
  replaceHostKey(): string;
  close(): Promise<void>;
}

export async function listenSsh(onClient: (client: ssh2.Connection) => void): Promise<SshListener> {
  const { Server } = ssh2;
  const make = () => {
    const pair = ed25519Pair();
    const { parsed } = pair;
    const fingerprint = `SHA256:${createHash('sha256').update(parsed.getPublicSSH()).digest('base64').replace(/=+$/, '')}`;
    return { server: new Server({ hostKeys: [pair.private] }, onClient), fingerprint };
  };
  let current = make();
  const tcp = net.createServer((socket) => current.server.injectSocket(socket));
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const { port } = tcp.address() as AddressInfo;
  return {
    port,
    get hostKeyFingerprint() { return current.fingerprint; },
    replaceHostKey: () => {
      current = make();
      return current.fingerprint;
    },
    close: () => new Promise<void>((resolve) => tcp.close(() => resolve())),
  };
}

export interface SftpFixture {
  port: number; logins: { user: string; accepted: boolean }[]; reads: string[];
  /** The host key the server presents now, and a way to change it (listenSsh). */
  readonly hostKeyFingerprint: string;
  replaceHostKey(): string;
  close(): Promise<void>;
}

/**
 * An SFTP server on 127.0.0.1 (ssh2, a host key made for the run) serving `files` (path → content)
 * read-only to one user with a password: what a customer's file server does for an import (open,
 * stat, read, close, realpath).
 */
export async function startSftpServer(opts: { user: string; password: string; files: Record<string, string | Buffer> }): Promise<SftpFixture> {
  const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
  const files = new Map(Object.entries(opts.files).map(([name, content]) => [name, Buffer.from(content)]));
  const logins: SftpFixture['logins'] = [];
  const reads: string[] = [];
  const clients = new Set<ssh2.Connection>();
  const attrsOf = (data: Buffer) => {
    const now = Math.floor(Date.now() / 1000);
    return { mode: 0o100644, uid: 1000, gid: 1000, size: data.length, atime: now, mtime: now };
  };
  const listener = await listenSsh((client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      const accepted = ctx.method === 'password' && ctx.username === opts.user && ctx.password === opts.password;
      if (ctx.method === 'password') logins.push({ user: ctx.username, accepted });
      if (accepted) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        acceptSession().on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<string, string>();
          let next = 0;
          const fileOf = (handle: Buffer) => files.get(handles.get(handle.toString('hex')) ?? '');
          sftp.on('OPEN', (reqid, filename, flags) => {
            if (!files.has(filename) || (flags & OPEN_MODE.WRITE) !== 0) return void sftp.status(reqid, files.has(filename) ? STATUS_CODE.PERMISSION_DENIED : STATUS_CODE.NO_SUCH_FILE);
            const handle = Buffer.alloc(4);
            handle.writeUInt32BE(next++);
            handles.set(handle.toString('hex'), filename);
            reads.push(filename);
            sftp.handle(reqid, handle);
          });
          sftp.on('READ', (reqid, handle, offset, length) => {
            const data = fileOf(handle);
            if (!data) return void sftp.status(reqid, STATUS_CODE.FAILURE);
            if (offset >= data.length) return void sftp.status(reqid, STATUS_CODE.EOF);
            sftp.data(reqid, data.subarray(offset, Math.min(data.length, offset + length)));
          });
          sftp.on('CLOSE', (reqid, handle) => {
            handles.delete(handle.toString('hex'));
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('FSTAT', (reqid, handle) => {
            const data = fileOf(handle);
            if (data) sftp.attrs(reqid, attrsOf(data));
            else sftp.status(reqid, STATUS_CODE.FAILURE);
          });
          const stat = (reqid: number, path: string) => {
            const data = files.get(path);
            if (data) sftp.attrs(reqid, attrsOf(data));
            else sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
          };
          sftp.on('STAT', stat);
          sftp.on('LSTAT', stat);
          sftp.on('REALPATH', (reqid, path) => {
            const absolute = path.startsWith('/') ? path : `/${path === '.' ? '' : path}`;
            sftp.name(reqid, [{ filename: absolute, longname: absolute, attrs: { mode: 0o40755, uid: 0, gid: 0, size: 0, atime: 0, mtime: 0 } }]);
          });
        });
      });
    });
  });
  return {
    port: listener.port, logins, reads,
    get hostKeyFingerprint() { return listener.hostKeyFingerprint; },
    replaceHostKey: () => listener.replaceHostKey(),
    close: () => { for (const c of clients) c.end(); return listener.close(); },
  };
}

export interface S3Fixture { endpoint: string; requests: { path: string; signed: boolean }[]; close(): Promise<void> }

/** An S3-compatible GetObject endpoint on 127.0.0.1 (path-style: /bucket/key), checking signatures. */
export async function startS3Server(opts: { region: string; accessKeyId: string; secretAccessKey: string; objects: Record<string, string> }): Promise<S3Fixture> {
  const requests: S3Fixture['requests'] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const auth = req.headers.authorization ?? '';
      const date = String(req.headers['x-amz-date'] ?? '');
      const content = String(req.headers['x-amz-content-sha256'] ?? '');
      const signer = new AwsV4Signer({
        url: `http://${req.headers.host ?? ''}${req.url ?? ''}`, method: req.method ?? 'GET', service: 's3', region: opts.region, datetime: date,
        accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, headers: { 'x-amz-date': date, 'x-amz-content-sha256': content },
      });
      const expected = (await signer.sign()).headers.get('authorization');
      const signed = auth !== '' && auth === expected;
      requests.push({ path: req.url ?? '', signed });
      const xml = (code: string, status: number) => void res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
      const object = opts.objects[decodeURIComponent((req.url ?? '').slice(1))];
      if (!auth.startsWith('AWS4-HMAC-SHA256 ')) xml('AccessDenied', 403);
      else if (!signed) xml('SignatureDoesNotMatch', 403);
      else if (object === undefined) xml('NoSuchKey', 404);
      else res.writeHead(200, { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(object), etag: '"x"' }).end(object);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** How a rogue FTP server fails a download. */
export type RogueFtpMode =
  /** PASV names another host (127.0.0.2, nothing listens there): the client refuses or cannot connect. */
  | 'pasv-other-host'
  /** RETR answers 550 at once, after the data connection was opened. */
  | 'retr-550'
  /** The data connection is reset after a few bytes. */
  | 'reset-mid-transfer'
  /** PASV names a port on 127.0.0.1 where nothing listens. */
  | 'data-refused';

/**
 * A minimal FTP server (RFC 959, just what basic-ftp's login and RETR use) that fails downloads on
 * purpose, the way broken or hostile servers do. Any login is accepted.
 */
export async function startRogueFtpServer(mode: RogueFtpMode): Promise<FtpFixture> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((control) => {
    sockets.add(control);
    control.on('close', () => sockets.delete(control));
    control.on('error', () => undefined);
    let data: net.Server | null = null;
    let dataSocket: Promise<net.Socket> | null = null;
    const reply = (line: string) => { if (!control.destroyed) control.write(`${line}\r\n`); };
    reply('220 rogue');
    let buffered = '';
    control.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const [command = '', ...rest] = line.split(' ');
        void answer(command.toUpperCase(), rest.join(' '));
      }
    });
    async function answer(command: string, _arg: string): Promise<void> {
      switch (command) {
        case 'USER': return reply('331 password please');
        case 'PASS': return reply('230 logged in');
        case 'FEAT': return reply('211 no features');
        case 'TYPE': case 'STRU': case 'OPTS': return reply('200 ok');
        case 'SIZE': return reply('213 1000');
        case 'EPSV': return reply('500 not here');
        case 'PASV': {
          if (mode === 'pasv-other-host') return reply('227 Entering Passive Mode (127,0,0,2,156,64)');
          if (mode === 'data-refused') {
            const probe = net.createServer();
            await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
            const { port } = probe.address() as AddressInfo;
            await new Promise<void>((resolve) => probe.close(() => resolve()));
            return reply(`227 Entering Passive Mode (127,0,0,1,${port >> 8},${port & 255})`);
          }
          data = net.createServer();
          dataSocket = new Promise((resolve) => data!.once('connection', (s: net.Socket) => { s.on('error', () => undefined); sockets.add(s); resolve(s); }));
          await new Promise<void>((resolve) => data!.listen(0, '127.0.0.1', resolve));
          const { port } = data.address() as AddressInfo;
          return reply(`227 Entering Passive Mode (127,0,0,1,${port >> 8},${port & 255})`);
        }
        case 'RETR': {
          if (mode === 'retr-550') {
            reply('550 file not found');
            const s = await dataSocket;
            s?.destroy();
          } else if (mode === 'reset-mid-transfer') {
            reply('150 sending');
            const s = await dataSocket;
            s?.write('customerId\nc-1\nc-');
            setTimeout(() => s?.resetAndDestroy(), 5);
            setTimeout(() => reply('426 transfer aborted'), 10);
          } else {
            reply('425 no data connection');
          }
          data?.close();
          return;
        }
        case 'QUIT': reply('221 bye'); control.end(); return;
        default: return reply('502 not implemented');
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
