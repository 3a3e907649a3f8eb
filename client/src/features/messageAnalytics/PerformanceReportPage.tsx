/**
 * /communication/performance-report: people impacted (first impression) or converted (after their
 * first interaction) with the app's messages by day, week or month of the shell's range, filtered
 * by channel and message: a bar chart, a table with the total, and the same figures as a CSV file
 * or a zip holding it. These are the people a performance-report import would take.
 */
import { useState } from 'react';
import { Button, Group, Input, MultiSelect, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { IconChartBar, IconDownload } from '@tabler/icons-react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { fillPath, endpointRoutes } from '@gd/shared/endpointRoutes';
import { rangeQuery } from '@gd/shared/apiBase';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { KpiType } from '@gd/shared/schemas/imports';
import type { PerformanceGroup } from '@gd/shared/schemas/messageAnalytics';
import { localeFor } from '@gd/shared/language';
import { apiBaseUrl } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { defaultGroupFor } from './performanceGroup.ts';

const CHANNELS = ['push', 'email', 'inapp', 'native'] as const;
const GROUPS = ['day', 'week', 'month'] as const satisfies readonly PerformanceGroup[];
const KPIS = ['impacts', 'conversions'] as const satisfies readonly KpiType[];
const BAR = '#228be6';

export default function PerformanceReportPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.performanceReport')} descriptionNoApp={t('messageAnalytics.performance.descriptionNoApp')}>{(app) => <Performance app={app} />}</AppScreen>;
}

function Performance({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const [kpiType, setKpiType] = useState<KpiType>('impacts');
  // The range's grouping, followed when the range changes, until one is chosen here.
  const [chosenGroup, setGroup] = useState<PerformanceGroup | null>(null);
  const group = chosenGroup ?? defaultGroupFor(range.timeGroup);
  const [channels, setChannels] = useState<string[]>([]);
  const [messageIds, setMessageIds] = useState<string[]>([]);
  const messages = useApiQuery('listMessages', { params: { appId: app.id }, query: { owner: 'all', scope: 'all' }, scope: 'app' });
  const query = { startDay: range.startDay, endDay: range.endDay, timeGroup: group, kpiType, channels, messageIds };
  const report = useApiQuery('performanceReport', { params: { appId: app.id }, query, scope: 'app', range: true });
  const fileUrl = (format: 'csv' | 'zip') => `${apiBaseUrl()}${fillPath(endpointRoutes.exportPerformanceReport.path, { appId: app.id })}?${rangeQuery({ ...query, format })}`;
  const number = new Intl.NumberFormat(localeFor(lang));
  const day = new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const dayLabel = (d: string) => day.format(new Date(`${d}T12:00:00Z`));
  const kpiName = t(`messageAnalytics.performance.kpi.${kpiType}`);

  return (
    <>
      <PageHeader
        title={t('nav.performanceReport')}
        description={t('messageAnalytics.performance.description')}
        actions={(
          <Group gap="xs">
            <Button component="a" href={fileUrl('csv')} download variant="default" leftSection={<IconDownload size={16} />} data-testid="export-csv">{t('messageAnalytics.performance.exportCsv')}</Button>
            <Button component="a" href={fileUrl('zip')} download variant="default" leftSection={<IconDownload size={16} />} data-testid="export-zip">{t('messageAnalytics.performance.exportZip')}</Button>
          </Group>
        )}
      />
      <Stack gap="md">
        <Paper withBorder radius="md" p="sm">
          <Group gap="md" align="flex-end" wrap="wrap">
            <Input.Wrapper label={t('messageAnalytics.performance.kpiType')} labelProps={{ id: 'perf-kpi' }}>
              <SegmentedControl display="flex" aria-labelledby="perf-kpi" value={kpiType} onChange={(v) => setKpiType(v)}
                data={KPIS.map((k) => ({ value: k, label: t(`messageAnalytics.performance.kpi.${k}`) }))} />
            </Input.Wrapper>
            <Input.Wrapper label={t('messageAnalytics.performance.group')} labelProps={{ id: 'perf-group' }}>
              <SegmentedControl display="flex" aria-labelledby="perf-group" value={group} onChange={(v) => setGroup(v)}
                data={GROUPS.map((g) => ({ value: g, label: t(`messageAnalytics.performance.groups.${g}`) }))} />
            </Input.Wrapper>
            <MultiSelect w={220} label={t('messageAnalytics.performance.channels')} placeholder={channels.length ? undefined : t('messageAnalytics.performance.anyChannel')}
              data={CHANNELS.map((c) => ({ value: c, label: t(`messageAnalytics.performance.channel.${c}`) }))} value={channels} onChange={setChannels} clearable />
            <MultiSelect w={300} label={t('messageAnalytics.performance.messages')} placeholder={messageIds.length ? undefined : t('messageAnalytics.performance.anyMessage')}
              data={(messages.data?.messages ?? []).map((m) => ({ value: m.id, label: m.name || m.id }))} value={messageIds} onChange={setMessageIds} searchable clearable maxValues={100} />
          </Group>
          <Text size="xs" c="dimmed" mt="xs">{t(`messageAnalytics.performance.kpiHelp.${kpiType}`)}</Text>
        </Paper>
        <DataState query={report} rows={6}>
          {({ report: r }) => r.total === 0 ? (
            <Paper withBorder>
              <EmptyBlock icon={<IconChartBar size={28} />} title={t('messageAnalytics.performance.emptyTitle')} description={t('messageAnalytics.performance.emptyBody')} />
            </Paper>
          ) : (
            <Stack gap="md">
              <Paper withBorder radius="md" p="md">
                <Group justify="space-between" mb="xs">
                  <Text fw={600} size="sm">{t('messageAnalytics.performance.chart', { kpi: kpiName, group: t(`messageAnalytics.performance.groups.${r.timeGroup}`).toLowerCase() })}</Text>
                  <Text size="sm" data-testid="performance-total">{t('messageAnalytics.performance.total')}: <b>{number.format(r.total)}</b></Text>
                </Group>
                <div role="img" aria-label={kpiName} data-testid="performance-chart">
                  <ResponsiveContainer width="100%" height={280}>
                    <BarChart data={r.rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                      <CartesianGrid stroke="#e9ecef" vertical={false} />
                      <XAxis dataKey="day" tickFormatter={(d: string) => new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`))}
                        stroke="#868e96" fontSize={12} tickLine={false} minTickGap={16} />
                      <YAxis allowDecimals={false} stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={44} />
                      <Tooltip formatter={(v) => number.format(Number(v))} labelFormatter={(d) => (typeof d === 'string' ? dayLabel(d) : '')} />
                      <Bar dataKey="value" name={kpiName} fill={BAR} isAnimationActive={false} radius={[3, 3, 0, 0]} />
                    </BarChart>
                  </ResponsiveContainer>
                </div>
              </Paper>
              <Paper withBorder radius="md">
                <Table striped fz="sm" data-testid="performance-table">
                  <Table.Thead>
                    <Table.Tr><Table.Th>{t('messageAnalytics.performance.date')}</Table.Th><Table.Th ta="right">{kpiName}</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {r.rows.map((row) => <Table.Tr key={row.day}><Table.Td>{dayLabel(row.day)}</Table.Td><Table.Td ta="right">{number.format(row.value)}</Table.Td></Table.Tr>)}
                  </Table.Tbody>
                  <Table.Tfoot>
                    <Table.Tr><Table.Th>{t('messageAnalytics.performance.total')}</Table.Th><Table.Th ta="right">{number.format(r.total)}</Table.Th></Table.Tr>
                  </Table.Tfoot>
                </Table>
              </Paper>
            </Stack>
          )}
        </DataState>
      </Stack>
    </>
  );
}
