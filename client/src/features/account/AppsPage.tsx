/**
 * /user/account/apps: the account's apps; create, edit, rotate the key, delete (ui:app.*), with
 * their categories and a category filter (`?category=<id>`; categories are given in /user/app).
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { IconApps, IconKey, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { App } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { OsIcon } from '../../ui/OsIcon.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { AppDialog } from './AppDialog.tsx';
import { CategoryFilter } from '../../entities/category/CategoryFilter.tsx';
import { EntityCategoryBadges } from '../../entities/category/CategoryPicker.tsx';
import { categoryParam, useAppCategories, useCategories } from '../../entities/category/categories.ts';

type Dialog = { kind: 'new' } | { kind: 'edit' | 'delete' | 'rotate'; app: App } | null;

export default function AppsPage() {
  const { t } = useT();
  const can = usePermissions('account');
  const [params, setParams] = useSearchParams();
  const categoryId = categoryParam(params.get('category'));
  const apps = useApiQuery('listApps', categoryId ? { query: { categoryId } } : {});
  const categories = useCategories('app');
  const appCategories = useAppCategories();
  const currentAppId = useSession((s) => s.currentAppId);
  const reloadMeta = useSession((s) => s.reload);
  const [dialog, setDialog] = useState<Dialog>(() => (params.get('new') === '1' && can('ui:app.new') ? { kind: 'new' } : null));

  const close = () => {
    setDialog(null);
    if (params.has('new')) {
      const next = new URLSearchParams(params);
      next.delete('new');
      setParams(next, { replace: true });
    }
  };
  const setCategory = (id: string | undefined) => {
    const next = new URLSearchParams(params);
    if (id) next.set('category', id);
    else next.delete('category');
    setParams(next, { replace: true });
  };
  const changed = async () => {
    apps.refetch();
    await reloadMeta();
  };
  const newButton = (
    <GatedButton allowed={can('ui:app.new')} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'new' })}>
      {t('apps.new')}
    </GatedButton>
  );

  return (
    <>
      <PageHeader title={t('nav.apps')} description={t('apps.description')} actions={newButton} />
      <Group mb="md" gap="sm" align="flex-end">
        <CategoryFilter entityType="app" value={categoryId} onChange={setCategory} w={220} />
      </Group>
      <DataState query={apps}>
        {({ apps: list }) =>
          <ListTable
            isEmpty={list.length === 0}
            empty={categoryId
              ? <EmptyBlock icon={<IconApps size={28} />} title={t('categories.emptyFilteredTitle')} description={t('categories.emptyFilteredBody')} action={<Button variant="default" onClick={() => setCategory(undefined)}>{t('categories.clearFilter')}</Button>} />
              : <EmptyBlock icon={<IconApps size={28} />} title={t('apps.emptyTitle')} description={t('apps.emptyBody')} action={newButton} />}
            label={t('nav.apps')}
            minWidth={960}
            head={
              <>
                <Table.Th>{t('fields.appName')}</Table.Th>
                <Table.Th>{t('categories.column')}</Table.Th>
                <Table.Th>{t('fields.osShort')}</Table.Th>
                <Table.Th>{t('fields.bundleId')}</Table.Th>
                <Table.Th>{t('fields.timezone')}</Table.Th>
                <Table.Th>{t('fields.appKey')}</Table.Th>
                <Table.Th w={120} ta="right">
                  {t('common.actions')}
                </Table.Th>
              </>
            }
          >
            {list.map((app) => (
              <Table.Tr key={app.id} data-testid="app-row">
                <Table.Td>
                  <Group gap={8} wrap="nowrap">
                    <Text size="sm" fw={600}>
                      {app.name}
                    </Text>
                    {app.id === currentAppId && (
                      <Badge size="xs" variant="light" tt="none" style={{ flexShrink: 0 }}>
                        {t('apps.current')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td maw={260}>
                  {appCategories.byEntity.get(app.id)?.length
                    ? <EntityCategoryBadges all={categories.data?.categories} ids={appCategories.byEntity.get(app.id)} />
                    : <Text size="sm" c="dimmed">—</Text>}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <OsIcon os={app.os} />
                    <Text size="sm">{app.os}</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  {app.bundleId ? (
                    <Text className="gd-mono">{app.bundleId}</Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{app.timezone}</Text>
                </Table.Td>
                <Table.Td>
                  <CopyField value={app.appKey} label={t('fields.appKey')} maw={170} />
                </Table.Td>
                <Table.Td>
                  <Group gap={2} wrap="nowrap" justify="flex-end">
                    <GatedIcon allowed={can('ui:app.edit')} label={t('common.edit')} onClick={() => setDialog({ kind: 'edit', app })}>
                      <IconPencil size={16} />
                    </GatedIcon>
                    <GatedIcon allowed={can('ui:app.edit')} label={t('apps.rotateKey')} onClick={() => setDialog({ kind: 'rotate', app })}>
                      <IconKey size={16} />
                    </GatedIcon>
                    <GatedIcon allowed={can('ui:app.delete')} label={t('common.delete')} color="red" onClick={() => setDialog({ kind: 'delete', app })}>
                      <IconTrash size={16} />
                    </GatedIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        }
      </DataState>

      {(dialog?.kind === 'new' || dialog?.kind === 'edit') && (
        <AppDialog
          app={dialog.kind === 'edit' ? dialog.app : undefined}
          onClose={close}
          onSaved={(app) => {
            notifySuccess(dialog.kind === 'new' ? t('apps.created', { name: app.name }) : t('common.saved'));
            close();
            void changed();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('apps.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('apps.deleteBody', { name: dialog.app.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={close}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteApp', { params: { appId: dialog.app.id } });
          notifySuccess(t('apps.deleted', { name: dialog.app.name }));
          await changed();
        }}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'rotate'}
        title={t('apps.rotateTitle')}
        message={dialog?.kind === 'rotate' ? t('apps.rotateBody', { name: dialog.app.name }) : ''}
        confirmLabel={t('apps.rotateKey')}
        danger
        onClose={close}
        onConfirm={async () => {
          if (dialog?.kind !== 'rotate') return;
          await api.call('rotateAppKey', { params: { appId: dialog.app.id } });
          notifySuccess(t('apps.rotated'));
          await changed();
        }}
      />
    </>
  );
}
