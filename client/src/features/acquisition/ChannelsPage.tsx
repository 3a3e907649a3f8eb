/**
 * /acquisition/apptracker/channels: the channels that group the app's campaigns, with how many
 * campaigns each has; create, rename, delete (its campaigns stay, without a channel).
 */
import { useState } from 'react';
import { Button, Table, Text } from '@mantine/core';
import { IconArrowLeft, IconLayersLinked, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Channel } from '@gd/shared/schemas/acquisition';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; channel: Channel } | null;

export default function ChannelsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.apptrackerChannels')} descriptionNoApp={t('acquisition.channels.descriptionNoApp')}>{(app) => <Channels app={app} />}</AppScreen>;
}

function Channels({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('ui:apptracker.view');
  const channels = useApiQuery('channels', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const addButton = (
    <GatedButton allowed={can('ui:apptracker.create')} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="channel-add">
      {t('acquisition.channels.add')}
    </GatedButton>
  );
  const header = (
    <PageHeader
      title={t('nav.apptrackerChannels')}
      description={t('acquisition.channels.description', { app: app.name })}
      actions={
        <>
          <Button component={Link} to="/acquisition/apptracker" variant="default" leftSection={<IconArrowLeft size={16} />}>{t('acquisition.channels.back')}</Button>
          {canView && addButton}
        </>
      }
    />
  );
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('acquisition.channels.noView')} />
      </>
    );
  }
  return (
    <>
      {header}
      <DataState query={channels}>
        {({ channels: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconLayersLinked size={28} />} title={t('acquisition.channels.emptyTitle')} description={t('acquisition.channels.emptyBody')} action={addButton} />}
            label={t('nav.apptrackerChannels')}
            minWidth={560}
            head={
              <>
                <Table.Th>{t('fields.name')}</Table.Th>
                <Table.Th ta="right">{t('acquisition.channels.campaigns')}</Table.Th>
                <Table.Th>{t('acquisition.channels.createdAt')}</Table.Th>
                <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((c) => (
              <Table.Tr key={c.id} data-testid="channel-row">
                <Table.Td><Text size="sm" fw={600}>{c.name}</Text></Table.Td>
                <Table.Td ta="right" className="gd-num">{c.campaigns}</Table.Td>
                <Table.Td><Text size="sm" c="dimmed">{formatDate(c.createdAt, lang)}</Text></Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    edit={{ allowed: can('ui:apptracker.edit'), onClick: () => setDialog({ kind: 'edit', channel: c }) }}
                    remove={{ allowed: can('ui:apptracker.delete'), onClick: () => setDialog({ kind: 'delete', channel: c }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <NameDialog
          title={dialog.kind === 'add' ? t('acquisition.channels.addTitle') : t('acquisition.channels.renameTitle')}
          submitLabel={dialog.kind === 'add' ? t('acquisition.channels.add') : t('common.save')}
          initialName={dialog.kind === 'edit' ? dialog.channel.name : ''}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            if (dialog.kind === 'edit') await api.call('updateChannel', { params: { appId: app.id, channelId: dialog.channel.id }, body: { name } });
            else await api.call('createChannel', { params: { appId: app.id }, body: { name } });
            notifySuccess(dialog.kind === 'add' ? t('acquisition.channels.created') : t('common.saved'));
            setDialog(null);
            channels.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('acquisition.channels.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('acquisition.channels.deleteBody', { name: dialog.channel.name, count: dialog.channel.campaigns }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteChannel', { params: { appId: app.id, channelId: dialog.channel.id } });
          notifySuccess(t('acquisition.channels.deleted'));
          channels.refetch();
        }}
      />
    </>
  );
}
