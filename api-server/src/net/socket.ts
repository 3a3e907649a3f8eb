/**
 * Connections to addresses checked at connect time. A name is resolved by the socket's own
 * `lookup` (`guardedLookup`), which checks every address the name stands for and hands the socket
 * only those: the address checked is the address connected to, so a DNS answer that changes
 * between a check and the connection (DNS rebinding) cannot reach an internal service. An IP
 * literal needs no lookup (Node skips it), so it is checked before `connect` is called.
 */
import { isIP, Socket, type LookupFunction, type TcpSocketConnectOpts } from 'node:net';
import { Transform, pipeline, type Readable } from 'node:stream';
import { checkedAddresses, isRefusedAddress, refusedAddressError, systemResolver } from './addresses.ts';
import { NetError, timeoutError } from './errors.ts';
import type { NetPolicy } from './policy.ts';

/** A `lookup` for net, tls, http(s) and anything built on them: only checked addresses come out. */
export function guardedLookup(policy: NetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, policy.allow, policy.resolve ?? systemResolver).then((found) => {
      const family = typeof options.family === 'number' ? options.family : options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : 0;
      const wanted = family ? found.filter((a) => a.family === family) : found;
      const first = wanted[0];
      if (!first) return callback(new NetError('host_not_found', `the host ${hostname} has no IPv${family} address`, { code: 'ENOTFOUND' }), '', 0);
      if (options.all) callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
      else callback(null, first.address, first.family);
    }, (error: NetError) => callback(error, '', 0));
  };
}

/** The refusal of an IP literal host (which `lookup` never sees), or null for a name or an allowed address. */
export function literalRefusal(host: string, policy: NetPolicy): NetError | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '') return new NetError('refused_address', 'the address names no host');
  if (!isIP(bare) && !bare.includes('%')) return null;
  return isRefusedAddress(bare, policy.allow) ? refusedAddressError(bare, bare) : null;
}

export interface ConnectTarget { host: string; port: number; connectTimeoutMs?: number; signal?: AbortSignal | undefined }

/** A TCP connection to a checked address, answered once connected (for clients that take a connected socket: SFTP). */
export function guardedConnect(policy: NetPolicy, target: ConnectTarget): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const refused = literalRefusal(target.host, policy);
    if (refused) return reject(refused);
    const socket = new Socket();
    const ms = target.connectTimeoutMs ?? 15_000;
    const fail = (error: Error) => {
      clearTimeout(timer);
      target.signal?.removeEventListener('abort', abort);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(timeoutError(`connecting to ${target.host}:${target.port}`, ms)), ms);
    const abort = () => fail(target.signal?.reason instanceof Error ? target.signal.reason : new Error('aborted'));
    if (target.signal?.aborted) return abort();
    target.signal?.addEventListener('abort', abort, { once: true });
    socket.once('error', fail);
    socket.connect({ host: target.host.replace(/^\[|\]$/g, ''), port: target.port, lookup: guardedLookup(policy) }, () => {
      clearTimeout(timer);
      target.signal?.removeEventListener('abort', abort);
      socket.removeListener('error', fail);
      resolve(socket);
    });
  });
}

/**
 * A socket whose `connect` goes only to checked addresses, for clients that make their own sockets
 * (basic-ftp's control and data connections). A refused address destroys the socket with the
 * NetError before any packet leaves; a name goes through `guardedLookup`; a Unix socket path is refused.
 */
export function guardedSocket(policy: NetPolicy): Socket {
  const socket = new Socket();
  const connect = socket.connect.bind(socket);
  socket.connect = (...args: unknown[]) => {
    const last = args[args.length - 1];
    const listener = typeof last === 'function' ? (args.pop(), last as () => void) : undefined;
    const [first, second] = args;
    const options: TcpSocketConnectOpts | null = typeof first === 'object' && first !== null && !('path' in first)
      ? first as TcpSocketConnectOpts
      : typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first)) ? { port: Number(first), host: typeof second === 'string' ? second : 'localhost' } : null;
    const refused = options ? literalRefusal(options.host ?? 'localhost', policy) : new NetError('refused_address', 'local socket paths are not reachable');
    if (refused || !options) {
      process.nextTick(() => socket.destroy(refused ?? undefined));
      return socket;
    }
    return connect({ ...options, lookup: guardedLookup(policy) }, listener);
  };
  return socket;
}

export interface StreamLimits {
  /** Most bytes the stream may carry (too_large beyond). */
  maxBytes?: number | undefined;
  /** Longest wait for the next byte. */
  idleMs?: number | undefined;
  /** Time left for the whole stream, counted from now. */
  totalMs?: number | undefined;
  /** The whole limit, when part of it was spent before the stream (the error names it; default totalMs). */
  totalLimitMs?: number | undefined;
  /** What the stream is, for the error ("downloading example.com/a.csv"). */
  what: string;
}

/**
 * `source` under limits: the answer fails with a NetError (and `source` is destroyed) when it
 * carries more than maxBytes, waits longer than idleMs for a byte, or lasts longer than totalMs.
 * Destroying the answer destroys `source`. An error listener is attached at once: a failure
 * before the consumer reads must not be an uncaught exception (it would end the process).
 */
export function limitedStream(source: Readable, limits: StreamLimits): Readable {
  let bytes = 0;
  let idle: NodeJS.Timeout | undefined;
  const fail = (error: Error) => out.destroy(error);
  const rearm = () => {
    if (!limits.idleMs) return;
    clearTimeout(idle);
    idle = setTimeout(() => {
      // A consumer that is behind (the buffers are full) is not the source being silent.
      if (out.readableLength >= out.readableHighWaterMark || out.writableLength >= out.writableHighWaterMark) rearm();
      else fail(timeoutError(`waiting for data while ${limits.what}`, limits.idleMs ?? 0));
    }, limits.idleMs);
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (limits.maxBytes !== undefined && bytes > limits.maxBytes) {
        return callback(new NetError('too_large', `${limits.what}: more than ${limits.maxBytes} bytes (the most taken)`));
      }
      rearm();
      callback(null, chunk);
    },
  });
  const total = limits.totalMs ? setTimeout(() => fail(timeoutError(limits.what, limits.totalLimitMs ?? limits.totalMs ?? 0)), limits.totalMs) : undefined;
  rearm();
  out.on('error', () => undefined);
  out.once('close', () => {
    clearTimeout(idle);
    clearTimeout(total);
  });
  pipeline(source, out, () => {
    clearTimeout(idle);
    clearTimeout(total);
  });
  return out;
}
