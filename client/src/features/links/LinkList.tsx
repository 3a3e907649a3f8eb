/**
 * The list of /acquisition/links (tracking links) and /acquisition/powlinks: each link with its
 * campaign, short link (copy), where it goes, clicks (counted, unique, bots), last click and
 * status; new / edit / delete with the apptracker keys; the name opens its details (QR code,
 * click address builder, latest clicks).
 */
import { useState } from 'react';
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { IconLink, IconPlus, IconQrcode, IconRoute } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Link } from '@gd/shared/schemas/links';
import { mergeDestinations } from '@gd/shared/acquisition/links';
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
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { LinkDetails } from './LinkDetails.tsx';
import { LinkDialog } from './LinkDialog.tsx';

/** A badge keeps its whole word when the table is narrow: the long columns give way instead. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete' | 'details'; link: Link } | null;

/** The platforms a link sends somewhere (its own destinations over its campaign's). */
function platforms(link: Link): ('ios' | 'android' | 'desktop')[] {
  const d = mergeDestinations(link.destinations, link.campaignDestinations);
  return [
    ...(d.ios?.store || d.ios?.web ? ['ios' as const] : []),
    ...(d.android?.store || d.android?.web ? ['android' as const] : []),
    ...(d.desktop?.web ? ['desktop' as const] : []),
  ];
}

export function LinkList({ app, kind }: { app: MetaApp; kind: Link['kind'] }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const route = kind === 'powlink' ? 'route:/acquisition/powlinks' : 'route:/acquisition/links';
  const canView = can(route);
  const canCreate = can('ui:apptracker.create');
  const canEdit = can({ or: ['ui:apptracker.edit', 'ui:apptracker.edit:owner'] });
  const canDelete = can({ or: ['ui:apptracker.delete', 'ui:apptracker.delete:owner'] });
  const links = useApiQuery('links', { params: { appId: app.id }, query: { kind }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const title = kind === 'powlink' ? t('nav.powlinks') : t('nav.links');
  const addLabel = kind === 'powlink' ? t('links.addPow') : t('links.add');

  const addButton = (
    <GatedButton allowed={canCreate} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="link-add">
      {addLabel}
    </GatedButton>
  );
  const description = kind === 'powlink' ? t('links.powDescription', { app: app.name }) : t('links.description', { app: app.name });
  const header = <PageHeader title={title} description={description} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('links.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <DataState query={links}>
        {({ links: list, baseUrl }) => (
          <>
            <ListTable
              isEmpty={list.length === 0}
              empty={
                <EmptyBlock
                  icon={kind === 'powlink' ? <IconRoute size={28} /> : <IconLink size={28} />}
                  title={kind === 'powlink' ? t('links.emptyPowTitle') : t('links.emptyTitle')}
                  description={kind === 'powlink' ? t('links.emptyPowBody') : t('links.emptyBody')}
                  action={addButton}
                />
              }
              label={title}
              minWidth={900}
              head={
                <>
                  <Table.Th>{t('links.fields.name')}</Table.Th>
                  <Table.Th>{t('links.fields.url')}</Table.Th>
                  <Table.Th>{t('links.fields.destinations')}</Table.Th>
                  <Table.Th ta="right">{t('links.fields.clicks')}</Table.Th>
                  <Table.Th>{t('links.fields.lastClick')}</Table.Th>
                  <Table.Th w={120} ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((link) => (
                <Table.Tr key={link.id} data-testid="link-row">
                  <Table.Td style={{ ...NAME_CELL_STYLE, minWidth: 160 }}>
                    <Anchor component="button" type="button" fw={600} size="sm" truncate="end" display="block" maw="100%" miw={120} title={link.name} onClick={() => setDialog({ kind: 'details', link })}>
                      {link.name}
                    </Anchor>
                    <Group gap={6} wrap="nowrap">
                      {!link.active && <Badge size="xs" variant="light" color="gray" tt="none" style={WHOLE} data-testid="link-inactive">{t('links.inactive')}</Badge>}
                      <Text size="xs" c="dimmed" truncate="end">{link.campaignName}</Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <ShortLink url={link.url} label={t('links.fields.url')} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {platforms(link).map((p) => <Badge key={p} size="sm" variant="light" color={p === 'ios' ? 'gray' : p === 'android' ? 'teal' : 'indigo'} tt="none" style={WHOLE}>{t(`links.platformShort.${p}`)}</Badge>)}
                      {link.landingId && <Badge size="sm" variant="light" color="grape" tt="none" style={WHOLE} data-testid="link-landing">{t('landings.fallback.badge')}</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" className="gd-num" data-testid="link-clicks">{link.clicks.toLocaleString(lang)}</Text>
                    <Text size="xs" c="dimmed" className="gd-num">
                      {t('links.clickDetail', { unique: link.uniqueClicks.toLocaleString(lang), bots: link.bots.toLocaleString(lang) })}
                    </Text>
                  </Table.Td>
                  <Table.Td><Text size="sm" c="dimmed">{link.lastClickAt ? formatDateTime(link.lastClickAt, lang) : '—'}</Text></Table.Td>
                  <Table.Td>
                    <EditDeleteIcons
                      before={
                        <GatedIcon allowed label={t('links.open', { name: link.name })} variant="default" size={26} mr={4} onClick={() => setDialog({ kind: 'details', link })}>
                          <IconQrcode size={14} />
                        </GatedIcon>
                      }
                      edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', link }) }}
                      remove={{ allowed: canDelete, onClick: () => setDialog({ kind: 'delete', link }) }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            {dialog?.kind === 'details' && <LinkDetails appId={app.id} link={dialog.link} baseUrl={baseUrl} onClose={() => setDialog(null)} />}
          </>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <LinkDialog
          appId={app.id}
          kind={kind}
          link={dialog.kind === 'edit' ? dialog.link : undefined}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            notifySuccess(dialog.kind === 'add' ? t('links.created') : t('common.saved'));
            setDialog(dialog.kind === 'add' ? { kind: 'details', link: saved } : null);
            links.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('links.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('links.deleteBody', { name: dialog.link.name, count: dialog.link.clicks }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteLink', { params: { appId: app.id, linkId: dialog.link.id } });
          notifySuccess(t('links.deleted'));
          links.refetch();
        }}
      />
    </>
  );
}

/** The address from its path on (/l/code?params): the host is the same on every row. */
const pathOf = (url: string) => {
  const at = url.indexOf('/', url.indexOf('//') + 2);
  return at < 0 ? url : url.slice(at);
};

/** A short link in a narrow cell: its path (the code and parameters), the whole address in the tooltip and the copy. */
function ShortLink({ url, label }: { url: string; label: string }) {
  return <CopyField value={url} shown={pathOf(url)} label={label} maw={170} size="sm" />;
}
