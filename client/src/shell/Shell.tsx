/**
 * The signed-in layout: header (product, app switcher, date range, language, user menu), the
 * left navigation and the screen. Lazy: the login page never loads it.
 */
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { AppShell, Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { IconChartArrowsVertical } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { OfflineBadge } from '../session/OfflineBadge.tsx';
import { useCurrentApp } from '../session/store.ts';
import { useDateRange } from '../state/dateRangeStore.ts';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { PageLoader } from '../ui/Loading.tsx';
import { AppSwitcher } from './AppSwitcher.tsx';
import { DateRangeControl } from './DateRangeControl.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { UserMenu } from './UserMenu.tsx';
import { Navigation } from './Navigation.tsx';
import './dates.ts';

export const NAVBAR_WIDTH = 248;

export default function Shell() {
  const { t, lang } = useT();
  const app = useCurrentApp();
  const { pathname } = useLocation();
  const followToday = useDateRange((s) => s.followToday);
  useEffect(() => followToday(app?.timezone), [app?.timezone, followToday]);

  return (
    <DatesProvider settings={{ locale: lang === 'es' ? 'es' : 'en', firstDayOfWeek: 1 }}>
      <Notifications position="top-right" limit={4} />
      <AppShell header={{ height: 60 }} navbar={{ width: NAVBAR_WIDTH, breakpoint: 0 }} padding="lg">
        <a href="#main" className="gd-skip-link">
          {t('shell.skipToContent')}
        </a>
        <AppShell.Header px="md">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="md" wrap="nowrap">
              <UnstyledButton component={Link} to="/" aria-label={t('shell.home')} w={NAVBAR_WIDTH - 32}>
                <Group gap={8} wrap="nowrap">
                  <ThemeIcon size={30} radius="md" variant="filled">
                    <IconChartArrowsVertical size={18} />
                  </ThemeIcon>
                  <Text fw={700} fz="lg" lts={-0.2}>
                    {t('app.name')}
                  </Text>
                </Group>
              </UnstyledButton>
              <AppSwitcher />
            </Group>
            <Group gap="sm" wrap="nowrap">
              <OfflineBadge />
              <DateRangeControl />
              <LanguageMenu />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar>
          <Navigation />
        </AppShell.Navbar>
        <AppShell.Main id="main" tabIndex={-1}>
          {/* Keyed by path: a failed screen does not keep the next one from showing. */}
          <ErrorBoundary key={pathname}>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </AppShell.Main>
      </AppShell>
    </DatesProvider>
  );
}
