/**
 * The root `/` (issue 11): a home for the role instead of a redirect. With an app: its key figures
 * over the header's range with their change on the previous period, what needs attention, and the
 * recent journeys and audiences, each block only for who may see it (blocks.ts); someone who may
 * see none of them gets shortcuts to the screens they may open. Without an app: how to create the
 * first one (or whom to ask), and the account's shortcuts. Never blank, never another screen.
 */
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconApps, IconArrowRight } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { RouteDef } from '@gd/shared/routes';
import { navKey } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { scopeOfRoute } from '../../session/scope.ts';
import { useCurrentApp } from '../../session/store.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { Attention } from './Attention.tsx';
import { anyBlock, homeBlocks, shortcuts } from './blocks.ts';
import { formatDays, previousRange } from './figures.ts';
import { KeyFigures } from './KeyFigures.tsx';
import { RecentAudiences, RecentJourneys } from './Recent.tsx';

/** Shortcuts to the built screens the person may open (`accountOnly`: no app yet, so none of the app's screens). */
function Shortcuts({ description, accountOnly = false }: { description: string; accountOnly?: boolean }) {
  const { t } = useT();
  const canApp = usePermissions('app');
  const canAccount = usePermissions('account');
  const routes = shortcuts((route: RouteDef, key) => (scopeOfRoute(route) === 'app' ? !accountOnly && canApp(key) : canAccount(key)));
  if (routes.length === 0) return null;
  return (
    <section aria-labelledby="home-shortcuts-title" data-testid="home-shortcuts">
      <Title order={2} fz="lg" mb={4} id="home-shortcuts-title">
        {t('home.shortcuts.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {description}
      </Text>
      <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm">
        {routes.map((route) => (
          <Paper key={route.path} withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed" truncate="end">
                  {t(`area.${route.area}`)}
                </Text>
                <Anchor component={Link} to={route.path} fw={600} size="sm" truncate="end">
                  {t(navKey(route.label))}
                </Anchor>
              </Stack>
              <IconArrowRight size={16} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
            </Group>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}

function NoAppHome() {
  const { t } = useT();
  const canAccount = usePermissions('account');
  const mayCreate = canAccount('ui:app.new') && canAccount('route:/user/setup');
  return (
    <>
      <PageHeader title={t('home.title')} description={t('home.descriptionNoApp')} />
      <Stack gap="xl">
        <Paper withBorder data-testid="home-no-app">
          <EmptyBlock
            icon={<IconApps size={28} />}
            title={t('home.noApp.title')}
            description={mayCreate ? t('home.noApp.body') : t('home.noApp.askAdmin')}
            action={mayCreate ? <Button component={Link} to="/user/setup">{t('home.noApp.action')}</Button> : undefined}
          />
        </Paper>
        <Shortcuts description={t('home.shortcuts.bodyNoApp')} accountOnly />
      </Stack>
    </>
  );
}

function AppHome({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const blocks = homeBlocks(usePermissions('app'));
  // The range matters only to the key figures.
  const description = blocks.figures
    ? t('home.description', { app: app.name, range: formatDays(lang, range), previous: formatDays(lang, previousRange(range)) })
    : t('home.descriptionNoFigures', { app: app.name });
  return (
    <>
      <PageHeader title={t('home.title')} description={description} />
      <Stack gap="xl">
        {blocks.figures && <KeyFigures app={app} />}
        {blocks.attention && <Attention app={app} />}
        {(blocks.journeys || blocks.audiences) && (
          <SimpleGrid cols={{ base: 1, md: blocks.journeys && blocks.audiences ? 2 : 1 }} spacing="xl">
            {blocks.journeys && <RecentJourneys app={app} />}
            {blocks.audiences && <RecentAudiences app={app} />}
          </SimpleGrid>
        )}
        {!anyBlock(blocks) && <Shortcuts description={t('home.shortcuts.body', { app: app.name })} />}
      </Stack>
    </>
  );
}

export default function HomePage() {
  const app = useCurrentApp();
  return app ? <AppHome app={app} /> : <NoAppHome />;
}

