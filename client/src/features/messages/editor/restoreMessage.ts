/**
 * Restoring a kept copy of a message document (a writer's browser copy the server refused, see
 * sync/RecoveryNotice.tsx) into the open one, the way shared docs/restore.ts does it for journeys
 * and segments: the two merged the Yjs way in a scratch document (nobody's work meanwhile is undone),
 * and only the draft the editor reads from the merge written back, as a minimal diff.
 */
import * as Y from 'yjs';
import { applyMessageDraftToDoc, messageDraftFromDoc } from '@gd/shared/docs/messageDoc';
import { jsonEqual } from '@gd/shared/journey/json';

/** Writes the draft of `doc` merged with the kept state; false when that changes nothing. */
export function restoreMessage(doc: Y.Doc, kept: Uint8Array, origin?: unknown): boolean {
  const scratch = new Y.Doc();
  Y.applyUpdate(scratch, Y.encodeStateAsUpdate(doc));
  Y.applyUpdate(scratch, kept);
  const draft = messageDraftFromDoc(scratch);
  if (jsonEqual(messageDraftFromDoc(doc), draft)) return false;
  applyMessageDraftToDoc(doc, draft, origin);
  return true;
}
