/**
 * /acquisition/trackers: the app's in-app event trackers. Each sends an event of a person a
 * provider's campaign brought to that provider's event postback (features/postbacks on the API).
 * The screen's route key shows them; the apptracker keys create, edit and delete. A provider
 * member sees only their provider's (the API's rule).
 */
import { useState } from 'react';
import { Badge, Code, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTargetArrow } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Tracker } from '@gd/shared/schemas/postbacks';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { TrackerDialog } from './TrackerDialog.tsx';

/** A badge keeps its whole word when the table is narrow: the long columns give way instead. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; tracker: Tracker } | null;

export default function TrackersPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.trackers')} descriptionNoApp={t('trackers.descriptionNoApp')}>{(app) => <Trackers app={app} />}</AppScreen>;
}

function Trackers({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('route:/acquisition/trackers');
  const canCreate = can('ui:apptracker.create');
  const canEdit = can('ui:apptracker.edit');
  const canDelete = can('ui:apptracker.delete');
  const trackers = useApiQuery('trackers', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const providers = trackers.data?.providers ?? [];

  const addButton = (
    <GatedButton allowed={canCreate && providers.length > 0} reason={providers.length === 0 ? t('trackers.noProviders') : undefined}
      leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="tracker-add">
      {t('trackers.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.trackers')} description={t('trackers.description', { app: app.name })} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('trackers.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <DataState query={trackers}>
        {({ trackers: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconTargetArrow size={28} />} title={t('trackers.emptyTitle')} description={providers.length ? t('trackers.emptyBody') : t('trackers.noProviders')} action={addButton} />}
            label={t('nav.trackers')}
            minWidth={760}
            head={
              <>
                <Table.Th>{t('trackers.fields.name')}</Table.Th>
                <Table.Th>{t('trackers.fields.provider')}</Table.Th>
                <Table.Th>{t('trackers.fields.postbackUrl')}</Table.Th>
                <Table.Th>{t('trackers.fields.status')}</Table.Th>
                <Table.Th ta="right">{t('trackers.fields.postbacks')}</Table.Th>
                <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((tracker) => (
              <Table.Tr key={tracker.id} data-testid="tracker-row">
                <Table.Td maw={240}>
                  <Text size="sm" fw={500} truncate="end">{tracker.name}</Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    <Code fz="xs">{tracker.event}</Code>{tracker.providerEvent ? ` → ${tracker.providerEvent}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td maw={180}>
                  <Text size="sm" truncate="end">{tracker.providerName}</Text>
                  <Text size="xs" c="dimmed" truncate="end">{tracker.campaignName ?? t('trackers.anyCampaign')}</Text>
                </Table.Td>
                <Table.Td maw={240}>
                  {tracker.effectiveUrl ? (
                    <Stack gap={2}>
                      <Tooltip label={tracker.effectiveUrl} multiline maw={480} openDelay={300}>
                        <Text size="xs" ff="monospace" truncate="end">{tracker.effectiveUrl}</Text>
                      </Tooltip>
                      <Text size="xs" c="dimmed">{tracker.postbackUrl ? t('trackers.ownUrl') : t('trackers.providerUrl')}</Text>
                    </Stack>
                  ) : <Text size="xs" c="red">{t('trackers.noUrl')}</Text>}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={tracker.active ? 'teal' : 'gray'} tt="none" style={WHOLE}>{tracker.active ? t('trackers.active') : t('trackers.paused')}</Badge>
                </Table.Td>
                <Table.Td ta="right">
                  <Tooltip label={t('trackers.calls', { sent: tracker.sent.toLocaleString(lang), failed: tracker.failed.toLocaleString(lang), pending: tracker.pending.toLocaleString(lang) })} openDelay={300}>
                    <Stack gap={0} align="flex-end">
                      <Text size="sm" fw={500} className="gd-num" data-testid="tracker-sent">{tracker.sent.toLocaleString(lang)}</Text>
                      {(tracker.failed > 0 || tracker.pending > 0) && (
                        <Text size="xs" className="gd-num" style={{ whiteSpace: 'nowrap' }}>
                          {tracker.failed > 0 && <Text span size="xs" c="red">{t('trackers.failedCount', { count: tracker.failed.toLocaleString(lang) })}</Text>}
                          {tracker.failed > 0 && tracker.pending > 0 && ' · '}
                          {tracker.pending > 0 && <Text span size="xs" c="dimmed">{t('trackers.pendingCount', { count: tracker.pending.toLocaleString(lang) })}</Text>}
                        </Text>
                      )}
                    </Stack>
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', tracker }) }}
                    remove={{ allowed: canDelete, onClick: () => setDialog({ kind: 'delete', tracker }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <TrackerDialog
          appId={app.id}
          tracker={dialog.kind === 'edit' ? dialog.tracker : undefined}
          providers={providers}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('trackers.created') : t('common.saved'));
            setDialog(null);
            trackers.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('trackers.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('trackers.deleteBody', { name: dialog.tracker.name, event: dialog.tracker.event, provider: dialog.tracker.providerName }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteTracker', { params: { appId: app.id, trackerId: dialog.tracker.id } });
          notifySuccess(t('trackers.deleted'));
          trackers.refetch();
        }}
      />
    </>
  );
}
