/**
 * The dashboards of the current app (most recently changed first): open one, change its name or
 * window, delete it, as the role allows (owner variants on the dashboards the user created).
 */
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Group, Paper, Table, Text } from '@mantine/core';
import { IconLayoutDashboard, IconPencil, IconTrash } from '@tabler/icons-react';
import type { DashboardSummary } from '@gd/shared/schemas/dashboards';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import type { QueryResult } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { GatedIcon } from '../../ui/Gated.tsx';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { NAME_CELL_STYLE, NameLink } from '../../ui/NameLink.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { DashboardDialog } from './DashboardDialog.tsx';

export const dashboardHref = (id: string) => `?${new URLSearchParams({ dashboard: id }).toString()}`;


/** Short columns keep to one line; the name takes what is left and wraps. */
const NOWRAP = { whiteSpace: 'nowrap' } as const;
export function DashboardList({ appId, list, newAction }: { appId: string; list: QueryResult<{ dashboards: DashboardSummary[] }>; newAction: ReactNode }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'delete'; dashboard: DashboardSummary } | null>(null);
  const waiting = useDelayedFlag(!list.data && list.state === 'loading');

  if (list.state === 'error' && !list.data) return <ErrorBlock error={list.error} onRetry={list.refetch} />;
  if (!list.data) return waiting ? <ListSkeleton rows={4} /> : null;
  const dashboards = list.data.dashboards;
  if (dashboards.length === 0) {
    return (
      <Paper withBorder>
        <EmptyBlock icon={<IconLayoutDashboard size={28} />} title={t('dashboards.emptyTitle')} description={t('dashboards.emptyBody')} action={newAction} />
      </Paper>
    );
  }
  const params = (d: DashboardSummary) => ({ appId, dashboardId: d.id });
  return (
    <>
      <Paper withBorder>
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('nav.dashboards')} highlightOnHover verticalSpacing="sm" data-testid="dashboard-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dashboards.col.name')}</Table.Th>
                <Table.Th w={150} style={NOWRAP}>{t('dashboards.col.window')}</Table.Th>
                <Table.Th w={200} style={NOWRAP}>{t('dashboards.col.owner')}</Table.Th>
                <Table.Th w={200} style={NOWRAP}>{t('dashboards.col.updated')}</Table.Th>
                <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {dashboards.map((d) => {
                const ctx = { ownerId: d.createdBy };
                return (
                  <Table.Tr key={d.id} data-testid="dashboard-row" style={{ cursor: 'pointer' }} onClick={() => void navigate(dashboardHref(d.id))}>
                    <Table.Td style={NAME_CELL_STYLE}>
                      <NameLink to={dashboardHref(d.id)} name={d.name} label={t('dashboards.open', { name: d.name })} />
                    </Table.Td>
                    <Table.Td style={NOWRAP}><Text size="sm">{t(`dashboards.window.${d.window}`)}</Text></Table.Td>
                    <Table.Td style={NOWRAP}><Text size="sm">{d.createdByName ?? t('dashboards.unknownOwner')}</Text></Table.Td>
                    <Table.Td style={NOWRAP}><Text size="sm">{formatDateTime(d.updatedAt, lang)}</Text></Table.Td>
                    <Table.Td onClick={(e) => e.stopPropagation()}>
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        <GatedIcon allowed={can('ui:dashboards.edit', ctx)} label={t('common.edit')} onClick={() => setDialog({ kind: 'edit', dashboard: d })}>
                          <IconPencil size={16} />
                        </GatedIcon>
                        <GatedIcon allowed={can('ui:dashboards.delete', ctx)} label={t('common.delete')} color="red" onClick={() => setDialog({ kind: 'delete', dashboard: d })}>
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
      {dialog?.kind === 'edit' && (
        <DashboardDialog
          dashboard={dialog.dashboard}
          onClose={() => setDialog(null)}
          onSubmit={async (values) => {
            await api.call('updateDashboard', { params: params(dialog.dashboard), body: values });
            notifySuccess(t('dashboards.saved'));
            setDialog(null);
            list.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('dashboards.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('dashboards.deleteBody', { name: dialog.dashboard.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteDashboard', { params: params(dialog.dashboard) });
          notifySuccess(t('dashboards.deleted'));
          list.refetch();
        }}
      />
    </>
  );
}
