/**
 * /behavior/explore: one metric of one event over the shell's date range, by time group, with an
 * optional breakdown and previous-period comparison; a chart and the same figures as a table that
 * exports to CSV. The query lives in the URL (exploreState.ts), next to the shell's range parameters,
 * which every change keeps; answers are cached per app and query. Opened without an event, it
 * picks the app's most frequent event of the range (listEvents, the rollup's fast answer).
 */
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconChartLine, IconDownload, IconMoodEmpty } from '@tabler/icons-react';
import { OTHER_SENTINEL } from '@gd/shared/behaviour/events';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { ExploreAnswer } from '@gd/shared/schemas/behaviour';
import type { z } from 'zod';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { keepRangeParams } from '../../state/dateRangeUrl.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { AddToDashboard } from '../../entities/dashboard/AddToDashboard.tsx';
import { ScheduleReportLink } from '../../entities/report/ScheduleReportLink.tsx';
import { downloadCsv } from './csv.ts';
import { ExploreChart } from './ExploreChart.tsx';
import { ExploreControls } from './ExploreControls.tsx';
import { ExploreResultTable } from './ExploreResultTable.tsx';
import {
  CHART_TYPES, exploreQuery, mostFrequentEvent, readExploreState, writeExploreState, type ChartType, type ExploreState,
} from './exploreState.ts';
import { buildExploreTable, tableRows } from './exploreTable.ts';
import { eventLabel, metricFormatter, seriesLabel, truncateLabel } from './labels.ts';
import { Refreshing } from './Refreshing.tsx';
import { useAppRangeQuery, useKeptQuery } from './useAnalytics.ts';

type Answer = z.infer<z.ZodObject<typeof ExploreAnswer>>;

export default function ExplorePage() {
  const { t } = useT();
  return <AppScreen title={t('nav.explore')} descriptionNoApp={t('explore.descriptionNoApp')}>{(app) => <Explore app={app} />}</AppScreen>;
}

function Explore({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readExploreState(params), [params]);
  const range = useDateRange((s) => s.range);
  const catalogue = useApiQuery('listEventDefinitions', { params: { appId: app.id }, scope: 'app' });
  const query = exploreQuery(state, range);
  const result = useKeptQuery(useAppRangeQuery('explore', app.id, query ?? {}, query !== null));
  // From the address as it is now, not as of this render: the shell writes the range into it too
  // (shell/useDateRangeInUrl.ts), and a change made before this screen re-rendered would drop it.
  const liveParams = () => new URLSearchParams(window.location.search);
  const update = (change: Partial<ExploreState>) => {
    const current = liveParams();
    setParams(keepRangeParams(writeExploreState({ ...readExploreState(current), ...change }), current), { replace: true });
  };
  // No event chosen: the app's most frequent one over the range, written into the URL once known.
  const frequent = useAppRangeQuery('listEvents', app.id, { startDay: range.startDay, endDay: range.endDay, people: false }, state.event === null);
  const opening = state.event === null && frequent.data ? mostFrequentEvent(frequent.data.events) : null;
  useEffect(() => {
    if (!opening) return;
    const current = new URLSearchParams(window.location.search);
    const now = readExploreState(current);
    setParams(keepRangeParams(writeExploreState({ ...now, event: now.event ?? opening }), current), { replace: true });
  }, [opening, setParams]);
  const custom = catalogue.data?.custom ?? [];
  const titleOf = (event: string) => eventLabel(t, event, custom.find((d) => d.name === event)?.label);

  return (
    <>
      <PageHeader title={t('nav.explore')} description={t('explore.description')} />
      <Stack gap="md">
        <DataState query={catalogue} rows={1}>
          {({ builtIn }) => <ExploreControls appId={app.id} state={state} onChange={update} custom={custom} builtIn={builtIn} />}
        </DataState>
        {query === null ? (
          state.event === null && frequent.data === undefined ? (
            <DataState query={frequent} rows={6}>{() => null}</DataState>
          ) : (
            <Paper withBorder>
              <EmptyBlock icon={<IconChartLine size={28} />} title={t('explore.chooseTitle')} description={t('explore.chooseBody')} />
            </Paper>
          )
        ) : (
          <DataState query={result} rows={6}>
            {(answer) => (
              <ExploreResult
                answer={answer}
                title={titleOf(answer.event)}
                chart={state.chart}
                timezone={app.timezone}
                refreshing={result.state === 'loading'}
                onChart={(chart) => update({ chart })}
              />
            )}
          </DataState>
        )}
      </Stack>
    </>
  );
}

/** One answer: labelled from the answer itself (it may be the previous query's while a new one loads). */
function ExploreResult({ answer, title, chart, timezone, refreshing, onChart }: {
  answer: Answer; title: string; chart: ChartType; timezone: string; refreshing: boolean; onChart: (c: ChartType) => void;
}) {
  const { t, lang } = useT();
  const format = metricFormatter(lang, answer.metric, answer.currency);
  const metricName = t(`explore.metrics.${answer.metric}`);
  const names = answer.series.map((s) => truncateLabel(seriesLabel(t, s.key, metricName)));
  const previousName = (name: string) => t('analytics.previous', { name });
  const table = buildExploreTable(answer, {
    bucket: answer.range.timeGroup === 'hour' ? t('explore.hour') : t('explore.bucket'),
    total: t('analytics.total'),
    series: (key) => truncateLabel(seriesLabel(t, key, metricName)),
    previous: previousName,
    format,
  });
  const folded = answer.series.some((s) => s.key === OTHER_SENTINEL);
  const nothing = answer.series.every((s) => s.total === 0 && (s.previousTotal ?? 0) === 0);
  if (nothing) {
    return (
      <Paper withBorder>
        <EmptyBlock icon={<IconMoodEmpty size={28} />} title={t('explore.emptyTitle')} description={t('explore.emptyBody', { event: truncateLabel(title) })} />
      </Paper>
    );
  }
  const exportCsv = () => downloadCsv(`explore-${answer.range.startDay}-${answer.range.endDay}-${title}.csv`, tableRows(table));

  return (
    <>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
          <Title order={2} fz="md" lineClamp={1} title={title}>
            {truncateLabel(title)} · {metricName}
          </Title>
          <Group gap="sm" wrap="wrap" justify="flex-end">
            <Refreshing active={refreshing} />
            <ScheduleReportLink kind="explore" query={{ event: answer.event, metric: answer.metric, ...(answer.breakdown ? { breakdown: answer.breakdown } : {}), ...(answer.property ? { property: answer.property } : {}) }} />
            <AddToDashboard widget={{ kind: 'explore', title: `${title} · ${metricName}`, query: { event: answer.event, metric: answer.metric, ...(answer.breakdown ? { breakdown: answer.breakdown } : {}), ...(answer.property ? { property: answer.property } : {}) } }} />
            <SegmentedControl
              size="xs"
              aria-label={t('explore.chartType')}
              value={chart}
              onChange={(v) => onChart(CHART_TYPES.find((c) => c === v) ?? 'lines')}
              data={CHART_TYPES.map((c) => ({ value: c, label: t(`explore.${c}`) }))}
            />
          </Group>
        </Group>
        <ExploreChart buckets={answer.buckets} series={answer.series} names={names} previousName={previousName} chart={chart} format={format} />
        {(answer.range.timeGroup === 'hour' || folded) && (
          <Text size="xs" c="dimmed" mt="xs">
            {[answer.range.timeGroup === 'hour' ? t('explore.hourNote', { zone: timezone }) : '', folded ? t('explore.topNote') : ''].filter(Boolean).join(' ')}
          </Text>
        )}
      </Paper>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} fz="md">
            {t('explore.table')}
          </Title>
          <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} onClick={exportCsv}>
            {t('explore.exportCsv')}
          </Button>
        </Group>
        <ExploreResultTable table={table} label={t('explore.table')} />
      </Stack>
    </>
  );
}
