/** How an outgoing request fails, in words a feature can turn into its own error (imports: CopyImportFileError). */

export type NetFailureReason =
  /** The host is, or resolves to, an address that is not public (netGuard ranges), or names no host. */
  | 'refused_address'
  /** The name does not resolve. */
  | 'host_not_found'
  /** Connecting, waiting for the next byte, or the whole exchange took longer than allowed. */
  | 'timeout'
  /** The answer is larger than allowed. */
  | 'too_large'
  /** A scheme, redirect or answer the client does not take. */
  | 'refused_answer';

export class NetError extends Error {
  readonly reason: NetFailureReason;
  /** Another try may pass (a timeout, a DNS server that did not answer). */
  readonly transient: boolean;
  /** A Node-style code (ETIMEDOUT, ENOTFOUND, EAI_AGAIN, ...) for callers that classify by code. */
  readonly code: string;
  constructor(reason: NetFailureReason, message: string, opts: { transient?: boolean; code?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'NetError';
    this.reason = reason;
    this.transient = opts.transient ?? false;
    this.code = opts.code ?? `E${reason.toUpperCase()}`;
  }
}

export const timeoutError = (what: string, ms: number) =>
  new NetError('timeout', `${what} took longer than ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}`, { transient: true, code: 'ETIMEDOUT' });
