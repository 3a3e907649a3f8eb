/**
 * The notices every collaborative editor shows above its content, about the document itself: a
 * document written by a newer version of the app (read-only until a reload), rights that changed
 * while it was open, and a reload from the server (with the person's kept copy to restore).
 */
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type * as Y from 'yjs';
import { AccessChangedNotice } from './AccessChangedNotice.tsx';
import type { DocAccess } from './collabState.ts';
import { ReloadNotices } from './RecoveryNotice.tsx';

interface Props {
  docName: string;
  collab: { doc: Y.Doc | null; resets: number; status: string; tooNew: boolean; accessChanges: number; access: DocAccess | null };
  readOnly: boolean;
  /** The kind's restore of a kept copy (shared/src/docs/restore.ts). */
  restoreInto: (doc: Y.Doc, kept: Uint8Array, origin?: unknown) => boolean;
  texts: { tooNew: string; reloaded: string };
}

export function DocNotices({ docName, collab, readOnly, restoreInto, texts }: Props) {
  return (
    <>
      {collab.tooNew && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />} py="xs">
          {texts.tooNew}
        </Alert>
      )}
      <AccessChangedNotice changes={collab.accessChanges} access={collab.access} />
      <ReloadNotices docName={docName} collab={collab} readOnly={readOnly} restoreInto={restoreInto} reloaded={texts.reloaded} />
    </>
  );
}
