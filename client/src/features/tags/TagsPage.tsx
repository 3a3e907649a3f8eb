/**
 * /manage/tags: the app's user and audience tags (ui:tags.view to see, ui:tags.edit to change).
 * A tag's type can change only while nobody has a value; the dialog says so instead of failing.
 */
import { useMemo, useState } from 'react';
import { Badge, SegmentedControl, Table, Text } from '@mantine/core';
import { IconTag, IconTagPlus } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { TagKind, type Tag } from '@gd/shared/schemas/tags';
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
import { formatDate } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { TagDialog } from './TagDialog.tsx';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; tag: Tag } | null;
type KindFilter = 'all' | TagKind;

export default function TagsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.tags')} descriptionNoApp={t('tags.descriptionNoApp')}>{(app) => <Tags app={app} />}</AppScreen>;
}

function Tags({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('ui:tags.view');
  const canEdit = can('ui:tags.edit');
  const tags = useApiQuery('listTags', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [kind, setKind] = useState<KindFilter>('all');
  const kindOptions = useMemo(
    () => [{ value: 'all', label: t('tags.all') }, ...TagKind.options.map((k) => ({ value: k, label: t(`tags.kind.${k}`) }))],
    [t],
  );

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconTagPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
      {t('tags.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.tags')} description={t('tags.description', { app: app.name })} actions={canView ? addButton : undefined} />;

  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('tags.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <SegmentedControl mb="md" aria-label={t('tags.kindFilter')} value={kind} onChange={(v) => setKind(v as KindFilter)} data={kindOptions} />
      <DataState query={tags}>
        {({ tags: all }) => {
          const list = kind === 'all' ? all : all.filter((tag) => tag.kind === kind);
          return (
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconTag size={28} />} title={t('tags.emptyTitle')} description={t('tags.emptyBody')} action={addButton} />}
              label={t('nav.tags')}
              minWidth={820}
              head={
                <>
                  <Table.Th>{t('tags.fields.name')}</Table.Th>
                  <Table.Th>{t('tags.fields.kind')}</Table.Th>
                  <Table.Th>{t('tags.fields.valueType')}</Table.Th>
                  <Table.Th ta="right">{t('tags.people')}</Table.Th>
                  <Table.Th>{t('tags.fields.updated')}</Table.Th>
                  <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((tag) => (
                <Table.Tr key={tag.id} data-testid="tag-row">
                  <Table.Td maw={360}>
                    <Text size="sm" fw={600} truncate="end">{tag.name}</Text>
                    {tag.description && <Text size="xs" c="dimmed" truncate="end">{tag.description}</Text>}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={tag.kind === 'user_tag' ? 'indigo' : 'teal'} tt="none">{t(`tags.kind.${tag.kind}`)}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="outline" color="gray" tt="none">{t(`tags.valueType.${tag.valueType}`)}</Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" className="gd-num">{tag.kind === 'user_tag' ? tag.people.toLocaleString(lang) : '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">{formatDate(tag.updatedAt, lang)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <EditDeleteIcons
                      edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', tag }) }}
                      remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', tag }) }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          );
        }}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <TagDialog
          appId={app.id}
          tag={dialog.kind === 'edit' ? dialog.tag : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('tags.created') : t('common.saved'));
            setDialog(null);
            tags.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('tags.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('tags.deleteBody', { name: dialog.tag.name, count: dialog.tag.people }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteTag', { params: { appId: app.id, tagId: dialog.tag.id } });
          notifySuccess(t('tags.deleted'));
          tags.refetch();
        }}
      />
    </>
  );
}
