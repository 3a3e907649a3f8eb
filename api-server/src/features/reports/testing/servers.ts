/**
 * Loopback servers for the report delivery tests (they stand in for a customer's SMTP and SFTP
 * servers, which this machine cannot reach): a real SMTP server (smtp-server) that keeps what it
 * receives and refuses chosen recipients, and a real SFTP server (ssh2 Server, a host key made for
 * the run and replaceable while it runs: the imports' `listenSsh`) that accepts uploads, stat,
 * rename and remove, logging in by password or public key.
 */
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';
import { SMTPServer } from 'smtp-server';
import { listenSsh } from '../../imports/testing/servers.ts';
import { ed25519Pair } from '../../../testing/sshKeys.ts';

export interface ReceivedMail { from: string; to: string[]; raw: string }
export interface SmtpFixture { port: number; received: ReceivedMail[]; close(): Promise<void> }

/** An SMTP server on 127.0.0.1 without login; recipients matching `refuse` are refused at RCPT TO. */
export async function startSmtpSink(opts: { refuse?: RegExp } = {}): Promise<SmtpFixture> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.refuse?.test(address.address)) callback(new Error('550 No such mailbox'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The attachments of a raw MIME message (base64 parts with a filename), decoded. */
export function attachmentsOf(raw: string): { filename: string; content: Buffer }[] {
  const found: { filename: string; content: Buffer }[] = [];
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return found;
  for (const part of raw.split(`--${boundary}`)) {
    const filename = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1];
    if (!filename) continue;
    const body = part.split(/\r?\n\r?\n/).slice(1).join('\n').replace(/\s+/g, '');
    found.push({ filename, content: Buffer.from(body, 'base64') });
  }
  return found;
}

export interface SftpSink {
  port: number;
  /** Uploaded files (path → content), as they are after renames. */
  files: Map<string, Buffer>;
  logins: { user: string; method: string; accepted: boolean }[];
  /** A private key (OpenSSH PEM) whose public key the server accepts for `user`. */
  privateKey: string;
  /** The host key the server presents now (OpenSSH fingerprint), and a way to change it. */
  readonly hostKeyFingerprint: string;
  replaceHostKey(): string;
  close(): Promise<void>;
}

/** An SFTP server on 127.0.0.1 for one user, by password or by the key it makes. */
export async function startSftpSink(opts: { user: string; password: string }): Promise<SftpSink> {
  const { utils } = ssh2;
  const { STATUS_CODE } = utils.sftp;
  const userKey = ed25519Pair();
  const allowedKey = userKey.parsed;
  const files = new Map<string, Buffer>();
  const logins: SftpSink['logins'] = [];
  const clients = new Set<ssh2.Connection>();
  const dirAttrs = { mode: 0o40755, uid: 0, gid: 0, size: 0, atime: 0, mtime: 0 };
  const listener = await listenSsh((client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      let accepted = false;
      if (ctx.method === 'password') accepted = ctx.username === opts.user && ctx.password === opts.password;
      if (ctx.method === 'publickey') {
        const same = ctx.username === opts.user && ctx.key.algo === allowedKey.type && ctx.key.data.equals(allowedKey.getPublicSSH());
        if (same && ctx.signature && ctx.blob) accepted = allowedKey.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true;
        else if (same) return void ctx.accept(); // the key offer: accepted, the signed attempt follows
      }
      if (ctx.method !== 'none') logins.push({ user: ctx.username, method: ctx.method, accepted });
      if (accepted) ctx.accept();
      else ctx.reject(['password', 'publickey']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        acceptSession().on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const open = new Map<string, { path: string; parts: Buffer[] }>();
          let next = 0;
          sftp.on('OPEN', (reqid, filename) => {
            const handle = Buffer.alloc(4);
            handle.writeUInt32BE(next++);
            open.set(handle.toString('hex'), { path: filename, parts: [] });
            sftp.handle(reqid, handle);
          });
          sftp.on('WRITE', (reqid, handle, _offset, data) => {
            const f = open.get(handle.toString('hex'));
            if (!f) return void sftp.status(reqid, STATUS_CODE.FAILURE);
            f.parts.push(Buffer.from(data));
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (reqid, handle) => {
            const f = open.get(handle.toString('hex'));
            open.delete(handle.toString('hex'));
            if (f) files.set(f.path, Buffer.concat(f.parts));
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('FSETSTAT', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
          sftp.on('SETSTAT', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
          const stat = (reqid: number, path: string) => {
            const data = files.get(path);
            if (data) sftp.attrs(reqid, { mode: 0o100644, uid: 1000, gid: 1000, size: data.length, atime: 0, mtime: 0 });
            else if (path === '/' || [...files.keys()].some((k) => k.startsWith(`${path.replace(/\/$/, '')}/`))) sftp.attrs(reqid, dirAttrs);
            else sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
          };
          sftp.on('STAT', stat);
          sftp.on('LSTAT', stat);
          sftp.on('REMOVE', (reqid, path) => sftp.status(reqid, files.delete(path) ? STATUS_CODE.OK : STATUS_CODE.NO_SUCH_FILE));
          sftp.on('RENAME', (reqid, from, to) => {
            const data = files.get(from);
            if (!data || files.has(to)) return void sftp.status(reqid, STATUS_CODE.FAILURE);
            files.delete(from);
            files.set(to, data);
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('REALPATH', (reqid, path) => {
            const absolute = path.startsWith('/') ? path : `/${path === '.' ? '' : path}`;
            sftp.name(reqid, [{ filename: absolute, longname: absolute, attrs: dirAttrs }]);
          });
        });
      });
    });
  });
  return {
    port: listener.port, files, logins, privateKey: userKey.private,
    get hostKeyFingerprint() { return listener.hostKeyFingerprint; },
    replaceHostKey: () => listener.replaceHostKey(),
    close: () => { for (const c of clients) c.end(); return listener.close(); },
  };
}
