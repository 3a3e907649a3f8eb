/**
 * What an open collaborative document tells the screens (collabSession.ts keeps it, useCollabDoc
 * hands it to React): the document, its connection, the person's access, the sync status and the
 * events an editor shows a notice for.
 */
import type { HocuspocusProvider } from '@hocuspocus/provider';
import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import type { SyncStatus } from './status.ts';

export type DocAccess = 'read' | 'write';

export type CollabError =
  /** The API or the sync server says this user may not open the document (or it is gone). */
  | { kind: 'refused'; reason: string }
  /** The server refused our updates again right after a reload: stop instead of looping. */
  | { kind: 'rejected_again'; reason: string };

export interface CollabState {
  doc: Y.Doc;
  provider: HocuspocusProvider | null;
  awareness: Awareness | null;
  /** From the server once authenticated, else the API's token answer, else the last one remembered. */
  access: DocAccess | null;
  status: SyncStatus;
  /** Local changes the server has not confirmed yet (always 0 when read-only). */
  unsynced: number;
  error: CollabError | null;
  /** The document holds content (initialised by the server, now or in the browser copy). */
  ready: boolean;
  /** The document was written by a newer version of the app: read-only until the page reloads. */
  tooNew: boolean;
  /** How many times the browser copy was dropped and reloaded after the server refused an update. */
  resets: number;
  /** How many times the server closed the connection because this person's rights changed (reopened with the new ones). */
  accessChanges: number;
  /** How many times the server said the document's summary changed elsewhere (a launch): fetch it again. */
  summaryChanges: number;
}
