/**
 * The send pipeline's SMTP connections to one mail provider: a pool of nodemailer's protocol client
 * (`SMTPConnection`: greeting, EHLO, STARTTLS, AUTH, dot-stuffing, the server's answers as errors
 * with `responseCode` and `command`) without nodemailer's `Mailer` in front of it. Messages arrive
 * composed (delivery/mime.ts), so the Mailer's plugins, composer and streams would only cost time:
 * about 0.22 ms of CPU per message, two thirds of what a message cost to send through it
 * (docs/BENCHMARKS.md, Delivery). Scheduled reports and connection tests keep using nodemailer's
 * transport (transport.ts).
 *
 * The pool follows nodemailer's own pool where it decides something:
 * - at most `maxConnections` connections, each sending one message at a time; a send waits for a
 *   free connection, first come first served;
 * - a connection is replaced after `maxMessages` messages, and closed after `idleMs` unused (a
 *   server would drop it anyway, and a send on a dropped connection fails);
 * - an answer about the message (a 4xx or 5xx to MAIL FROM, RCPT TO or DATA, but not 421, which
 *   closes the session) leaves the connection usable: it is reset (RSET) and goes back to the pool;
 *   any other failure (a socket error, a timeout, a 421) closes it.
 * Sockets come from `getSocket` (the checked connect of net/, so a provider's host is vetted on
 * every connection).
 */
import type { Socket } from 'node:net';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

export interface SmtpPoolOptions {
  /** nodemailer's connection options (host, port, TLS modes, timeouts); the socket comes from getSocket. */
  connection: Omit<SMTPConnection.Options, 'socket' | 'connection'>;
  auth?: { user: string; pass: string } | undefined;
  getSocket: () => Promise<Socket>;
  maxConnections: number;
  maxMessages: number;
  idleMs?: number;
}

export interface SmtpEnvelope { from: string; to: string[] }

interface Slot { connection: SMTPConnection; messages: number; idleTimer: NodeJS.Timeout | null; dead: boolean }

type Waiter = { resolve: (slot: Slot) => void; reject: (error: unknown) => void };

const DEFAULT_IDLE_MS = 30_000;

export class SmtpPool {
  private readonly options: SmtpPoolOptions;
  private idle: Slot[] = [];
  private waiters: Waiter[] = [];
  /** Connections open or being opened. */
  private open = 0;
  private closed = false;

  constructor(options: SmtpPoolOptions) {
    this.options = options;
  }

  /** Sends one composed message; resolves with the server's answer, rejects with nodemailer's error. */
  async send(envelope: SmtpEnvelope, raw: string | Buffer): Promise<SMTPConnection.SentMessageInfo> {
    const slot = await this.acquire();
    return new Promise((resolve, reject) => {
      slot.connection.send(envelope, raw, (error, info) => {
        slot.messages++;
        if (!error) {
          this.release(slot);
          resolve(info);
          return;
        }
        const aboutMessage = (error.code === 'EENVELOPE' || error.code === 'EMESSAGE') && error.responseCode !== 421 && !slot.dead;
        if (aboutMessage) {
          slot.connection.reset((resetError) => (resetError ? this.drop(slot) : this.release(slot)));
        } else {
          this.drop(slot);
        }
        reject(error);
      });
    });
  }

  /** Closes every connection; sends waiting for one fail. */
  close(): void {
    this.closed = true;
    for (const slot of this.idle) this.drop(slot);
    this.idle = [];
    const error = Object.assign(new Error('the mail transport was closed'), { code: 'ECONNECTION' });
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  private acquire(): Promise<Slot> {
    if (this.closed) return Promise.reject(Object.assign(new Error('the mail transport was closed'), { code: 'ECONNECTION' }));
    const slot = this.idle.pop();
    if (slot) {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      return Promise.resolve(slot);
    }
    if (this.open < this.options.maxConnections) return this.connect();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** A new connection (connected and logged in), counted while it is being opened. */
  private async connect(): Promise<Slot> {
    this.open++;
    let slot: Slot | null = null;
    try {
      const socket = await this.options.getSocket();
      const c = new SMTPConnection({ ...this.options.connection, connection: socket });
      const s: Slot = { connection: c, messages: 0, idleTimer: null, dead: false };
      slot = s;
      // A connection that ends or fails leaves the pool (once: drop counts it out only the first time);
      // one in use also reports through its send.
      c.on('error', () => this.drop(s));
      c.once('end', () => this.drop(s));
      await new Promise<void>((resolve, reject) => c.connect((error) => (error ? reject(error) : resolve())));
      const auth = this.options.auth;
      if (auth && (auth.user || auth.pass)) {
        await new Promise<void>((resolve, reject) => c.login({ user: auth.user, pass: auth.pass }, (error) => (error ? reject(error) : resolve())));
      }
      if (s.dead) throw Object.assign(new Error('the connection closed while it was being opened'), { code: 'ECONNECTION' });
      return s;
    } catch (error) {
      // Counted out once, whether the failure also came as an 'error' event or not; those waiting
      // for a connection then try one of their own (the next may connect).
      if (slot) this.drop(slot);
      else {
        this.open--;
        this.openForWaiter();
      }
      throw error;
    }
  }

  private release(slot: Slot): void {
    if (slot.dead) return;
    if (this.closed || slot.messages >= this.options.maxMessages) {
      slot.connection.quit();
      this.drop(slot);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.resolve(slot);
      return;
    }
    slot.idleTimer = setTimeout(() => {
      this.idle = this.idle.filter((s) => s !== slot);
      slot.connection.quit();
      this.drop(slot);
    }, this.options.idleMs ?? DEFAULT_IDLE_MS);
    slot.idleTimer.unref();
    this.idle.push(slot);
  }

  /** Forgets a connection (closing it) and lets a waiting send open another. */
  private drop(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    this.idle = this.idle.filter((s) => s !== slot);
    slot.connection.close();
    this.open--;
    this.openForWaiter();
  }

  private openForWaiter(): void {
    if (this.closed || this.open >= this.options.maxConnections) return;
    const waiter = this.waiters.shift();
    if (waiter) this.connect().then(waiter.resolve, waiter.reject);
  }
}
