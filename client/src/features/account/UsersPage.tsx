/** /user/account/users: the account's users; invite, change role or status, remove (ui:accountUsers.*). */
import { useMemo, useState } from 'react';
import { Avatar, Badge, Button, Group, Modal, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconTrash, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { AccountUserInput, AccountUserUpdate, type User } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useMeta } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { initials } from '../../ui/initials.ts';

type Dialog = { kind: 'invite' } | { kind: 'edit' | 'delete'; user: User } | null;
interface RoleOption {
  value: string;
  label: string;
}

function StatusBadge({ user }: { user: User }) {
  const { t } = useT();
  if (!user.active) return <Badge tt="none" color="gray" variant="light">{t('users.status.inactive')}</Badge>;
  if (!user.passwordSet) return <Badge tt="none" color="yellow" variant="light">{t('users.status.invited')}</Badge>;
  return <Badge tt="none" color="teal" variant="light">{t('users.status.active')}</Badge>;
}

export default function UsersPage() {
  const { t, lang } = useT();
  const can = usePermissions('account');
  const me = useMeta().user;
  const canView = can('ui:accountUsers.view');
  const users = useApiQuery('listUsers', { enabled: canView });
  // Role names come from /user-roles when the user may read them, else from the users listed.
  const roles = useApiQuery('listRoles', { enabled: can('route:/admin/roles') && (can('ui:accountUsers.add') || can('ui:accountUsers.edit')) });
  const [dialog, setDialog] = useState<Dialog>(null);

  const roleOptions = useMemo<RoleOption[]>(() => {
    const fromRoles = roles.data?.roles.map((r) => ({ value: r.id, label: r.name }));
    if (fromRoles) return fromRoles;
    const seen = new Map<string, string>();
    for (const u of users.data?.users ?? []) seen.set(u.roleId, u.roleName);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [roles.data, users.data]);

  const inviteButton = (
    <GatedButton allowed={can('ui:accountUsers.add')} leftSection={<IconUserPlus size={16} />} onClick={() => setDialog({ kind: 'invite' })}>
      {t('users.invite')}
    </GatedButton>
  );

  return (
    <>
      <PageHeader title={t('nav.users')} description={t('users.description')} actions={canView ? inviteButton : undefined} />
      {!canView ? (
        <NoViewBlock description={t('users.noView')} />
      ) : (
        <DataState query={users}>
          {({ users: list }) =>
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconUsers size={28} />} title={t('users.emptyTitle')} description={t('users.emptyBody')} action={inviteButton} />}
              label={t('nav.users')}
              minWidth={820}
              head={
                <>
                  <Table.Th>{t('fields.user')}</Table.Th>
                  <Table.Th>{t('fields.role')}</Table.Th>
                  <Table.Th>{t('fields.status')}</Table.Th>
                  <Table.Th>{t('fields.lastLogin')}</Table.Th>
                  <Table.Th w={100} ta="right">
                    {t('common.actions')}
                  </Table.Th>
                </>
              }
            >
              {list.map((user) => {
                const self = user.id === me.id;
                return (
                  <Table.Tr key={user.id} data-testid="user-row">
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar size={32} radius="xl" color="brand">
                          {initials(user.name)}
                        </Avatar>
                        <Stack gap={0} miw={0}>
                          <Text size="sm" fw={600} truncate>
                            {user.name} {self && <Text span size="xs" c="dimmed">({t('users.you')})</Text>}
                          </Text>
                          <Text size="xs" c="dimmed" truncate>
                            {user.email}
                          </Text>
                        </Stack>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{user.roleName}</Text>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge user={user} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={user.lastLoginAt ? undefined : 'dimmed'}>
                        {user.lastLoginAt ? formatDateTime(user.lastLoginAt, lang) : t('users.never')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        <GatedIcon allowed={can('ui:accountUsers.edit')} label={t('common.edit')} onClick={() => setDialog({ kind: 'edit', user })}>
                          <IconPencil size={16} />
                        </GatedIcon>
                        <GatedIcon
                          allowed={can('ui:accountUsers.delete') && !self}
                          reason={self ? t('users.cannotRemoveSelf') : undefined}
                          label={t('users.remove')}
                          color="red"
                          onClick={() => setDialog({ kind: 'delete', user })}
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
      )}

      {dialog?.kind === 'invite' && (
        <InviteDialog
          roles={roleOptions}
          onClose={() => setDialog(null)}
          onSaved={(user) => {
            notifySuccess(t('users.invited', { email: user.email }));
            setDialog(null);
            users.refetch();
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditUserDialog
          user={dialog.user}
          self={dialog.user.id === me.id}
          roles={roleOptions}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(t('common.saved'));
            setDialog(null);
            users.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('users.removeTitle')}
        message={dialog?.kind === 'delete' ? t('users.removeBody', { name: dialog.user.name, email: dialog.user.email }) : ''}
        confirmLabel={t('users.remove')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteUser', { params: { userId: dialog.user.id } });
          notifySuccess(t('users.removed', { name: dialog.user.name }));
          users.refetch();
        }}
      />
    </>
  );
}

function InviteDialog({ roles, onClose, onSaved }: { roles: RoleOption[]; onClose: () => void; onSaved: (user: User) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { name: '', email: '', roleId: '' },
    validate: schemaValidator(AccountUserInput, t, { roleId: 'validation.choose' }),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const { user } = await api.call('addUser', { body: values });
      onSaved(user);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'email', 'roleId']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={t('users.inviteTitle')} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('users.inviteHint')}
          </Text>
          <FormError error={failure} />
          <TextInput label={t('fields.name')} required data-autofocus {...form.getInputProps('name')} />
          <TextInput label={t('fields.email')} type="email" required {...form.getInputProps('email')} />
          <Select label={t('fields.role')} required data={roles} allowDeselect={false} {...form.getInputProps('roleId')} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {t('users.sendInvite')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function EditUserDialog({ user, self, roles, onClose, onSaved }: { user: User; self: boolean; roles: RoleOption[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { name: user.name, roleId: user.roleId, active: user.active },
    validate: schemaValidator(AccountUserUpdate, t),
  });
  const options = roles.some((r) => r.value === user.roleId) ? roles : [...roles, { value: user.roleId, label: user.roleName }];
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('updateUser', { params: { userId: user.id }, body: values });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'roleId', 'active']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={t('users.editTitle', { name: user.name })} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('fields.email')} value={user.email} disabled readOnly />
          <TextInput label={t('fields.name')} required data-autofocus {...form.getInputProps('name')} />
          <Select label={t('fields.role')} required data={options} allowDeselect={false} disabled={self} description={self ? t('users.ownRole') : undefined} {...form.getInputProps('roleId')} />
          <Switch
            label={t('users.activeLabel')}
            description={self ? t('users.ownStatus') : t('users.activeHint')}
            disabled={self}
            {...form.getInputProps('active', { type: 'checkbox' })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
