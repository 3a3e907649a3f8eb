/**
 * Header app switcher: lists the user's apps with their OS icon; switching reloads the page.
 * `fullWidth`: the phone layout, where it sits at the top of the navigation drawer.
 */
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, Group, Loader, Menu, Overlay, Stack, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconPlus, IconApps } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { useLanguageRoute } from '../i18n/languageStore.ts';
import { usePermissions } from '../session/permissions.ts';
import { useCurrentApp, useMeta, useSession } from '../session/store.ts';
import { OsIcon } from '../ui/OsIcon.tsx';
import { APP_SWITCH_DELAY_MS, appSwitchTarget } from './appSwitch.ts';

export function AppSwitcher({ fullWidth = false }: { fullWidth?: boolean }) {
  const { t } = useT();
  const meta = useMeta();
  const current = useCurrentApp();
  const rememberApp = useSession((s) => s.rememberApp);
  const basename = useLanguageRoute((s) => s.basename);
  const { pathname, search } = useLocation();
  const can = usePermissions('account');
  const [switching, setSwitching] = useState(false);

  const switchTo = (appId: string) => {
    if (appId === current?.id) return;
    rememberApp(appId);
    setSwitching(true);
    window.setTimeout(() => window.location.assign(appSwitchTarget(pathname, basename, search)), APP_SWITCH_DELAY_MS);
  };

  return (
    <>
      <Menu position="bottom-start" width={300} shadow="md" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            aria-label={t('shell.switchApp')}
            data-testid="app-switcher"
            leftSection={current ? <OsIcon os={current.os} /> : <IconApps size={16} />}
            rightSection={<IconChevronDown size={14} />}
            maw={fullWidth ? undefined : 280}
            fullWidth={fullWidth}
            justify={fullWidth ? 'space-between' : undefined}
            miw={0}
            styles={{ inner: { minWidth: 0 }, label: { overflow: 'hidden', textOverflow: 'ellipsis', flex: fullWidth ? 1 : undefined } }}
          >
            {current?.name ?? t('shell.noApp')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown mah={420} style={{ overflowY: 'auto' }}>
          <Menu.Label>{t('shell.apps')}</Menu.Label>
          {meta.apps.length === 0 && (
            <Text size="sm" c="dimmed" px="sm" py={6}>
              {t('shell.noAppsYet')}
            </Text>
          )}
          {meta.apps.map((app) => (
            <Menu.Item
              key={app.id}
              leftSection={<OsIcon os={app.os} />}
              rightSection={app.id === current?.id ? <IconCheck size={14} aria-label={t('shell.currentApp')} /> : undefined}
              onClick={() => switchTo(app.id)}
              aria-current={app.id === current?.id ? 'true' : undefined}
            >
              <Stack gap={0}>
                <Text size="sm" fw={app.id === current?.id ? 600 : 400} truncate>
                  {app.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {app.os}
                </Text>
              </Stack>
            </Menu.Item>
          ))}
          <Menu.Divider />
          {can('route:/user/account/apps') && (
            <Menu.Item component={Link} to="/user/account/apps" leftSection={<IconApps size={16} />}>
              {t('shell.manageApps')}
            </Menu.Item>
          )}
          {can('ui:app.new') && (
            <Menu.Item component={Link} to={meta.apps.length === 0 ? '/user/setup' : '/user/account/apps?new=1'} leftSection={<IconPlus size={16} />}>
              {t('apps.new')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {switching && (
        <Overlay fixed backgroundOpacity={0.6} color="#fff" zIndex={1000}>
          <Group justify="center" align="center" h="100%" role="status" aria-live="assertive">
            <Loader />
            <Text fw={500}>{t('shell.switchingApp')}</Text>
          </Group>
        </Overlay>
      )}
    </>
  );
}
