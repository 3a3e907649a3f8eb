/**
 * Incoming updates are checked before Hocuspocus applies them with the shared `checkUpdateShape`
 * (size, decodability, the kind's roots and their contents). A rejected update closes only the
 * sender's document connection, with a distinct close code and a reason `update-rejected:<why>`;
 * nothing is applied or stored. The client should then drop its local copy and reload (its state
 * has diverged).
 */
import { MAX_UPDATE_BYTES, UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX, checkUpdateShape, type DocKind } from '@gd/shared';

export { UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX };

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
    // An expected refusal, not a bug: Hocuspocus logs this error, and a stack would only add noise.
    this.stack = `UpdateRejected: ${this.reason}`;
  }
}

/**
 * Why an update must not be applied (`too_large:…`, `empty`, `malformed`, `unknown_root:…`, …), or
 * null. Decodes without applying: a few microseconds per update.
 */
export function rejectReason(update: Uint8Array, kind: DocKind): string | null {
  try {
    return checkUpdateShape(update, kind);
  } catch {
    return 'malformed';
  }
}
