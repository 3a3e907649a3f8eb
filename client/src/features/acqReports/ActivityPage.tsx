/**
 * /acquisition/activity: clicks, installs, conversion rate, cost, revenue and ROI over the shell's
 * range against the previous period (acqActivity), a chart over time and the figures by source
 * (with Organic). Definitions: shared schemas/acqReports.ts and acquisition/metrics.ts.
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { AcqActivity, ActivityFigures } from '@gd/shared/schemas/acqReports';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { ChangeText, KpiCard } from './KpiCard.tsx';
import { formatFigure, type FigureKind } from './format.ts';
import { bucketLabel, tick } from './labels.ts';

const METRICS = [
  { key: 'clicks', kind: 'count' },
  { key: 'installs', kind: 'count' },
  { key: 'conversionRate', kind: 'percent' },
  { key: 'cost', kind: 'money', lowerIsBetter: true },
  { key: 'revenue', kind: 'money' },
  { key: 'roi', kind: 'percent' },
] as const satisfies readonly { key: keyof ActivityFigures; kind: FigureKind; lowerIsBetter?: boolean }[];

export default function ActivityPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.activity')} descriptionNoApp={t('acqReports.descriptionNoApp')}>{(app) => <Activity app={app} />}</AppScreen>;
}

function Activity({ app }: { app: MetaApp }) {
  const { t } = useT();
  const range = useDateRange((s) => s.range);
  const report = useApiQuery('acqActivity', { params: { appId: app.id }, query: { startDay: range.startDay, endDay: range.endDay, timeGroup: range.timeGroup }, scope: 'app', range: true });
  return (
    <>
      <PageHeader title={t('nav.activity')} description={t('acqReports.activity.description')} />
      <DataState query={report} rows={6}>
        {(data) => <ActivityBody data={data} />}
      </DataState>
    </>
  );
}

function ActivityBody({ data }: { data: AcqActivity }) {
  const { t, lang } = useT();
  const empty = data.totals.current.clicks === 0 && data.totals.current.installs === 0 && data.totals.previous.clicks === 0 && data.totals.previous.installs === 0;
  const points = data.series.labels.map((label, i) => ({
    label, clicks: data.series.clicks[i] ?? 0, installs: data.series.installs[i] ?? 0, cost: data.series.cost[i] ?? 0, revenue: data.series.revenue[i] ?? 0,
  }));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }} spacing="md" data-testid="activity-kpis">
        {METRICS.map((m) => (
          <KpiCard key={m.key} testId={`kpi-${m.key}`} label={t(`acqReports.metric.${m.key}`)} hint={t(`acqReports.hint.${m.key}`)} kind={m.kind}
            current={data.totals.current[m.key]} previous={data.totals.previous[m.key]} lowerIsBetter={'lowerIsBetter' in m} />
        ))}
      </SimpleGrid>
      {empty ? (
        <Paper withBorder>
          <EmptyBlock icon={<IconChartBar size={28} />} title={t('acqReports.activity.emptyTitle')} description={t('acqReports.activity.emptyBody')} />
        </Paper>
      ) : (
        <>
          <Paper withBorder radius="md" p="md">
            <Text fw={600} size="sm" mb="xs">{t('acqReports.activity.chart')}</Text>
            <div role="img" aria-label={t('acqReports.activity.chart')} data-testid="activity-chart">
              <ResponsiveContainer width="100%" height={280}>
                <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                  <CartesianGrid stroke="#e9ecef" vertical={false} />
                  <XAxis dataKey="label" tickFormatter={(l: string) => tick(l, lang)} stroke="#868e96" fontSize={12} tickLine={false} minTickGap={16} />
                  <YAxis yAxisId="count" allowDecimals={false} stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={44} />
                  <YAxis yAxisId="money" orientation="right" stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={56} />
                  <Tooltip labelFormatter={(l) => (typeof l === 'string' ? bucketLabel(l, lang) : '')} />
                  <Legend wrapperStyle={{ fontSize: 12 }} />
                  <Bar yAxisId="count" dataKey="clicks" name={t('acqReports.metric.clicks')} fill="#a5d8ff" isAnimationActive={false} radius={[3, 3, 0, 0]} />
                  <Bar yAxisId="count" dataKey="installs" name={t('acqReports.metric.installs')} fill="#228be6" isAnimationActive={false} radius={[3, 3, 0, 0]} />
                  <Line yAxisId="money" dataKey="cost" name={t('acqReports.metric.cost')} stroke="#e8590c" dot={false} isAnimationActive={false} />
                  <Line yAxisId="money" dataKey="revenue" name={t('acqReports.metric.revenue')} stroke="#12b886" dot={false} isAnimationActive={false} />
                </ComposedChart>
              </ResponsiveContainer>
            </div>
          </Paper>
          <Paper withBorder radius="md">
            <Text fw={600} size="sm" p="md" pb={0}>{t('acqReports.activity.bySource')}</Text>
            <Table.ScrollContainer minWidth={900}>
              <Table striped fz="sm" verticalSpacing="xs" data-testid="activity-sources">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('acqReports.source')}</Table.Th>
                    {METRICS.map((m) => <Table.Th key={m.key} ta="right">{t(`acqReports.metric.${m.key}`)}</Table.Th>)}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.sources.map((s) => (
                    <Table.Tr key={s.sourceId ?? 'organic'} data-testid="source-row">
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text size="sm" fw={500}>{s.name}</Text>
                          {s.type && <Badge size="xs" variant="light" color="gray" tt="none">{t(`acqReports.sourceTypes.${s.type}`)}</Badge>}
                        </Group>
                      </Table.Td>
                      {METRICS.map((m) => (
                        <Table.Td key={m.key} ta="right" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                          {formatFigure(lang, m.kind, s.current[m.key])}{' '}
                          <ChangeText current={s.current[m.key]} previous={s.previous[m.key]} lowerIsBetter={'lowerIsBetter' in m} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr>
                    <Table.Th>{t('acqReports.total')}</Table.Th>
                    {METRICS.map((m) => <Table.Th key={m.key} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{formatFigure(lang, m.kind, data.totals.current[m.key])}</Table.Th>)}
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        </>
      )}
    </Stack>
  );
}
