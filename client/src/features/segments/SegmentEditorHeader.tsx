/**
 * The segment editor's header: back, name (renamed through a dialog when allowed), view-only badge,
 * who else is here, the sync status, undo/redo of this person's edits, and "Save as audience"
 * (enabled with at least one condition, no condition needing attention and the server reachable).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Badge, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconDeviceFloppy, IconEye, IconPencil } from '@tabler/icons-react';
import type { AudienceSummary, SegmentSummary } from '@gd/shared/schemas/segments';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { CollabStatus } from '../../sync/CollabStatus.tsx';
import type { Peer } from '../../sync/presence.ts';
import type { SyncStatus } from '../../sync/status.ts';
import type { Undo } from '../../sync/useUndo.ts';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { SaveAudienceDialog } from './SaveAudienceDialog.tsx';

export interface SegmentEditorHeaderProps {
  appId: string;
  segment: SegmentSummary | undefined;
  backHref: string;
  status: SyncStatus;
  unsynced: number;
  readOnly: boolean;
  peers: Peer[];
  undo: Undo;
  conditionCount: number;
  problemCount: number;
  refetch: () => void;
  onSaved: (audience: AudienceSummary) => void;
}

export function SegmentEditorHeader(props: SegmentEditorHeaderProps) {
  const { appId, segment, backHref, status, unsynced, readOnly, peers, undo, conditionCount, problemCount, refetch, onSaved } = props;
  const { t, lang } = useT();
  const can = usePermissions('app');
  const [dialog, setDialog] = useState<'rename' | 'save' | null>(null);
  const ctx = { ownerId: segment?.createdBy ?? null };

  let saveReason: string | undefined;
  if (!can('ui:audience.create')) saveReason = undefined;
  else if (conditionCount === 0) saveReason = t('segments.editor.saveBlockedEmpty');
  else if (problemCount > 0) saveReason = t('segments.editor.saveBlockedProblems');
  else if (status !== 'online') saveReason = t('segments.editor.saveBlockedOffline');
  const canSave = can('ui:audience.create') && saveReason === undefined && segment !== undefined;

  return (
    <Paper withBorder radius="md" px="md" py="xs">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 320px' }}>
          <Tooltip label={t('segments.editor.back')} withArrow>
            <ActionIcon component={Link} to={backHref} variant="subtle" color="gray" size="lg" aria-label={t('segments.editor.back')}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Stack gap={0} miw={0} style={{ flex: 1 }}>
            <Group gap={6} wrap="nowrap" miw={0}>
              <Title order={1} fz={20} lineClamp={1} data-testid="segment-name" title={segment?.name} style={{ minWidth: 60 }}>
                {segment?.name ?? '…'}
              </Title>
              {segment && (
                <GatedIcon allowed={can({ and: ['ui:segment.modify', 'ui:audience.edit'] }, ctx)} label={t('segments.editor.rename')} size="sm" onClick={() => setDialog('rename')}>
                  <IconPencil size={14} />
                </GatedIcon>
              )}
              {readOnly && (
                <Tooltip label={t('segments.editor.readOnlyHint')} multiline w={260} withArrow>
                  <Badge color="gray" variant="outline" tt="none" radius="sm" leftSection={<IconEye size={12} />} tabIndex={0} data-testid="read-only" style={{ flexShrink: 0 }}>
                    {t('segments.editor.readOnly')}
                  </Badge>
                </Tooltip>
              )}
            </Group>
            {segment && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {[segment.createdByName, formatDateTime(segment.updatedAt, lang)].filter(Boolean).join(' · ')}
              </Text>
            )}
          </Stack>
        </Group>

        <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
          <CollabStatus
            peers={peers} status={status} unsynced={unsynced} readOnly={readOnly} undo={undo}
            labels={{ undo: t('segments.editor.undo'), undoHint: t('segments.editor.undoHint'), redo: t('segments.editor.redo'), redoHint: t('segments.editor.redoHint') }}
          />
          <GatedButton allowed={canSave} reason={saveReason} leftSection={<IconDeviceFloppy size={16} />} onClick={() => setDialog('save')} data-testid="save-as-audience">
            {t('segments.editor.saveAsAudience')}
          </GatedButton>
        </Group>
      </Group>

      {dialog === 'rename' && segment && (
        <NameDialog
          title={t('segments.editor.rename')}
          submitLabel={t('journeys.rename')}
          initialName={segment.name}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await api.call('renameSegment', { params: { appId, segmentId: segment.id }, body: { name } });
            notifySuccess(t('segments.editor.renamed'));
            setDialog(null);
            refetch();
          }}
        />
      )}
      {dialog === 'save' && segment && (
        <SaveAudienceDialog
          appId={appId}
          segmentId={segment.id}
          initialName={segment.name}
          onClose={() => setDialog(null)}
          onSaved={(audience) => {
            setDialog(null);
            onSaved(audience);
          }}
        />
      )}
    </Paper>
  );
}
