/**
 * The segments of the current app (most recently changed first): open one to edit it with the
 * team, clone or delete it as the role allows (owner variants on segments the user created).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Group, Paper, Table, Text } from '@mantine/core';
import { IconCopy, IconFilter, IconTrash } from '@tabler/icons-react';
import type { SegmentSummary } from '@gd/shared/schemas/segments';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { GatedIcon } from '../../ui/Gated.tsx';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { NAME_CELL_STYLE, NameLink } from '../../ui/NameLink.tsx';
import { NAME_MAX } from '@gd/shared/schemas/common';

export const segmentHref = (id: string) => `?${new URLSearchParams({ segment: id }).toString()}`;

export function SegmentList({ newAction }: { newAction: React.ReactNode }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const list = useApiQuery('listSegments', { params: { appId }, scope: 'app', enabled: appId !== '' });
  const [dialog, setDialog] = useState<{ kind: 'clone' | 'delete'; segment: SegmentSummary } | null>(null);

  if (list.state === 'error' && !list.data) return <ErrorBlock error={list.error} onRetry={list.refetch} />;
  if (!list.data) return <ListSkeleton rows={4} />;
  const segments = list.data.segments;
  if (segments.length === 0) {
    return (
      <Paper withBorder>
        <EmptyBlock icon={<IconFilter size={28} />} title={t('segments.list.emptyTitle')} description={t('segments.list.emptyBody')} action={newAction} />
      </Paper>
    );
  }

  const params = (s: SegmentSummary) => ({ appId, segmentId: s.id });
  return (
    <>
      <Paper withBorder>
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('segments.list.title')} highlightOnHover verticalSpacing="sm" data-testid="segment-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('segments.list.col.name')}</Table.Th>
                <Table.Th w={200}>{t('segments.list.col.owner')}</Table.Th>
                <Table.Th w={200}>{t('segments.list.col.updated')}</Table.Th>
                <Table.Th w={100} ta="right">
                  {t('common.actions')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {segments.map((s) => {
                const ctx = { ownerId: s.createdBy };
                return (
                  <Table.Tr key={s.id} data-testid="segment-row" style={{ cursor: 'pointer' }} onClick={() => void navigate(segmentHref(s.id))}>
                    <Table.Td style={NAME_CELL_STYLE}>
                      <NameLink to={segmentHref(s.id)} name={s.name} label={t('segments.list.open', { name: s.name })} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{s.createdByName ?? t('segments.list.unknownOwner')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(s.updatedAt, lang)}</Text>
                    </Table.Td>
                    <Table.Td onClick={(e) => e.stopPropagation()}>
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        <GatedIcon
                          allowed={can({ and: ['ui:segment.modify', 'ui:audience.create', 'ui:audience.clone'] }, ctx)}
                          label={t('segments.list.clone')}
                          onClick={() => setDialog({ kind: 'clone', segment: s })}
                        >
                          <IconCopy size={16} />
                        </GatedIcon>
                        <GatedIcon allowed={can({ and: ['ui:segment.modify', 'ui:audience.delete'] }, ctx)} label={t('common.delete')} color="red" onClick={() => setDialog({ kind: 'delete', segment: s })}>
                          <IconTrash size={16} />
                        </GatedIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      {dialog?.kind === 'clone' && (
        <NameDialog
          title={t('segments.list.cloneTitle', { name: dialog.segment.name })}
          submitLabel={t('segments.list.clone')}
          initialName={t('segments.list.cloneName', { name: dialog.segment.name }).slice(0, NAME_MAX)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { segment } = await api.call('cloneSegment', { params: params(dialog.segment), body: { name } });
            notifySuccess(t('segments.list.cloned', { name: segment.name }));
            setDialog(null);
            list.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('segments.list.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('segments.list.deleteBody', { name: dialog.segment.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteSegment', { params: params(dialog.segment) });
          notifySuccess(t('segments.list.deleted'));
          list.refetch();
        }}
      />
    </>
  );
}
