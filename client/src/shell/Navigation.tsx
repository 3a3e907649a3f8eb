/**
 * Left navigation: shared ROUTES with `nav`, grouped by area, labels from `nav.*`, area headers
 * from `area.*`. Entries whose `route:<path>` key is disallowed are hidden; screens not built
 * yet carry a "soon" badge. `onNavigate` runs when an entry is chosen (the drawer closes on it).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { Box, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import {
  IconHome,
  IconAdjustments, IconChartDots3, IconLayoutDashboard, IconMessages, IconPackage, IconShieldLock, IconTargetArrow, IconUserCircle,
} from '@tabler/icons-react';
import { Area, ROUTES, routeKey, type RouteDef } from '@gd/shared/routes';
import { navKey, type TKey } from '../i18n/keys.ts';
import { useT } from '../i18n/useT.ts';
import { usePermissions } from '../session/permissions.ts';
import { scopeOfRoute } from '../session/scope.ts';

const AREA_ICON: Record<Exclude<Area, 'auth'>, ReactNode> = {
  main: <IconLayoutDashboard size={16} />,
  acquisition: <IconTargetArrow size={16} />,
  behavior: <IconChartDots3 size={16} />,
  communication: <IconMessages size={16} />,
  products: <IconPackage size={16} />,
  manage: <IconAdjustments size={16} />,
  user: <IconUserCircle size={16} />,
  admin: <IconShieldLock size={16} />,
};

export function Navigation({ onNavigate }: { onNavigate?: () => void } = {}) {
  const { t } = useT();
  const canApp = usePermissions('app');
  const canAccount = usePermissions('account');
  const { pathname } = useLocation();
  const viewport = useRef<HTMLDivElement>(null);
  // The active entry may sit far down the list (the account screens): keep it in view. Only the
  // list scrolls (scrollIntoView would also move the page, under a drawer closed off-screen).
  useEffect(() => {
    const list = viewport.current;
    const active = list?.querySelector<HTMLElement>('[data-active]');
    if (!list || !active) return;
    const offset = active.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    list.scrollTop = Math.max(0, offset - (list.clientHeight - active.offsetHeight) / 2);
  }, [pathname]);
  const visible = (route: RouteDef) =>
    route.nav === true && (scopeOfRoute(route) === 'app' ? canApp : canAccount)(routeKey(route.path));

  return (
    <ScrollArea type="scroll" scrollbarSize={6} h="100%" viewportRef={viewport}>
      <Box component="nav" aria-label={t('shell.navigation')} px="sm" py="md">
        <Stack gap="md">
          {/* The home (`/`): every signed-in person has one (features/home). */}
          <NavLink
            component={RouterLink}
            to="/"
            end
            onClick={onNavigate}
            label={t('shell.homeNav')}
            leftSection={<IconHome size={16} />}
            active={pathname === '/'}
            variant="light"
            py={5}
            styles={{ label: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 600 } }}
          />
          {Area.filter((a): a is Exclude<Area, 'auth'> => a !== 'auth').map((area) => {
            const routes = ROUTES.filter((r) => r.area === area && visible(r));
            if (routes.length === 0) return null;
            const headingId = `nav-area-${area}`;
            return (
              <Box key={area} component="section" aria-labelledby={headingId}>
                <Group gap={6} px="sm" mb={4} c="dimmed">
                  {AREA_ICON[area]}
                  <Text id={headingId} component="h2" size="xs" fw={700} tt="uppercase" lts={0.4} m={0}>
                    {t(`area.${area}` as TKey)}
                  </Text>
                </Group>
                <Stack gap={1}>
                  {routes.map((route) => (
                    <NavLink
                      key={route.path}
                      component={RouterLink}
                      to={route.path}
                      end
                      onClick={onNavigate}
                      label={t(navKey(route.label))}
                      active={pathname === route.path}
                      variant="light"
                      py={5}
                      styles={{ label: { fontSize: 'var(--mantine-font-size-sm)' } }}
                    />
                  ))}
                </Stack>
              </Box>
            );
          })}
        </Stack>
      </Box>
    </ScrollArea>
  );
}
