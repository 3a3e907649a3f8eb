/**
 * /behavior/events: every event name of the current app in the shell's date range with events,
 * people, revenue and the change on the previous period; the selected event's trend and top
 * properties below. Hidden events (event catalogue) are left out unless asked for.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconActivity, IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { EventListAnswer } from '@gd/shared/schemas/behaviour';
import type { z } from 'zod';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { formatRange } from '../../shell/DateRangeControl.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { EventDetail } from './EventDetail.tsx';
import { EventsTable } from './EventsTable.tsx';
import { DEFAULT_SORT, filterRows, nextSort, sortRows, toRows, type Sort } from './eventRows.ts';
import { eventLabel } from './labels.ts';
import { Refreshing } from './Refreshing.tsx';
import { useAppRangeQuery, useKeptQuery } from './useAnalytics.ts';

type EventList = z.infer<z.ZodObject<typeof EventListAnswer>>;

export default function EventsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.events')} descriptionNoApp={t('eventsScreen.descriptionNoApp')}>{(app) => <Events app={app} />}</AppScreen>;
}

function Events({ app }: { app: MetaApp }) {
  const { t } = useT();
  const range = useDateRange((s) => s.range);
  // The rollup's figures first (fast), then the same list with distinct people (a scan of the range's events).
  const quick = useKeptQuery(useAppRangeQuery('listEvents', app.id, { startDay: range.startDay, endDay: range.endDay, people: false }));
  const full = useAppRangeQuery('listEvents', app.id, { startDay: range.startDay, endDay: range.endDay, people: true });
  const list = full.data ? full : quick;
  return (
    <>
      <PageHeader
        title={t('nav.events')}
        description={t('eventsScreen.description', { app: app.name })}
        actions={<Refreshing active={list.data !== undefined && (quick.state === 'loading' || full.state === 'loading')} />}
      />
      <DataState query={list} rows={8}>
        {(data) =>
          data.events.length === 0 ? (
            <Paper withBorder>
              <EmptyBlock icon={<IconActivity size={28} />} title={t('eventsScreen.emptyTitle')} description={t('eventsScreen.emptyBody')} />
            </Paper>
          ) : (
            <EventsView appId={app.id} data={data} peopleFailed={full.state === 'error' ? full.refetch : null} />
          )
        }
      </DataState>
    </>
  );
}

function EventsView({ appId, data, peopleFailed }: { appId: string; data: EventList; peopleFailed: (() => void) | null }) {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const [search, setSearch] = useState('');
  const [showHidden, setShowHidden] = useState(false);
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [selected, setSelected] = useState<string | null>(null);
  const all = useMemo(() => toRows(data.events, (e) => eventLabel(t, e.name, e.label)), [data.events, t]);
  const rows = useMemo(() => sortRows(filterRows(all, search, showHidden), sort), [all, search, showHidden, sort]);
  const current = rows.find((r) => r.name === selected) ?? rows[0] ?? null;
  const hiddenCount = all.filter((r) => r.hidden).length;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="md" wrap="wrap">
          <TextInput
            w={280}
            leftSection={<IconSearch size={16} />}
            placeholder={t('eventsScreen.search')}
            aria-label={t('eventsScreen.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          {hiddenCount > 0 && <Switch label={t('eventsScreen.showHidden')} checked={showHidden} onChange={(e) => setShowHidden(e.currentTarget.checked)} />}
        </Group>
        <Text size="sm" c="dimmed">
          {t('eventsScreen.count', { count: rows.length })}
        </Text>
      </Group>
      {peopleFailed && (
        <Alert variant="light" color="red" icon={<IconAlertTriangle size={16} />} p="xs">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('eventsScreen.peopleFailed')}</Text>
            <Button size="compact-sm" variant="default" onClick={peopleFailed}>
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {rows.length === 0 ? (
        <Paper withBorder>
          <EmptyBlock icon={<IconSearch size={28} />} title={t('eventsScreen.noMatchTitle')} description={t('eventsScreen.noMatchBody')} />
        </Paper>
      ) : (
        <EventsTable
          rows={rows}
          sort={sort}
          onSort={(column) => setSort((s) => nextSort(s, column))}
          selected={current?.name ?? null}
          onSelect={setSelected}
          previousRange={formatRange(data.previous, localeFor(lang))}
        />
      )}
      {current && <EventDetail appId={appId} name={current.name} label={current.display} range={range} />}
    </Stack>
  );
}
