/**
 * A writer's browser copy that the server refused is kept before it is dropped (collabSession.ts,
 * localStore `recoveries`). This notice offers the newest kept copy to the person: "Restore my
 * version" writes that version's content on top of the current document as one of their own edits
 * (the kind's `restore`: the journey or segment read from the kept state, normalized, written as a
 * diff; undo takes it back; what the server refused, such as an unknown root, is not read and so
 * not written), "Discard" forgets it. Restoring or discarding removes that copy; older ones are
 * offered next. A kept copy whose restore would change nothing (everything of it reached the server
 * before the refusal: queued offline edits are sent one by one) is forgotten without a word.
 * Read-only people are shown nothing (they have nothing to restore into).
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconLifebuoy } from '@tabler/icons-react';
import type * as Y from 'yjs';
import { wouldRestore } from '@gd/shared/docs/restore';
import { useCallback, useEffect, useState } from 'react';
import { useT } from '../i18n/useT.ts';
import { formatDateTime } from '../ui/format.ts';
import { useSession } from '../session/store.ts';
import { forgetRecovery, recoveries, type RecoveryRecord } from './localStore.ts';
import { LOCAL_ORIGIN } from './origins.ts';

/**
 * The kept copies of `docName` that would change the document, newest first; read again after each
 * reload (`resets`) once the document is in step with the server (`online`).
 */
export function useRecoveries(docName: string, resets: number, online: boolean, changes: (state: Uint8Array) => boolean) {
  const userId = useSession((s) => s.meta?.user.id ?? null);
  const [kept, setKept] = useState<RecoveryRecord[]>([]);
  // The reload these copies answer: until they are read for it, nothing is said about it.
  const [readFor, setReadFor] = useState(-1);
  useEffect(() => {
    if (!userId || !online) return;
    let live = true;
    void recoveries(userId, docName).then(async (found) => {
      const useful = found.filter((r) => changes(r.state));
      for (const r of found) if (!useful.includes(r) && r.id !== undefined) await forgetRecovery(r.id);
      if (!live) return;
      setKept(useful);
      setReadFor(resets);
    });
    return () => {
      live = false;
    };
  }, [userId, docName, resets, online, changes]);
  const forget = useCallback(async (id: number | undefined) => {
    setKept((current) => current.filter((r) => r.id !== id));
    if (id !== undefined) await forgetRecovery(id);
  }, []);
  return { kept, forget, read: readFor === resets };
}

interface Props {
  kept: readonly RecoveryRecord[];
  readOnly: boolean;
  /** Writes the kept state's content into the open document; false when there was nothing to write. */
  restore: (state: Uint8Array) => boolean;
  forget: (id: number | undefined) => Promise<void>;
}

export function RecoveryNotice({ kept, readOnly, restore, forget }: Props) {
  const { t, lang } = useT();
  const newest = kept[0];
  if (!newest || readOnly) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconLifebuoy size={16} />} py="xs" title={t('journeys.sync.recoveryTitle')} data-testid="recovery-notice">
      <Stack gap={6}>
        <Text size="sm">
          {t('journeys.sync.recovery', { time: formatDateTime(new Date(newest.savedAt).toISOString(), lang) })}
          {kept.length > 1 ? ` ${t('journeys.sync.recoveryMore', { count: kept.length - 1 })}` : ''}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            color="orange"
            data-testid="recovery-restore"
            onClick={() => {
              restore(newest.state);
              void forget(newest.id);
            }}
          >
            {t('journeys.sync.recoveryRestore')}
          </Button>
          <Button size="xs" variant="default" data-testid="recovery-discard" onClick={() => void forget(newest.id)}>
            {t('journeys.sync.recoveryDiscard')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

interface ReloadProps {
  docName: string;
  /** The open document: its doc, how many times it was reloaded, its sync status. */
  collab: { doc: Y.Doc | null; resets: number; status: string };
  readOnly: boolean;
  /** The kind's restore (shared/src/docs/restore.ts). */
  restoreInto: (doc: Y.Doc, kept: Uint8Array, origin?: unknown) => boolean;
  /** What to say after a reload when no kept copy is offered (a viewer's, or one already handled). */
  reloaded: string;
}

/** After a reload from the server: the kept copy to restore, else a plain "reloaded" notice. */
export function ReloadNotices({ docName, collab, readOnly, restoreInto, reloaded }: ReloadProps) {
  const { doc, resets } = collab;
  const online = collab.status === 'online';
  const [seen, setSeen] = useState(0);
  const restore = useCallback((state: Uint8Array) => doc !== null && restoreInto(doc, state, LOCAL_ORIGIN), [doc, restoreInto]);
  const changes = useCallback((state: Uint8Array) => doc !== null && wouldRestore(restoreInto, doc, state), [doc, restoreInto]);
  const { kept, forget, read } = useRecoveries(docName, resets, online, changes);
  const handled = useCallback(
    (id: number | undefined) => {
      // Acting on the kept copy answers the reload too.
      setSeen(resets);
      return forget(id);
    },
    [resets, forget],
  );
  return (
    <>
      <RecoveryNotice kept={kept} readOnly={readOnly} restore={restore} forget={handled} />
      {resets > seen && ((read && kept.length === 0) || readOnly) && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={16} />} py="xs" withCloseButton onClose={() => setSeen(resets)} data-testid="reloaded-notice">
          {reloaded}
        </Alert>
      )}
    </>
  );
}
