/** A route the user's role does not include: a clear page, not a crash. */
import { Link } from 'react-router';
import { Button, Paper } from '@mantine/core';
import { IconBuildingStore, IconLock } from '@tabler/icons-react';
import type { RouteDef } from '@gd/shared/routes';
import { navKey } from '../i18n/keys.ts';
import { useT } from '../i18n/useT.ts';
import { PageHeader } from '../ui/PageHeader.tsx';
import { EmptyBlock } from '../ui/States.tsx';

/** Screens of the platform's own administrators: they say what they are instead of only "no access". */
const PLATFORM_SCREENS: Partial<Record<string, 'adminProviders' | 'adminNativeTemplates'>> = {
  '/admin/providers': 'adminProviders',
  '/admin/native-templates': 'adminNativeTemplates',
};

export function NoAccessPage({ route }: { route?: RouteDef }) {
  const { t } = useT();
  const title = route ? t(navKey(route.label)) : t('noAccess.title');
  const platform = route ? PLATFORM_SCREENS[route.path] : undefined;
  if (platform) {
    return (
      <>
        <PageHeader title={title} />
        <Paper withBorder p="xl" data-testid="platform-screen">
          <EmptyBlock icon={<IconBuildingStore size={28} />} title={t('noAccess.platformTitle')} description={t(`noAccess.platform.${platform}`)}
            action={<Button component={Link} to="/" variant="default">{t('common.backHome')}</Button>} />
        </Paper>
      </>
    );
  }
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="xl" data-testid="no-access">
        <EmptyBlock
          icon={<IconLock size={28} />}
          title={t('noAccess.title')}
          description={route ? t('noAccess.body', { screen: title }) : t('noAccess.bodyNone')}
          action={
            route && (
              <Button component={Link} to="/" variant="default">
                {t('common.backHome')}
              </Button>
            )
          }
        />
      </Paper>
    </>
  );
}
