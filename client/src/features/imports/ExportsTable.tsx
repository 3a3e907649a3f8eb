/**
 * The app's audience exports with their status (polled while one is processing), rows written
 * against the audience's count, size, and download and delete actions.
 */
import { useState } from 'react';
import { Anchor, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconFileExport, IconTrash } from '@tabler/icons-react';
import type { AudienceExport } from '@gd/shared/schemas/imports';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { CreatedCell } from '../../ui/CreatedCell.tsx';
import { formatBytes } from './progress.ts';
import { exportDownloadUrl } from '../../entities/export/downloadUrl.ts';
import { ExportStatusBadge } from '../../entities/export/ExportStatusBadge.tsx';
import { usePolling } from '../../state/usePolling.ts';

export function ExportsTable({ appId }: { appId: string }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canView = can('ui:audience.view');
  const exports = useApiQuery('listAudienceExports', { params: { appId }, scope: 'app', enabled: canView });
  const [deleting, setDeleting] = useState<AudienceExport | null>(null);
  usePolling(exports.refetch, exports.data?.exports.some((e) => e.status === 'processing') ? 1_000 : null, exports.state === 'loading');

  return (
    <Stack gap="sm" mt="xl">
      <div>
        <Title order={2} fz={18}>{t('exports.title')}</Title>
        <Text size="sm" c="dimmed">{t('exports.description')}</Text>
      </div>
      {!canView ? (
        <NoViewBlock description={t('exports.noView')} />
      ) : (
        <DataState query={exports} rows={3}>
          {({ exports: list }) => (
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconFileExport size={28} />} title={t('exports.emptyTitle')} description={t('exports.emptyBody')} />}
              label={t('exports.listLabel')}
              minWidth={820}
              head={
                <>
                  <Table.Th>{t('exports.columns.audience')}</Table.Th>
                  <Table.Th>{t('exports.columns.format')}</Table.Th>
                  <Table.Th>{t('exports.columns.status')}</Table.Th>
                  <Table.Th ta="right">{t('exports.columns.rows')}</Table.Th>
                  <Table.Th ta="right">{t('exports.columns.size')}</Table.Th>
                  <Table.Th>{t('exports.columns.created')}</Table.Th>
                  <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((item) => (
                <ExportRow key={item.id} appId={appId} item={item} canDelete={can('ui:audience.edit', { ownerId: item.createdBy })} onDelete={() => setDeleting(item)} />
              ))}
            </ListTable>
          )}
        </DataState>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('exports.deleteTitle')}
        message={deleting ? t('exports.deleteBody', { name: deleting.fileName ?? deleting.audienceName }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.call('deleteAudienceExport', { params: { appId, exportId: deleting.id } });
          notifySuccess(t('exports.deleted'));
          setDeleting(null);
          exports.refetch();
        }}
      />
    </Stack>
  );
}

function ExportRow({ appId, item, canDelete, onDelete }: { appId: string; item: AudienceExport; canDelete: boolean; onDelete: () => void }) {
  const { t, lang } = useT();
  const n = (v: number) => v.toLocaleString(lang);
  const hasFile = item.status === 'ready' || item.status === 'warning';
  return (
    <Table.Tr data-testid="export-row">
      <Table.Td maw={280}>
        <Text size="sm" fw={600} truncate="end">{item.audienceName}</Text>
        {item.fileName && <Text size="xs" c="dimmed" truncate="end">{item.fileName}</Text>}
      </Table.Td>
      <Table.Td><Badge variant="outline" color="gray" radius="sm">{item.format.toUpperCase()}</Badge></Table.Td>
      <Table.Td><ExportStatusBadge item={item} /></Table.Td>
      <Table.Td ta="right">
        <Text size="sm" className="gd-num" c={item.status === 'warning' ? 'yellow.8' : undefined}>
          {item.rowCount === null ? '—' : item.expectedCount !== null && item.expectedCount !== item.rowCount
            ? t('exports.rowsOf', { rows: n(item.rowCount), expected: n(item.expectedCount) }) : n(item.rowCount)}
        </Text>
      </Table.Td>
      <Table.Td ta="right"><Text size="sm" className="gd-num">{item.byteSize === null ? '—' : formatBytes(item.byteSize, lang)}</Text></Table.Td>
      <CreatedCell at={item.createdAt} by={item.createdByName} />
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {hasFile ? (
            <Anchor href={exportDownloadUrl(appId, item.id)} download aria-label={t('exports.download')} title={t('exports.download')} data-testid="export-download" display="inline-flex" p={6}>
              <IconDownload size={16} />
            </Anchor>
          ) : null}
          <GatedIcon allowed={canDelete} label={t('imports.delete')} color="red" onClick={onDelete}><IconTrash size={16} /></GatedIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
