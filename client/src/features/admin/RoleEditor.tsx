/**
 * Role editor: name, user type and grants, as a checklist of permission keys grouped by kind and
 * resource (routes by area, UI actions by resource, API keys), with search and per-group
 * "select all". Read-only for the built-in client role and without api:account.roles.
 */
import { useMemo, useState } from 'react';
import { Badge, Box, Button, Checkbox, Group, Modal, Paper, ScrollArea, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconSearch } from '@tabler/icons-react';
import { UserType, type UserTypeName, type UserTypeValue } from '@gd/shared/enums';
import { PERMISSIONS } from '@gd/shared/permissions/keys';
import { UserRoleInput, type UserRole } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { groupLabel, groupPermissions, permissionLabel } from '../../ui/permissionLabels.ts';

const GROUPS = groupPermissions(PERMISSIONS);
const TOTAL = PERMISSIONS.length;

interface Values {
  name: string;
  userType: string;
  grants: string[];
}

export function RoleEditor({ role, readOnly, onClose, onSaved }: { role?: UserRole; readOnly: boolean; onClose: () => void; onSaved: (role: UserRole) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const [search, setSearch] = useState('');
  const form = useForm<Values>({
    initialValues: { name: role?.name ?? '', userType: String(role?.userType ?? UserType.ANALYST), grants: [...(role?.grants ?? [])] },
    validate: schemaValidator<Values>(UserRoleInput, t, {}, (v) => ({ ...v, userType: Number(v.userType) })),
  });
  const granted = useMemo(() => new Set(form.values.grants), [form.values.grants]);

  const visibleGroups = useMemo(() => {
    const q = search.trim().toLowerCase();
    return GROUPS.map((group) => {
      const label = groupLabel(group, t);
      const keys = q
        ? group.keys.filter((key) => key.toLowerCase().includes(q) || permissionLabel(key, t).toLowerCase().includes(q) || label.toLowerCase().includes(q))
        : group.keys;
      return { ...group, label, keys };
    }).filter((g) => g.keys.length > 0);
  }, [search, t]);

  const setKeys = (keys: readonly string[], on: boolean) => {
    const next = new Set(granted);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    form.setFieldValue('grants', PERMISSIONS.map((p) => p.key).filter((k) => next.has(k)));
  };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = { name: values.name, userType: Number(values.userType) as UserTypeValue, grants: values.grants };
      const { role: saved } = await api.call('putRole', { params: { roleId: role?.id ?? crypto.randomUUID() }, body });
      onSaved(saved);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'userType', 'grants']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  const title = role ? (readOnly ? t('roles.viewTitle', { name: role.name }) : t('roles.editTitle', { name: role.name })) : t('roles.newTitle');
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{title}</Text>} size={960} scrollAreaComponent={ScrollArea.Autosize}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          {readOnly && role?.builtIn === 'client' && (
            <Text size="sm" c="dimmed">
              {t('roles.clientReadOnly')}
            </Text>
          )}
          <SimpleGrid cols={2} spacing="md">
            <TextInput label={t('fields.roleName')} required disabled={readOnly} data-autofocus {...form.getInputProps('name')} />
            <Select
              label={t('fields.userType')}
              required
              disabled={readOnly}
              allowDeselect={false}
              data={(Object.keys(UserType) as UserTypeName[]).map((name) => ({ value: String(UserType[name]), label: t(`userType.${name}`) }))}
              {...form.getInputProps('userType')}
            />
          </SimpleGrid>
          <Group justify="space-between" align="flex-end">
            <TextInput
              label={t('roles.grants')}
              placeholder={t('roles.searchPermissions')}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={360}
              aria-label={t('roles.searchPermissions')}
            />
            <Badge variant="light" size="lg" tt="none" data-testid="grant-count">
              {t('roles.grantCount', { count: form.values.grants.length, total: TOTAL })}
            </Badge>
          </Group>
          <Box data-testid="grant-groups" mih={320} style={{ columnCount: 2, columnGap: 'var(--mantine-spacing-sm)' }}>
            {visibleGroups.map((group) => {
              const on = group.keys.filter((k) => granted.has(k)).length;
              return (
                <Paper key={group.id} withBorder p="sm" mb="sm" role="group" aria-label={group.label} style={{ minWidth: 0, breakInside: 'avoid' }}>
                  <Group justify="space-between" wrap="nowrap" mb={6}>
                    <Checkbox
                      label={<Text size="sm" fw={600}>{group.label}</Text>}
                      checked={on === group.keys.length}
                      indeterminate={on > 0 && on < group.keys.length}
                      disabled={readOnly}
                      onChange={(e) => setKeys(group.keys, e.currentTarget.checked)}
                      aria-label={t('roles.selectGroup', { group: group.label })}
                    />
                    <Text size="xs" c="dimmed">
                      {on}/{group.keys.length}
                    </Text>
                  </Group>
                  <Stack gap={4} pl={26}>
                    {group.keys.map((key) => (
                      <Checkbox
                        key={key}
                        size="xs"
                        disabled={readOnly}
                        checked={granted.has(key)}
                        onChange={(e) => setKeys([key], e.currentTarget.checked)}
                        label={
                          <Box>
                            <Text size="xs" span>
                              {permissionLabel(key, t)}
                            </Text>{' '}
                            <Text size="xs" c="dimmed" span className="gd-mono">
                              {key}
                            </Text>
                          </Box>
                        }
                      />
                    ))}
                  </Stack>
                </Paper>
              );
            })}
          </Box>
          {visibleGroups.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="md">
              {t('common.nothingFound')}
            </Text>
          )}
          <Group justify="flex-end" gap="sm" pos="sticky" bottom={0} bg="var(--mantine-color-body)" py="sm">
            <Button variant="default" onClick={onClose}>
              {readOnly ? t('common.close') : t('common.cancel')}
            </Button>
            {!readOnly && (
              <Button type="submit" loading={form.submitting}>
                {role ? t('common.save') : t('roles.create')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
