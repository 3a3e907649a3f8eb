/** Document tokens: the API issues them, the sync server verifies them (same signing secret). */
import { z } from 'zod';

export const DOC_TOKEN_TTL_SECONDS = 300;
export const DOC_TOKEN_ISSUER = 'growthdeck-api';

export const DocTokenRequest = z.object({ name: z.string().min(1).max(300) });
export type DocTokenRequest = z.infer<typeof DocTokenRequest>;

/**
 * JWT claims (HS256): `typ` 'doc' for a user, 'service' for the API itself reading a live document
 * (launch); `doc` must equal the document name the connection opens.
 */
export const DocTokenClaims = z.object({
  typ: z.enum(['doc', 'service']),
  sub: z.string(),
  acc: z.string(),
  doc: z.string(),
  access: z.enum(['read', 'write']),
});
export type DocTokenClaims = z.infer<typeof DocTokenClaims>;

/**
 * The sync server closes a connection whose update it refuses (malformed, too large, unknown root)
 * with this code and a reason starting with this prefix. The client then drops its local copy of
 * that document (it diverged) and reloads it from the server.
 */
export const UPDATE_REJECTED_CODE = 4422;
export const UPDATE_REJECTED_PREFIX = 'update-rejected:';

/**
 * The sync server closes a connection whose user's rights changed while it was open (a role lost
 * edit rights, the user was deactivated or removed, the app now forbids the kind) with this code and
 * a reason starting with this prefix. The client keeps its copy and reopens the document with a
 * fresh token, which carries the new rights (or is refused).
 */
export const ACCESS_CHANGED_CODE = 4403;
export const ACCESS_CHANGED_PREFIX = 'access-changed:';

/**
 * Heartbeat. A connection can die without a close (packets dropped on a flaky network): the client
 * sends SYNC_PING as a stateless message every SYNC_HEARTBEAT_MS while connected, the server answers
 * SYNC_PONG, and the client's provider closes and reconnects when nothing arrived for
 * SYNC_DEAD_AFTER_MS. A dead connection is then noticed within 10 seconds (the provider checks
 * every tenth of that time, and forces the close on its third try). A connection attempt that hangs
 * (the network still gone) is abandoned after SYNC_ATTEMPT_TIMEOUT_MS, so a network that returns is
 * used within seconds (shared/src/docs/heartbeat.ts).
 */
/**
 * Sent by the API (a service connection) and broadcast by the sync server to every open editor of a
 * document when the entity's summary changed outside the document (a journey launched or stopped):
 * editors fetch the summary again, so "Live", "edited since launch" and Launch follow at once.
 */
export const DOC_SUMMARY_CHANGED = 'gd:summary-changed';

export const SYNC_PING = 'gd:ping';
export const SYNC_PONG = 'gd:pong';
export const SYNC_HEARTBEAT_MS = 2_000;
export const SYNC_DEAD_AFTER_MS = 5_000;
/** Reconnect attempts back off up to this, so a network that returns is used within seconds. */
export const SYNC_MAX_RECONNECT_DELAY_MS = 3_000;
export const SYNC_ATTEMPT_TIMEOUT_MS = 3_000;
