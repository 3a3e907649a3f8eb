/**
 * The signed-in layout: header (product, app switcher, date range, language, user menu), the
 * left navigation and the screen. Lazy: the login page never loads it.
 *
 * Narrow screens (below Mantine's `md`, 62em): the navigation becomes a drawer opened by the
 * header's burger, closed when a route is chosen (or Escape); it is `inert` while closed so its
 * links are not tabbable off-screen. Phones (below `sm`, 48em): the app switcher and the language
 * menu move from the header into the top of that drawer, so the header keeps the burger, the
 * logo, the date range and the user menu within 390 px. Each control is rendered once (the
 * layout is chosen with media queries, not CSS hiding), so test ids and names stay unique.
 * The date range is left out where it would change nothing: an open dashboard (headerDateRange.ts).
 */
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { AppShell, Burger, Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
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
import { showsHeaderDateRange } from './headerDateRange.ts';
import { LanguageMenu } from './LanguageMenu.tsx';
import { UserMenu } from './UserMenu.tsx';
import { Navigation } from './Navigation.tsx';
import { useDateRangeInUrl } from './useDateRangeInUrl.ts';
import './dates.ts';

export const NAVBAR_WIDTH = 248;
/** Below this the navigation is a drawer (Mantine breakpoint `md`). */
export const DRAWER_BREAKPOINT = 'md';
const WIDE = '(min-width: 62em)';
/** From this up the app switcher and the language menu fit in the header (Mantine `sm`). */
const ROOMY = '(min-width: 48em)';
const NAVBAR_ID = 'gd-navbar';

export default function Shell() {
  const { t, lang } = useT();
  const app = useCurrentApp();
  const { pathname, search } = useLocation();
  const followToday = useDateRange((s) => s.followToday);
  useEffect(() => followToday(app?.timezone), [app?.timezone, followToday]);
  useDateRangeInUrl(app?.timezone);

  const wide = useMediaQuery(WIDE, true, { getInitialValueInEffect: false });
  const roomy = useMediaQuery(ROOMY, true, { getInitialValueInEffect: false });
  const [opened, { toggle, close }] = useDisclosure(false);
  // A route chosen anywhere (a link in the drawer or on the page) closes the drawer.
  useEffect(close, [pathname, close]);
  useEffect(() => {
    if (wide || !opened) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [wide, opened, close]);

  return (
    <DatesProvider settings={{ locale: lang === 'es' ? 'es' : 'en', firstDayOfWeek: 1 }}>
      {/* Bottom right: a notice never covers the header actions (play, submit) that the person reaches for next. */}
      <Notifications position="bottom-right" limit={4} />
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: NAVBAR_WIDTH, breakpoint: DRAWER_BREAKPOINT, collapsed: { mobile: !opened } }}
        padding={{ base: 'sm', sm: 'lg' }}
      >
        <a href="#main" className="gd-skip-link">
          {t('shell.skipToContent')}
        </a>
        <AppShell.Header px={{ base: 'xs', sm: 'md' }}>
          <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={wide ? 'md' : 'xs'} wrap="nowrap" miw={0}>
              {!wide && (
                <Burger
                  opened={opened}
                  onClick={toggle}
                  size="sm"
                  aria-label={t(opened ? 'shell.closeNavigation' : 'shell.openNavigation')}
                  aria-expanded={opened}
                  aria-controls={NAVBAR_ID}
                  data-testid="nav-burger"
                />
              )}
              <UnstyledButton component={Link} to="/" aria-label={t('shell.home')} w={wide ? NAVBAR_WIDTH - 32 : undefined}>
                <Group gap={8} wrap="nowrap">
                  <ThemeIcon size={30} radius="md" variant="filled">
                    <IconChartArrowsVertical size={18} />
                  </ThemeIcon>
                  {roomy && (
                    <Text fw={700} fz="lg" lts={-0.2}>
                      {t('app.name')}
                    </Text>
                  )}
                </Group>
              </UnstyledButton>
              {roomy && <AppSwitcher />}
            </Group>
            <Group gap={roomy ? 'sm' : 6} wrap="nowrap" miw={0}>
              <OfflineBadge />
              {showsHeaderDateRange(pathname, search) && <DateRangeControl compact={!roomy} />}
              {roomy && <LanguageMenu />}
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar id={NAVBAR_ID} inert={!wide && !opened} data-testid="navbar">
          {!roomy && (
            <AppShell.Section p="sm" pb={0}>
              <Group gap="xs" wrap="nowrap">
                <AppSwitcher fullWidth />
                <LanguageMenu />
              </Group>
            </AppShell.Section>
          )}
          <AppShell.Section grow mih={0}>
            <Navigation onNavigate={close} />
          </AppShell.Section>
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
