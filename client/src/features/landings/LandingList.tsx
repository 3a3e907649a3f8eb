/**
 * The list of /manage/landings: each landing page with its campaign, public address (copy, open),
 * status, visits (all time and last 7 days) and the links that use it; new, edit (the editor),
 * publish / unpublish and delete with `api:landings.edit`.
 */
import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconExternalLink, IconPlayerPause, IconPlus, IconTemplate, IconWorldUpload } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { LandingSummary } from '@gd/shared/schemas/landings';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { NAME_CELL_STYLE } from '../../ui/NameLink.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';

const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export function StatusBadge({ status }: { status: LandingSummary['status'] }) {
  const { t } = useT();
  return (
    <Badge size="sm" variant="light" color={status === 'published' ? 'teal' : 'gray'} tt="none" style={WHOLE} data-testid="landing-status">
      {t(`landings.status.${status}`)}
    </Badge>
  );
}

/** The address as the list shows it: the path on the link host (the host is the same on every row), the domain and path on a custom domain. */
const shownAddress = (landing: LandingSummary) => (landing.domain ? `${landing.domain}/${landing.slug}` : `/p/${landing.slug}`);

export function LandingList({ app, onOpen }: { app: MetaApp; onOpen: (id: string | null) => void }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('route:/manage/landings');
  const canEdit = can({ and: ['route:/manage/landings', 'api:landings.edit'] });
  const landings = useApiQuery('landings', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [deleting, setDeleting] = useState<LandingSummary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => onOpen(null)} data-testid="landing-add">
      {t('landings.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.landings')} description={t('landings.description', { app: app.name })} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('landings.noView')} />
      </>
    );
  }

  const toggle = async (landing: LandingSummary) => {
    setBusy(landing.id);
    try {
      const publishing = landing.status !== 'published';
      await api.call(publishing ? 'publishLanding' : 'unpublishLanding', { params: { appId: app.id, landingId: landing.id } });
      notifySuccess(publishing ? t('landings.published') : t('landings.unpublished'));
      landings.refetch();
    } catch (error) {
      notifyError(t, error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {header}
      <DataState query={landings}>
        {({ landings: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconTemplate size={28} />} title={t('landings.emptyTitle')} description={t('landings.emptyBody')} action={addButton} />}
            label={t('nav.landings')}
            minWidth={880}
            head={
              <>
                <Table.Th>{t('landings.fields.name')}</Table.Th>
                <Table.Th>{t('landings.fields.url')}</Table.Th>
                <Table.Th>{t('landings.fields.status')}</Table.Th>
                <Table.Th ta="right">{t('landings.fields.visits')}</Table.Th>
                <Table.Th ta="right">{t('landings.fields.links')}</Table.Th>
                <Table.Th w={150} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((landing) => (
              <Table.Tr key={landing.id} data-testid="landing-row">
                <Table.Td style={{ ...NAME_CELL_STYLE, minWidth: 220 }}>
                  <Anchor component="button" type="button" fw={600} size="sm" ta="left" truncate="end" display="block" maw="100%" miw={120} title={landing.name} onClick={() => onOpen(landing.id)}>
                    {landing.name}
                  </Anchor>
                  <Text size="xs" c="dimmed" truncate="end">{landing.campaignName ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <CopyField value={landing.url} shown={shownAddress(landing)} label={t('landings.fields.url')} maw={230} size="sm" />
                    {landing.status === 'published' && (
                      <Tooltip label={t('landings.open')}>
                        <ActionIcon component="a" href={landing.url} target="_blank" rel="noopener noreferrer" variant="subtle" color="gray" size={26} aria-label={t('landings.open')}>
                          <IconExternalLink size={14} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={landing.status} />
                  <Text size="xs" c="dimmed" mt={2}>
                    {landing.publishedAt ? t('landings.since', { date: formatDate(landing.publishedAt, lang) }) : t('landings.edited', { date: formatDate(landing.updatedAt, lang) })}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" className="gd-num" data-testid="landing-visits">{landing.visits.toLocaleString(lang)}</Text>
                  <Text size="xs" c="dimmed" className="gd-num">{t('landings.fields.visitsWeek', { count: landing.visitsWeek.toLocaleString(lang) })}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" c={landing.links ? undefined : 'dimmed'} className="gd-num" data-testid="landing-links">{landing.links ? landing.links.toLocaleString(lang) : t('landings.noLinks')}</Text>
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    before={
                      <GatedIcon
                        allowed={canEdit}
                        label={landing.status === 'published' ? t('landings.unpublish') : t('landings.publish')}
                        variant="default" size={26} mr={4}
                        loading={busy === landing.id}
                        onClick={() => void toggle(landing)}
                        data-testid="landing-toggle"
                      >
                        {landing.status === 'published' ? <IconPlayerPause size={14} /> : <IconWorldUpload size={14} />}
                      </GatedIcon>
                    }
                    edit={{ allowed: true, onClick: () => onOpen(landing.id) }}
                    remove={{ allowed: canEdit, onClick: () => setDeleting(landing) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('landings.deleteTitle')}
        message={deleting ? (
          <>
            {t('landings.deleteBody', { name: deleting.name, visits: deleting.visits.toLocaleString(lang) })}
            {deleting.links > 0 && <><br />{t('landings.deleteLinks', { count: deleting.links })}</>}
          </>
        ) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.call('deleteLanding', { params: { appId: app.id, landingId: deleting.id } });
          notifySuccess(t('landings.deleted'));
          landings.refetch();
        }}
      />
    </>
  );
}
