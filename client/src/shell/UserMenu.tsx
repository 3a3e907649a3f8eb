import { Link } from 'react-router';
import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconUser } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { useMeta } from '../session/store.ts';
import { initials } from '../ui/initials.ts';

export function UserMenu() {
  const { t } = useT();
  const { user, account, build } = useMeta();
  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={t('shell.userMenu')} data-testid="user-menu" px={6} py={4} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Group gap={8} wrap="nowrap">
            <Avatar size={32} radius="xl" color="brand" variant="filled">
              {initials(user.name)}
            </Avatar>
            <Stack gap={0} visibleFrom="lg" maw={160}>
              <Text size="sm" fw={600} truncate>
                {user.name}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {account.name}
              </Text>
            </Stack>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {user.name}
          </Text>
          <Text size="xs" truncate>
            {user.email}
          </Text>
          <Text size="xs" truncate>
            {user.roleName} · {account.name}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to="/user/profile" leftSection={<IconUser size={16} />}>
          {t('nav.profile')}
        </Menu.Item>
        <Menu.Item component={Link} to="/user/password" leftSection={<IconKey size={16} />}>
          {t('nav.password')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout" color="red" leftSection={<IconLogout size={16} />}>
          {t('shell.logout')}
        </Menu.Item>
        <Menu.Divider />
        <Text size="xs" c="dimmed" px="sm" py={4} className="gd-mono" data-testid="build">
          {t('shell.build', { client: __BUILD_HASH__, api: build })}
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}
