/**
 * The client side of the sync heartbeat (constants and protocol in schemas/docs.ts), kept free of
 * any provider class so the browser's session and the sync tests run the same code: while the
 * connection is live it pings; while an attempt to connect hangs past SYNC_ATTEMPT_TIMEOUT_MS it
 * abandons it for a fresh one. The provider's own `messageReconnectTimeout` (SYNC_DEAD_AFTER_MS)
 * closes a connection that stopped answering.
 */
import { SYNC_ATTEMPT_TIMEOUT_MS, SYNC_DEAD_AFTER_MS, SYNC_HEARTBEAT_MS, SYNC_MAX_RECONNECT_DELAY_MS } from '../schemas/docs.ts';

export interface HeartbeatTarget {
  /** Connected and authenticated: pings are answered. */
  live(): boolean;
  /** A connection attempt is under way. */
  connecting(): boolean;
  ping(): void;
  /** Abandons the attempt under way and starts a new one. */
  restartAttempt(): void;
}

export interface HeartbeatOptions { everyMs?: number; attemptTimeoutMs?: number; now?: () => number }

/** Starts the heartbeat; answers the function that stops it. */
export function startHeartbeat(target: HeartbeatTarget, opts: HeartbeatOptions = {}): () => void {
  const now = opts.now ?? Date.now;
  const attemptTimeoutMs = opts.attemptTimeoutMs ?? SYNC_ATTEMPT_TIMEOUT_MS;
  let connectingSince: number | null = null;
  const beat = () => {
    if (target.live()) {
      connectingSince = null;
      target.ping();
    } else if (target.connecting()) {
      connectingSince ??= now();
      if (now() - connectingSince >= attemptTimeoutMs) {
        connectingSince = null;
        target.restartAttempt();
      }
    } else connectingSince = null;
  };
  const timer = setInterval(beat, Math.min(opts.everyMs ?? SYNC_HEARTBEAT_MS, attemptTimeoutMs));
  return () => clearInterval(timer);
}

/** The HocuspocusProviderWebsocket settings that go with the heartbeat. */
export const SYNC_SOCKET_OPTIONS = {
  messageReconnectTimeout: SYNC_DEAD_AFTER_MS,
  delay: 500,
  minDelay: 500,
  maxDelay: SYNC_MAX_RECONNECT_DELAY_MS,
} as const;
