/**
 * A real SMTP server on loopback (`smtp-server`) that keeps what it receives, parsed as far as the
 * tests read it: the envelope recipients, the headers, and the body. Tests can make it answer a
 * recipient with an SMTP error (a 550 for a mailbox that does not exist, a 451 once) and slow it
 * down (a delay per message), as a provider under load would be.
 */
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail { to: string[]; headers: Map<string, string>; body: string; raw: string; at: number }

export interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  /** Answer RCPT TO for this address with `code` (`times` times, default always). */
  refuse(address: string, code: number, message: string, times?: number): void;
  /** Delay before each message is accepted. */
  delayMs: number;
  /** The mails to one address. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

function parse(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  // Unfold continuation lines, then one header per line.
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, { code: number; message: string; left: number }>();
  const sink: SmtpSink = {
    port: 0,
    received,
    delayMs: 0,
    refuse(address, code, message, times = Number.POSITIVE_INFINITY) {
      refusals.set(address.toLowerCase(), { code, message, left: times });
    },
    to: (address) => received.filter((m) => m.to.includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // close() waits this long for clients (pooled transports) to leave (default 30 s).
    closeTimeout: 200,
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (refusal && refusal.left > 0) {
        refusal.left -= 1;
        const error = new Error(refusal.message) as Error & { responseCode: number };
        error.responseCode = refusal.code;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const finish = () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), ...parse(raw), raw, at: Date.now() });
          callback();
        };
        if (sink.delayMs > 0) setTimeout(finish, sink.delayMs);
        else finish();
      });
    },
  });
  // A client that dies mid-dialogue (a SIGKILLed worker) resets its connection: a real server logs
  // that and goes on; without a listener the error would end the test process.
  server.on('error', () => undefined);
  // Short SMTP replies go out at once, as a real server's do.
  server.server.on('connection', (socket: Socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  sink.port = (server.server.address() as AddressInfo).port;
  return sink;
}
