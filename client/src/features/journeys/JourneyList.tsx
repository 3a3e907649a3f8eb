/**
 * The journeys of the current app: filters (created by me/anyone, current/all with stopped),
 * create, rename, clone and delete as the role allows (owner variants on journeys the user
 * created), and the browser's copy of the list when the server cannot be reached.
 */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Badge, Group, Paper, SegmentedControl, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconCloudOff, IconCopy, IconPencil, IconPlus, IconRoute, IconTrash } from '@tabler/icons-react';
import type { JourneySummary } from '@gd/shared/schemas/journeys';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { NAME_CELL_STYLE, NameLink } from '../../ui/NameLink.tsx';
import { NAME_MAX } from '@gd/shared/schemas/common';
import { JourneyStatusBadge, JourneyVersion } from '../../entities/journey/JourneyStatus.tsx';
import { useJourneys, type CampaignScope, type OwnershipFilter } from './useJourneys.ts';

type Dialog = { kind: 'new' } | { kind: 'rename' | 'clone' | 'delete'; journey: JourneySummary } | null;

export function JourneyList() {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const appId = useSession((s) => s.currentAppId);
  const [params, setParams] = useSearchParams();
  const seesAll = can('ui:journey.view');
  const owner: OwnershipFilter = !seesAll ? 'me' : params.get('owner') === 'me' || params.get('owner') === 'all' ? (params.get('owner') as OwnershipFilter) : can('ui:journeys.showAll') ? 'all' : 'me';
  const scope: CampaignScope = params.get('scope') === 'all' ? 'all' : 'current';
  const list = useJourneys(owner, scope);
  const [dialog, setDialog] = useState<Dialog>(null);
  const offline = list.offlineSince !== null;
  const offlineReason = t('journeys.offlineCopyHint');

  const setFilter = (key: 'owner' | 'scope', value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };
  const openHref = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('id', id);
    return `?${next.toString()}`;
  };
  const params$ = (journey: JourneySummary) => ({ appId: appId ?? '', journeyId: journey.id });

  const newButton = (
    <GatedButton
      allowed={can('ui:journey.create') && !offline}
      reason={offline ? offlineReason : undefined}
      leftSection={<IconPlus size={16} />}
      onClick={() => setDialog({ kind: 'new' })}
      data-testid="new-journey"
    >
      {t('journeys.new')}
    </GatedButton>
  );

  const filters = (
    <Group gap="lg" wrap="wrap" mb="md" justify="space-between">
      <Group gap="lg" wrap="wrap">
        {seesAll && (
          <Stack gap={4}>
            <Text size="xs" fw={600} c="dimmed" id="journeys-owner-label">
              {t('journeys.owner.label')}
            </Text>
            <SegmentedControl
              size="sm"
              aria-labelledby="journeys-owner-label"
              value={owner}
              onChange={(v) => setFilter('owner', v)}
              data={[
                { value: 'me', label: t('journeys.owner.me') },
                { value: 'all', label: t('journeys.owner.all') },
              ]}
              data-testid="owner-filter"
            />
          </Stack>
        )}
        <Stack gap={4}>
          <Text size="xs" fw={600} c="dimmed" id="journeys-scope-label">
            {t('journeys.scope.label')}
          </Text>
          <SegmentedControl
            size="sm"
            aria-labelledby="journeys-scope-label"
            value={scope}
            onChange={(v) => setFilter('scope', v)}
            data={[
              { value: 'current', label: t('journeys.scope.current') },
              { value: 'all', label: t('journeys.scope.all') },
            ]}
            data-testid="scope-filter"
          />
        </Stack>
      </Group>
      {list.offlineSince !== null && (
        <Tooltip label={offlineReason} multiline w={300} withArrow>
          <Badge color="orange" variant="light" size="lg" radius="sm" tt="none" fw={500} leftSection={<IconCloudOff size={14} />} tabIndex={0} data-testid="offline-copy">
            {t('journeys.offlineCopy', { time: formatDateTime(new Date(list.offlineSince).toISOString(), lang) })}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );

  let body;
  if (list.journeys !== undefined && list.state !== 'error') {
    const journeys = list.journeys;
    body =
      journeys.length === 0 ? (
        <Paper withBorder>
          {owner === 'me' && seesAll ? (
            <EmptyBlock icon={<IconRoute size={28} />} title={t('journeys.emptyFilteredTitle')} description={t('journeys.emptyFilteredBody')} action={newButton} />
          ) : (
            <EmptyBlock icon={<IconRoute size={28} />} title={t('journeys.emptyTitle')} description={t('journeys.emptyBody')} action={newButton} />
          )}
        </Paper>
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={860}>
            <Table aria-label={t('nav.journeys')} highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('journeys.col.name')}</Table.Th>
                  <Table.Th>{t('journeys.col.status')}</Table.Th>
                  <Table.Th>{t('journeys.col.version')}</Table.Th>
                  <Table.Th>{t('journeys.col.owner')}</Table.Th>
                  <Table.Th>{t('journeys.col.updated')}</Table.Th>
                  <Table.Th w={120} ta="right">
                    {t('common.actions')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {journeys.map((j) => {
                  const ctx = { ownerId: j.createdBy };
                  return (
                    <Table.Tr key={j.id} data-testid="journey-row" data-journey-id={j.id} style={{ cursor: 'pointer' }} onClick={() => void navigate(openHref(j.id))}>
                      <Table.Td style={NAME_CELL_STYLE}>
                        <NameLink to={openHref(j.id)} name={j.name} label={t('journeys.open', { name: j.name })} />
                      </Table.Td>
                      <Table.Td>
                        <JourneyStatusBadge status={j.status} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <JourneyVersion journey={j} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{j.createdByName ?? t('journeys.unknownOwner')}</Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{formatDateTime(j.updatedAt, lang)}</Text>
                      </Table.Td>
                      <Table.Td onClick={(e) => e.stopPropagation()}>
                        <Group gap={2} wrap="nowrap" justify="flex-end">
                          <GatedIcon allowed={can('ui:journey.edit', ctx) && !offline} reason={offline ? offlineReason : undefined} label={t('journeys.rename')} onClick={() => setDialog({ kind: 'rename', journey: j })}>
                            <IconPencil size={16} />
                          </GatedIcon>
                          <GatedIcon
                            allowed={can('ui:journey.clone', ctx) && can('ui:journey.create') && !offline}
                            reason={offline ? offlineReason : undefined}
                            label={t('journeys.clone')}
                            onClick={() => setDialog({ kind: 'clone', journey: j })}
                          >
                            <IconCopy size={16} />
                          </GatedIcon>
                          <GatedIcon allowed={can('ui:journey.delete', ctx) && !offline} reason={offline ? offlineReason : undefined} label={t('common.delete')} color="red" onClick={() => setDialog({ kind: 'delete', journey: j })}>
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
      );
  } else if (list.state === 'error') {
    body = <ErrorBlock error={list.error} onRetry={list.refetch} />;
  } else {
    body = <ListSkeleton rows={5} />;
  }

  return (
    <>
      <PageHeader title={t('nav.journeys')} description={t('journeys.description')} actions={newButton} />
      {filters}
      {body}

      {dialog?.kind === 'new' && (
        <NameDialog
          title={t('journeys.newTitle')}
          submitLabel={t('journeys.create')}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { journey } = await api.call('createJourney', { params: { appId: appId ?? '' }, body: { name } });
            notifySuccess(t('journeys.created', { name: journey.name }));
            setDialog(null);
            list.refetch();
            void navigate(openHref(journey.id));
          }}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('journeys.renameTitle')}
          submitLabel={t('journeys.rename')}
          initialName={dialog.journey.name}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await api.call('renameJourney', { params: params$(dialog.journey), body: { name } });
            notifySuccess(t('journeys.renamed'));
            setDialog(null);
            list.refetch();
          }}
        />
      )}
      {dialog?.kind === 'clone' && (
        <NameDialog
          title={t('journeys.cloneTitle', { name: dialog.journey.name })}
          hint={t('journeys.cloneHint')}
          submitLabel={t('journeys.clone')}
          initialName={t('journeys.cloneName', { name: dialog.journey.name }).slice(0, NAME_MAX)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { journey } = await api.call('cloneJourney', { params: params$(dialog.journey), body: { name } });
            notifySuccess(t('journeys.cloned', { name: journey.name }));
            setDialog(null);
            list.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('journeys.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('journeys.deleteBody', { name: dialog.journey.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteJourney', { params: params$(dialog.journey) });
          notifySuccess(t('journeys.deleted', { name: dialog.journey.name }));
          list.refetch();
        }}
      />
    </>
  );
}
