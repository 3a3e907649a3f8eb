/**
 * The app's five most recently changed journeys (with their status) and audiences (with their state
 * and size), from the lists' own endpoints, each linking to itself and the block to the whole list.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconRoute, IconUsersGroup } from '@tabler/icons-react';
import { localeFor } from '@gd/shared/language';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery, type QueryResult } from '../../state/useApiQuery.ts';
import { formatDateTime } from '../../ui/format.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { AudienceStatusBadge } from '../../entities/audience/AudienceStatus.tsx';
import { JourneyStatusBadge } from '../../entities/journey/JourneyStatus.tsx';

export const RECENT_COUNT = 5;

interface Row { id: string; name: string; to: string; badge: ReactNode; detail: string }

function RecentBlock<T>({ id, title, all, allTo, query, rows, empty }: {
  id: string; title: string; all: string; allTo: string; query: QueryResult<T>; rows: (data: T) => Row[]; empty: ReactNode;
}) {
  let body: ReactNode;
  if (query.state === 'error') body = <ErrorBlock error={query.error} onRetry={query.refetch} />;
  else if (query.data === undefined) body = <Stack p="md"><ListSkeleton rows={3} /></Stack>;
  else {
    const list = rows(query.data);
    body = list.length === 0 ? empty : list.map((row, i) => (
      <div key={row.id}>
        {i > 0 && <Divider />}
        <Group wrap="nowrap" gap="sm" px="md" py="sm" data-testid={`${id}-row`}>
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Anchor component={Link} to={row.to} fw={600} size="sm" truncate="end" title={row.name}>
              {row.name}
            </Anchor>
            <Text size="xs" c="dimmed" truncate="end">
              {row.detail}
            </Text>
          </Stack>
          {row.badge}
        </Group>
      </div>
    ));
  }
  return (
    <section aria-labelledby={`${id}-title`} data-testid={id} style={{ minWidth: 0 }}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} fz="lg" id={`${id}-title`}>
          {title}
        </Title>
        <Button component={Link} to={allTo} variant="subtle" size="compact-sm" rightSection={<IconArrowRight size={14} />}>
          {all}
        </Button>
      </Group>
      <Paper withBorder radius="md">{body}</Paper>
    </section>
  );
}

export function RecentJourneys({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const query = useApiQuery('listJourneys', { params: { appId: app.id }, query: { owner: 'all', scope: 'all' }, scope: 'app' });
  return (
    <RecentBlock
      id="home-journeys"
      title={t('home.journeys.title')}
      all={t('home.journeys.all')}
      allTo="/communication/journeys"
      query={query}
      rows={(data) =>
        [...data.journeys].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, RECENT_COUNT).map((j) => ({
          id: j.id, name: j.name, to: `/communication/journeys?id=${j.id}`, badge: <JourneyStatusBadge status={j.status} />,
          detail: t('home.journeys.changed', { when: formatDateTime(j.updatedAt, lang) }),
        }))}
      empty={<EmptyBlock icon={<IconRoute size={28} />} title={t('home.journeys.emptyTitle')} description={t('home.journeys.emptyBody')} />}
    />
  );
}

export function RecentAudiences({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const query = useApiQuery('listAudiences', { params: { appId: app.id }, query: { owner: 'all' }, scope: 'app' });
  const count = new Intl.NumberFormat(localeFor(lang));
  return (
    <RecentBlock
      id="home-audiences"
      title={t('home.audiences.title')}
      all={t('home.audiences.all')}
      allTo="/behavior/audiences"
      query={query}
      rows={(data) =>
        [...data.audiences].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, RECENT_COUNT).map((a) => ({
          id: a.id, name: a.name, to: `/behavior/audiences?audience=${a.id}`, badge: <AudienceStatusBadge status={a.status} />,
          detail: a.personCount === null ? t('home.audiences.notCounted') : t('home.audiences.people', { count: a.personCount, formatted: count.format(a.personCount) }),
        }))}
      empty={<EmptyBlock icon={<IconUsersGroup size={28} />} title={t('home.audiences.emptyTitle')} description={t('home.audiences.emptyBody')} />}
    />
  );
}
