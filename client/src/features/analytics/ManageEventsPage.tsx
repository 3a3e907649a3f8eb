/**
 * /manage/events: the event catalogue of the current app. Custom events get a label, a
 * conversion type, breakdown properties (explore breaks them down from a rollup) and a hidden flag
 * (api:events.edit; read-only otherwise); built-in events are
 * listed with their label in the interface language and cannot be edited.
 */
import { useState } from 'react';
import { Alert, Badge, Group, Stack, Table, Tabs, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconLock, IconSearch, IconTags } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { EventDefinition, EventDefinitionUpdate } from '@gd/shared/schemas/behaviour';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { CustomEventRow } from './CustomEventRow.tsx';
import { eventLabel } from './labels.ts';

export default function ManageEventsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.manageEvents')} descriptionNoApp={t('manageEventsScreen.descriptionNoApp')}>{(app) => <Catalogue app={app} />}</AppScreen>;
}

const matches = (needle: string, ...texts: (string | null)[]) => !needle || texts.some((s) => s?.toLowerCase().includes(needle));

function Catalogue({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canEdit = can('api:events.edit');
  const catalogue = useApiQuery('listEventDefinitions', { params: { appId: app.id }, scope: 'app' });
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();

  const save = async (definition: EventDefinition, change: EventDefinitionUpdate): Promise<boolean> => {
    try {
      await api.call('updateEventDefinition', { params: { appId: app.id, eventName: definition.name }, body: change });
      notifySuccess(t('manageEventsScreen.saved', { event: definition.name }));
      catalogue.refetch();
      return true;
    } catch (error) {
      notifyError(t, error);
      return false;
    }
  };

  return (
    <>
      <PageHeader title={t('nav.manageEvents')} description={t('manageEventsScreen.description', { app: app.name })} />
      <DataState query={catalogue} rows={6}>
        {({ custom, builtIn }) => {
          const customRows = custom.filter((d) => matches(needle, d.name, d.label));
          const builtInRows = builtIn.filter((d) => matches(needle, d.name, eventLabel(t, d.name)));
          return (
            <Tabs defaultValue="custom" keepMounted={false}>
              <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
                <Tabs.List>
                  <Tabs.Tab value="custom" rightSection={<Badge size="sm" variant="light" color="gray">{custom.length}</Badge>}>
                    {t('manageEventsScreen.custom')}
                  </Tabs.Tab>
                  <Tabs.Tab value="builtIn" rightSection={<Badge size="sm" variant="light" color="gray">{builtIn.length}</Badge>}>
                    {t('manageEventsScreen.builtIn')}
                  </Tabs.Tab>
                </Tabs.List>
                <TextInput w={260} leftSection={<IconSearch size={16} />} placeholder={t('manageEventsScreen.search')} aria-label={t('manageEventsScreen.search')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
              </Group>
              <Tabs.Panel value="custom">
                <Stack gap="sm">
                  {!canEdit && (
                    <Alert variant="light" color="gray" icon={<IconLock size={16} />} p="xs">
                      {t('manageEventsScreen.readOnly')}
                    </Alert>
                  )}
                  <ListTable
                    isEmpty={customRows.length === 0}
                    empty={custom.length === 0
                      ? <EmptyBlock icon={<IconTags size={28} />} title={t('manageEventsScreen.emptyTitle')} description={t('manageEventsScreen.emptyBody')} />
                      : <EmptyBlock icon={<IconSearch size={28} />} title={t('common.nothingFound')} />}
                    label={t('manageEventsScreen.custom')}
                    minWidth={960}
                    head={
                      <>
                        <Table.Th w="18%">{t('manageEventsScreen.name')}</Table.Th>
                        <Table.Th w="20%">{t('manageEventsScreen.label')}</Table.Th>
                        <Table.Th w="17%">{t('manageEventsScreen.conversionType')}</Table.Th>
                        <Table.Th w="21%">{t('manageEventsScreen.breakdowns')}</Table.Th>
                        <Table.Th w="8%">{t('manageEventsScreen.hidden')}</Table.Th>
                        <Table.Th>{t('manageEventsScreen.firstSeen')}</Table.Th>
                      </>
                    }
                  >
                    {customRows.map((d) => <CustomEventRow key={d.name} appId={app.id} definition={d} canEdit={canEdit} onSave={(change) => save(d, change)} onBreakdownsSaved={catalogue.refetch} />)}
                  </ListTable>
                </Stack>
              </Tabs.Panel>
              <Tabs.Panel value="builtIn">
                <Stack gap="sm">
                  <Alert variant="light" color="blue" icon={<IconInfoCircle size={16} />} p="xs">
                    {t('manageEventsScreen.builtInNote')}
                  </Alert>
                  <ListTable
                    isEmpty={builtInRows.length === 0}
                    empty={<EmptyBlock icon={<IconSearch size={28} />} title={t('common.nothingFound')} />}
                    label={t('manageEventsScreen.builtIn')}
                    minWidth={600}
                    head={
                      <>
                        <Table.Th w="35%">{t('manageEventsScreen.name')}</Table.Th>
                        <Table.Th>{t('manageEventsScreen.label')}</Table.Th>
                      </>
                    }
                  >
                    {builtInRows.map((d) => (
                      <Table.Tr key={d.name} data-testid="builtin-event-row">
                        <Table.Td>
                          <Text size="sm" ff="monospace">{d.name}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs">
                            <Text size="sm">{eventLabel(t, d.name)}</Text>
                            <Badge size="xs" variant="light" color="gray">{t('analytics.builtIn')}</Badge>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </ListTable>
                </Stack>
              </Tabs.Panel>
            </Tabs>
          );
        }}
      </DataState>
    </>
  );
}
