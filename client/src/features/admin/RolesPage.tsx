/**
 * /admin/roles: account roles with their user counts. Custom roles are created with
 * PUT /user-roles/<new uuid>, edited, and deleted when no user has them. The built-in client
 * role is read-only; other built-in roles may be edited but not deleted.
 */
import { useState } from 'react';
import { Badge, Group, Table, Text } from '@mantine/core';
import { IconEye, IconPencil, IconPlus, IconShieldLock, IconTrash } from '@tabler/icons-react';
import { userTypeName } from '@gd/shared/enums';
import { PERMISSIONS } from '@gd/shared/permissions/keys';
import type { UserRole } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { RoleEditor } from './RoleEditor.tsx';

type Dialog = { kind: 'new' } | { kind: 'edit' | 'view' | 'delete'; role: UserRole } | null;
const READ_ONLY_BUILT_IN = 'client';

export default function RolesPage() {
  const { t } = useT();
  const can = usePermissions('account');
  const canWrite = can('api:account.roles');
  const roles = useApiQuery('listRoles');
  const reloadMeta = useSession((s) => s.reload);
  const [dialog, setDialog] = useState<Dialog>(null);

  const newButton = (
    <GatedButton allowed={canWrite} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'new' })}>
      {t('roles.new')}
    </GatedButton>
  );
  const saved = (role: UserRole) => {
    notifySuccess(dialog?.kind === 'new' ? t('roles.created', { name: role.name }) : t('common.saved'));
    setDialog(null);
    roles.refetch();
    // My own role may have changed: my permissions come with /user/meta.
    void reloadMeta();
  };

  return (
    <>
      <PageHeader title={t('nav.roles')} description={t('roles.description')} actions={newButton} />
      <DataState query={roles}>
        {({ roles: list }) =>
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconShieldLock size={28} />} title={t('roles.emptyTitle')} description={t('roles.emptyBody')} action={newButton} />}
            label={t('nav.roles')}
            minWidth={760}
            head={
              <>
                <Table.Th>{t('fields.role')}</Table.Th>
                <Table.Th>{t('fields.userType')}</Table.Th>
                <Table.Th ta="right">{t('roles.permissions')}</Table.Th>
                <Table.Th ta="right">{t('nav.users')}</Table.Th>
                <Table.Th w={100} ta="right">
                  {t('common.actions')}
                </Table.Th>
              </>
            }
          >
            {list.map((role) => {
              const locked = role.builtIn === READ_ONLY_BUILT_IN;
              const editable = canWrite && !locked;
              const deleteReason = role.builtIn !== null ? t('roles.cannotDeleteBuiltIn') : role.userCount > 0 ? t('roles.cannotDeleteUsed', { count: role.userCount }) : undefined;
              return (
                <Table.Tr key={role.id} data-testid="role-row">
                  <Table.Td>
                    <Group gap={8} wrap="nowrap">
                      <Text size="sm" fw={600}>
                        {role.name}
                      </Text>
                      {role.builtIn !== null && (
                        <Badge tt="none" size="xs" variant="light" color="gray">
                          {t('roles.builtIn')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t(`userType.${userTypeName(role.userType)}`)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {role.grants.length} / {PERMISSIONS.length}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {role.userCount}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} justify="flex-end" wrap="nowrap">
                      {editable ? (
                        <GatedIcon allowed label={t('common.edit')} onClick={() => setDialog({ kind: 'edit', role })}>
                          <IconPencil size={16} />
                        </GatedIcon>
                      ) : (
                        <GatedIcon allowed label={t('roles.view')} onClick={() => setDialog({ kind: 'view', role })}>
                          <IconEye size={16} />
                        </GatedIcon>
                      )}
                      <GatedIcon
                        allowed={canWrite && deleteReason === undefined}
                        reason={canWrite ? deleteReason : undefined}
                        label={t('common.delete')}
                        color="red"
                        onClick={() => setDialog({ kind: 'delete', role })}
                      >
                        <IconTrash size={16} />
                      </GatedIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
        }
      </DataState>
      {(dialog?.kind === 'new' || dialog?.kind === 'edit' || dialog?.kind === 'view') && (
        <RoleEditor role={dialog.kind === 'new' ? undefined : dialog.role} readOnly={dialog.kind === 'view'} onClose={() => setDialog(null)} onSaved={saved} />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('roles.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('roles.deleteBody', { name: dialog.role.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteRole', { params: { roleId: dialog.role.id } });
          notifySuccess(t('roles.deleted', { name: dialog.role.name }));
          roles.refetch();
        }}
      />
    </>
  );
}
