/**
 * The key figures of the current app over the header's range (getHomeSummary): people, sessions,
 * events and revenue, each with its change on the previous period. An app that never received an
 * event shows how to set up the SDK instead of four zeros.
 */
import { Link } from 'react-router';
import { Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconChartBar, IconCoin, IconMinus, IconPlugConnected, IconTimeline, IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { HomeFigure, HomeFigureName, HomeSummary } from '@gd/shared/schemas/home';
import { useT } from '../../i18n/useT.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ErrorBlock } from '../../ui/States.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { FIGURE_ORDER, changeColor, changeOf, formatChange, formatFigure } from './figures.ts';

const ICONS: Record<HomeFigureName, ReactNode> = {
  people: <IconUsers size={18} />,
  sessions: <IconTimeline size={18} />,
  events: <IconChartBar size={18} />,
  revenue: <IconCoin size={18} />,
};

function ChangeBadge({ figure }: { figure: HomeFigure }) {
  const { t, lang } = useT();
  const change = changeOf(figure);
  const color = changeColor(change);
  if (change.kind === 'noPrevious' || change.kind === 'same') {
    return (
      <Badge variant="light" color={color} tt="none" radius="sm" leftSection={change.kind === 'same' ? <IconMinus size={12} /> : undefined} data-testid="figure-change" data-kind={change.kind}>
        {t(change.kind === 'same' ? 'home.figures.noChange' : 'home.figures.noPrevious')}
      </Badge>
    );
  }
  const text = formatChange(lang, change);
  return (
    <Badge
      variant="light"
      color={color}
      tt="none"
      radius="sm"
      leftSection={change.kind === 'up' ? <IconArrowUpRight size={12} /> : <IconArrowDownRight size={12} />}
      aria-label={t(change.kind === 'up' ? 'home.figures.up' : 'home.figures.down', { value: text })}
      data-testid="figure-change"
      data-kind={change.kind}
    >
      {text}
    </Badge>
  );
}

function FigureCard({ name, figure, currency }: { name: HomeFigureName; figure: HomeFigure; currency: string | null }) {
  const { t, lang } = useT();
  return (
    <Paper withBorder p="md" radius="md" data-testid={`figure-${name}`}>
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon variant="light" size={30} radius="md">
            {ICONS[name]}
          </ThemeIcon>
          <Tooltip label={t(`home.figures.hint.${name}`)} multiline w={260} withArrow>
            <Text size="sm" c="dimmed" fw={600} tabIndex={0} truncate="end">
              {t(`home.figures.${name}`)}
            </Text>
          </Tooltip>
        </Group>
        <Text fz={28} fw={700} lh={1.2} data-testid="figure-value" style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>
          {formatFigure(lang, name, figure.current, currency)}
        </Text>
        <Group gap="xs" wrap="wrap">
          <ChangeBadge figure={figure} />
        </Group>
        <Text size="xs" c="dimmed" data-testid="figure-previous">
          {t('home.figures.previous', { value: formatFigure(lang, name, figure.previous, currency) })}
        </Text>
      </Stack>
    </Paper>
  );
}

function FiguresSkeleton() {
  const { t } = useT();
  const shown = useDelayedFlag(true);
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="md" role="status" aria-busy="true" aria-label={t('common.loading')} data-testid="loading">
      {FIGURE_ORDER.map((name) => (
        <Paper key={name} withBorder p="md" radius="md" h={150}>
          {shown && (
            <Stack gap="sm">
              <Skeleton height={20} width="50%" />
              <Skeleton height={30} width="70%" />
              <Skeleton height={16} width="40%" />
            </Stack>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function NoDataYet({ app }: { app: MetaApp }) {
  const { t } = useT();
  return (
    <Paper withBorder p="lg" radius="md" data-testid="home-no-data">
      <Group wrap="nowrap" align="flex-start" gap="md">
        <ThemeIcon variant="light" size={44} radius="md">
          <IconPlugConnected size={24} />
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={700}>{t('home.noData.title', { app: app.name })}</Text>
          <Text size="sm" c="dimmed" maw={640}>
            {t('home.noData.body')}
          </Text>
          <Button component={Link} to="/user/setup" variant="light" w="fit-content" mt={4}>
            {t('home.noData.action')}
          </Button>
        </Stack>
      </Group>
    </Paper>
  );
}

export function Figures({ data }: { data: HomeSummary }) {
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="md" data-testid="home-figures">
      {FIGURE_ORDER.map((name) => (
        <FigureCard key={name} name={name} figure={data.figures[name]} currency={data.currency} />
      ))}
    </SimpleGrid>
  );
}

export function KeyFigures({ app }: { app: MetaApp }) {
  const range = useDateRange((s) => s.range);
  const query = useApiQuery('getHomeSummary', { params: { appId: app.id }, query: { startDay: range.startDay, endDay: range.endDay }, scope: 'app', range: true });
  if (query.state === 'error') {
    return (
      <Paper withBorder>
        <ErrorBlock error={query.error} onRetry={query.refetch} />
      </Paper>
    );
  }
  if (!query.data) return <FiguresSkeleton />;
  return query.data.hasData ? <Figures data={query.data} /> : <NoDataYet app={app} />;
}
