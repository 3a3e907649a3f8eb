/**
 * Incoming updates are checked before Hocuspocus applies them with the shared `checkUpdateShape`
 * (size, decodability, the kind's roots and their contents). A rejected update closes only the
 * sender's document connection, with a distinct close code and a reason `update-rejected:<why>`;
 * nothing is applied or stored. The client should then drop its local copy and reload (its state
 * has diverged).
 */
import { MAX_UPDATE_BYTES, UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX, checkUpdateShape, type DocKind } from '@gd/shared';
import { MAX_CATCHUP_BYTES } from '@gd/shared/docs/schema';
import * as decoding from 'lib0/decoding';

export { UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX };

/** Room for the document name and framing around an update in one WebSocket message. */
const FRAMING_BYTES = 4096;
export const MAX_MESSAGE_BYTES = MAX_UPDATE_BYTES + FRAMING_BYTES;
/** A catch-up (SyncStep2) message may carry what a whole document may hold. */
export const MAX_CATCHUP_MESSAGE_BYTES = MAX_CATCHUP_BYTES + FRAMING_BYTES;
/** Frames above this are cut by `ws` itself (close 1009) before any parsing. */
export const WS_MAX_PAYLOAD = MAX_CATCHUP_MESSAGE_BYTES + FRAMING_BYTES;

const MESSAGE_SYNC = 0;
/** y-protocols sync message types that carry an update (SyncStep1 carries a state vector). */
export const SYNC_STEP_2 = 1;
export const SYNC_UPDATE = 2;

/**
 * The size limit of one incoming message: a catch-up (Sync / SyncStep2) may be as large as a
 * document, anything else (a live update, awareness) as large as one edit.
 */
export function messageLimit(message: Uint8Array): number {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    const syncType = type === MESSAGE_SYNC ? decoding.readVarUint(decoder) : -1;
    return syncType === SYNC_STEP_2 ? MAX_CATCHUP_MESSAGE_BYTES : MAX_MESSAGE_BYTES;
  } catch {
    return MAX_MESSAGE_BYTES;
  }
}

/** The size limit of a sync payload of this y-protocols sync type (see messageLimit). */
export const updateLimit = (syncType: number): number => (syncType === SYNC_STEP_2 ? MAX_CATCHUP_BYTES : MAX_UPDATE_BYTES);

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
export function rejectReason(update: Uint8Array, kind: DocKind, limit = MAX_UPDATE_BYTES): string | null {
  try {
    return checkUpdateShape(update, kind, limit);
  } catch {
    return 'malformed';
  }
}
