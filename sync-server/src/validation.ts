/**
 * Incoming updates are checked before Hocuspocus applies them: size, decodability and the kind's
 * top-level structures. A rejected update closes only the sender's document connection, with a
 * distinct close code and a reason starting with `update-rejected:`; nothing is applied or stored.
 * The client should then drop its local copy and reload (its state has diverged).
 */
import * as Y from 'yjs';
import type { DocKind } from '@gd/shared';
import { MAX_UPDATE_BYTES, checkUpdateShape } from './docNames.ts';

export const UPDATE_REJECTED_CODE = 4422;
export const UPDATE_REJECTED_PREFIX = 'update-rejected:';

/** Room for the document name and framing around an update in one WebSocket message. */
export const MAX_MESSAGE_BYTES = MAX_UPDATE_BYTES + 4096;
/** Frames above this are cut by `ws` itself (close 1009) before any parsing. */
export const WS_MAX_PAYLOAD = 2 * MAX_MESSAGE_BYTES;

export class UpdateRejected extends Error {
  readonly code = UPDATE_REJECTED_CODE;
  readonly reason: string;
  constructor(why: string) {
    super(`${UPDATE_REJECTED_PREFIX}${why}`);
    this.reason = `${UPDATE_REJECTED_PREFIX}${why}`;
  }
}

/** Why an update must not be applied, or null. Pure; a few microseconds per update. */
export function rejectReason(update: Uint8Array, kind: DocKind): string | null {
  if (update.byteLength > MAX_UPDATE_BYTES) return 'oversized';
  // A zero-length update makes the Yjs decoder loop (yjs #498); no client sends one.
  if (update.byteLength === 0) return 'malformed';
  try {
    Y.decodeUpdate(update);
  } catch {
    return 'malformed';
  }
  try {
    const shape = checkUpdateShape(update, kind);
    return shape === null ? null : `shape: ${shape}`;
  } catch {
    return 'malformed';
  }
}
