/**
 * /communication/performance-histograms: the live sends of the shell's date range (optionally one
 * message, `?message=` in the URL): time from send to first open and to first click as
 * histograms, and sends and first opens by hour on each person's clock.
 */
import { useSearchParams } from 'react-router';
import { Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconChartHistogram } from '@tabler/icons-react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { AXIS_COLOR, GRID_COLOR, OPEN_COLOR, SEND_COLOR, TOOLTIP_STYLE, count } from './format.ts';

export default function HistogramsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.performanceHistograms')} descriptionNoApp={t('histograms.descriptionNoApp')}>{(app) => <Histograms app={app} />}</AppScreen>;
}

const ALL = '';

function Histograms({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const [params, setParams] = useSearchParams();
  const messageId = params.get('message') ?? ALL;
  const range = useDateRange((s) => s.range);
  const query = useApiQuery('performanceHistograms', {
    params: { appId: app.id }, scope: 'app', range: true,
    query: { startDay: range.startDay, endDay: range.endDay, ...(messageId ? { messageId } : {}) },
  });
  const n = count(lang);
  const choose = (value: string) => {
    const next = new URLSearchParams(window.location.search);
    if (value) next.set('message', value);
    else next.delete('message');
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader title={t('nav.performanceHistograms')} description={t('histograms.description')} />
      <DataState query={query} rows={6}>
        {(answer) => (
          <Stack gap="md">
            <Group gap="md" align="flex-end" wrap="wrap">
              <Select
                label={t('histograms.message')}
                data={[{ value: ALL, label: t('histograms.allMessages') }, ...answer.messages.map((m) => ({ value: m.id, label: m.name }))]}
                value={messageId}
                allowDeselect={false}
                searchable
                onChange={(v) => choose(v ?? ALL)}
                style={{ flex: '1 1 260px', maxWidth: 420 }}
                data-testid="histogram-message"
              />
              <Text size="sm" c="dimmed" pb={8} data-testid="histogram-totals">
                {t('histograms.totals', { sends: n(answer.totals.sends), opens: n(answer.totals.opens), clicks: n(answer.totals.clicks) })}
              </Text>
            </Group>
            {answer.totals.sends === 0 ? (
              <Paper withBorder>
                <EmptyBlock icon={<IconChartHistogram size={28} />} title={t('histograms.emptyTitle')} description={t('histograms.emptyBody')} />
              </Paper>
            ) : (
              <>
                <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
                  <DelayChart title={t('histograms.timeToOpen')} hint={t('histograms.timeToOpenHint')} buckets={answer.timeToOpen} color={OPEN_COLOR} testId="time-to-open" />
                  <DelayChart title={t('histograms.timeToClick')} hint={t('histograms.timeToClickHint')} buckets={answer.timeToClick} color={SEND_COLOR} testId="time-to-click" />
                </SimpleGrid>
                <Paper withBorder p="md">
                  <Title order={3} size="h5">{t('histograms.byHour')}</Title>
                  <Text size="xs" c="dimmed" mb="sm">{t('histograms.byHourHint')}</Text>
                  <div data-testid="by-hour" role="img" aria-label={t('histograms.byHour')}>
                    <ResponsiveContainer width="100%" height={280}>
                      <BarChart data={answer.byHour.map((h) => ({ ...h, label: `${String(h.hour).padStart(2, '0')}:00` }))} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                        <CartesianGrid stroke={GRID_COLOR} vertical={false} />
                        <XAxis dataKey="label" stroke={AXIS_COLOR} fontSize={12} tickLine={false} interval="preserveStartEnd" minTickGap={8} />
                        <YAxis stroke={AXIS_COLOR} fontSize={12} tickLine={false} axisLine={false} width={44} allowDecimals={false} tickFormatter={n} />
                        <Tooltip formatter={(value) => n(Number(value))} {...TOOLTIP_STYLE} />
                        <Legend wrapperStyle={{ fontSize: 13 }} />
                        <Bar dataKey="sends" name={t('histograms.sends')} fill={SEND_COLOR} isAnimationActive={false} />
                        <Bar dataKey="opens" name={t('histograms.opens')} fill={OPEN_COLOR} isAnimationActive={false} />
                      </BarChart>
                    </ResponsiveContainer>
                  </div>
                </Paper>
              </>
            )}
          </Stack>
        )}
      </DataState>
    </>
  );
}

function DelayChart({ title, hint, buckets, color, testId }: { title: string; hint: string; buckets: readonly { key: string; count: number }[]; color: string; testId: string }) {
  const { t, lang } = useT();
  const n = count(lang);
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  const data = buckets.map((b) => ({ label: t(`histograms.bucket.${b.key as 'm5'}`), count: b.count }));
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5">{title}</Title>
      <Text size="xs" c="dimmed" mb="sm">{hint}</Text>
      {total === 0 ? (
        <Text size="sm" c="dimmed" py="xl" ta="center">{t('histograms.nothing')}</Text>
      ) : (
        <div data-testid={testId} role="img" aria-label={title}>
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke={GRID_COLOR} vertical={false} />
              <XAxis dataKey="label" stroke={AXIS_COLOR} fontSize={11} tickLine={false} interval={0} angle={-35} textAnchor="end" height={54} />
              <YAxis stroke={AXIS_COLOR} fontSize={12} tickLine={false} axisLine={false} width={40} allowDecimals={false} tickFormatter={n} />
              <Tooltip formatter={(value) => [n(Number(value)), t('histograms.people')]} {...TOOLTIP_STYLE} />
              <Bar dataKey="count" name={t('histograms.people')} fill={color} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </Paper>
  );
}
