/**
 * The right side of a collaborative editor's header, shared by the journey and segment editors:
 * who is here, the sync status, and per-person undo/redo (hidden when read-only).
 */
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp } from '@tabler/icons-react';
import { PresenceAvatars, type Follow } from './PresenceAvatars.tsx';
import { SyncStatusBadge } from './SyncStatusBadge.tsx';
import type { Peer } from './presence.ts';
import type { SyncStatus } from './status.ts';
import type { Undo } from './useUndo.ts';

export interface UndoLabels { undo: string; undoHint: string; redo: string; redoHint: string }

export function CollabStatus({ peers, status, unsynced, readOnly, undo, labels, follow }: {
  peers: Peer[]; status: SyncStatus; unsynced: number; readOnly: boolean; undo: Undo; labels: UndoLabels; follow?: Follow | undefined;
}) {
  return (
    <>
      <PresenceAvatars peers={peers} follow={follow} />
      <SyncStatusBadge status={status} unsynced={unsynced} readOnly={readOnly} />
      {!readOnly && (
        <Group gap={2} wrap="nowrap">
          <Tooltip label={labels.undoHint} withArrow>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={labels.undo} disabled={!undo.canUndo} onClick={undo.undo} data-testid="undo">
              <IconArrowBackUp size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={labels.redoHint} withArrow>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={labels.redo} disabled={!undo.canRedo} onClick={undo.redo} data-testid="redo">
              <IconArrowForwardUp size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      )}
    </>
  );
}
