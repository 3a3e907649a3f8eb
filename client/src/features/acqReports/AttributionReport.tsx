/**
 * The attribution reports (/acquisition/installs, uninstalls, retargeting, assisted-installs):
 * totals against the previous period, the first total over time, by source and by campaign
 * (assisted: the assisting clicks'), and the latest rows with their match kind.
 */
import { Badge, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { AcqReport, AcqReportGroup } from '@gd/shared/schemas/acqReports';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { ChangeText, KpiCard } from './KpiCard.tsx';
import { formatFigure } from './format.ts';
import { bucketLabel, tick } from './labels.ts';

const ENDPOINT = { installs: 'acqInstalls', uninstalls: 'acqUninstalls', retargeting: 'acqRetargeting', assisted: 'acqAssisted' } as const;
const TITLE = { installs: 'nav.installs', uninstalls: 'nav.uninstalls', retargeting: 'nav.retargeting', assisted: 'nav.assistedInstalls' } as const;
export type ReportKind = keyof typeof ENDPOINT;

export function AttributionReportPage({ kind }: { kind: ReportKind }) {
  const { t } = useT();
  return <AppScreen title={t(TITLE[kind])} descriptionNoApp={t('acqReports.descriptionNoApp')}>{(app) => <Report app={app} kind={kind} />}</AppScreen>;
}

function Report({ app, kind }: { app: MetaApp; kind: ReportKind }) {
  const { t } = useT();
  const range = useDateRange((s) => s.range);
  const report = useApiQuery(ENDPOINT[kind], { params: { appId: app.id }, query: { startDay: range.startDay, endDay: range.endDay, timeGroup: range.timeGroup }, scope: 'app', range: true });
  return (
    <>
      <PageHeader title={t(TITLE[kind])} description={t(`acqReports.${kind}.description`)} />
      <DataState query={report} rows={6}>
        {(data) => <ReportBody data={data} />}
      </DataState>
    </>
  );
}

function GroupTable({ title, rows, withSource, testId }: { title: string; rows: AcqReportGroup[]; withSource: boolean; testId: string }) {
  const { t, lang } = useT();
  return (
    <Paper withBorder radius="md">
      <Text fw={600} size="sm" p="md" pb={0}>{title}</Text>
      <Table.ScrollContainer minWidth={420}>
      <Table striped fz="sm" verticalSpacing="xs" data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{withSource ? t('acqReports.campaign') : t('acqReports.source')}</Table.Th>
            <Table.Th ta="right">{t('acqReports.count')}</Table.Th>
            <Table.Th ta="right">{t('acqReports.previousCount')}</Table.Th>
            <Table.Th ta="right">{t('acqReports.change')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((g) => (
            <Table.Tr key={g.id ?? 'organic'}>
              <Table.Td>
                <Text size="sm" fw={500}>{g.name}</Text>
                {/* The campaign's source under its name (as the app tracker shows it), so the table fits beside the other. */}
                {withSource && g.sourceName && <Text size="xs" c="dimmed">{g.sourceName}</Text>}
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{formatFigure(lang, 'count', g.current)}</Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{formatFigure(lang, 'count', g.previous)}</Table.Td>
              <Table.Td ta="right"><ChangeText current={g.current} previous={g.previous} /></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function ReportBody({ data }: { data: AcqReport }) {
  const { t, lang } = useT();
  const first = data.totals[0];
  const empty = data.totals.every((x) => x.current === 0 && x.previous === 0);
  const assisted = data.kind === 'assisted';
  const primaryLabel = first ? t(`acqReports.metric.${first.key}`) : '';
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" data-testid="report-kpis">
        {data.totals.map((x) => (
          <KpiCard key={x.key} testId={`kpi-${x.key}`} label={t(`acqReports.metric.${x.key}`)} kind="count" current={x.current} previous={x.previous}
            lowerIsBetter={data.kind === 'uninstalls'} />
        ))}
      </SimpleGrid>
      {empty ? (
        <Paper withBorder>
          <EmptyBlock icon={<IconChartBar size={28} />} title={t('acqReports.emptyTitle')} description={t('acqReports.emptyBody')} />
        </Paper>
      ) : (
        <>
          <Paper withBorder radius="md" p="md">
            <Text fw={600} size="sm" mb="xs">{primaryLabel}</Text>
            <div role="img" aria-label={primaryLabel} data-testid="report-chart">
              <ResponsiveContainer width="100%" height={240}>
                <BarChart data={data.series.labels.map((label, i) => ({ label, value: data.series.values[i] ?? 0 }))} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                  <CartesianGrid stroke="#e9ecef" vertical={false} />
                  <XAxis dataKey="label" tickFormatter={(l: string) => tick(l, lang)} stroke="#868e96" fontSize={12} tickLine={false} minTickGap={16} />
                  <YAxis allowDecimals={false} stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={44} />
                  <Tooltip labelFormatter={(l) => (typeof l === 'string' ? bucketLabel(l, lang) : '')} />
                  <Bar dataKey="value" name={primaryLabel} fill="#228be6" isAnimationActive={false} radius={[3, 3, 0, 0]} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </Paper>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <GroupTable title={t(assisted ? 'acqReports.assistingBySource' : 'acqReports.bySource')} rows={data.bySource} withSource={false} testId="report-by-source" />
            <GroupTable title={t(assisted ? 'acqReports.assistingByCampaign' : 'acqReports.byCampaign')} rows={data.byCampaign} withSource testId="report-by-campaign" />
          </SimpleGrid>
          <Paper withBorder radius="md">
            <Text fw={600} size="sm" p="md" pb={0}>{t('acqReports.latest')}</Text>
            <Table.ScrollContainer minWidth={760}>
              <Table striped fz="sm" verticalSpacing="xs" data-testid="report-latest">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('acqReports.time')}</Table.Th>
                    <Table.Th>{t('acqReports.person')}</Table.Th>
                    <Table.Th>{t('acqReports.kind')}</Table.Th>
                    <Table.Th>{t('acqReports.campaign')}</Table.Th>
                    <Table.Th>{t('acqReports.source')}</Table.Th>
                    <Table.Th>{t('acqReports.match')}</Table.Th>
                    {assisted && <Table.Th ta="right">{t('acqReports.assists')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.latest.map((r) => (
                    <Table.Tr key={`${r.time}-${r.personId}-${r.kind}`} data-testid="latest-row">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.time, lang)}</Table.Td>
                      <Table.Td>{r.personName ?? t('acqReports.personFallback', { id: r.personId })}</Table.Td>
                      <Table.Td>{isKind(r.kind) ? t(`acqReports.kinds.${r.kind}`) : r.kind}</Table.Td>
                      <Table.Td>{r.campaignName ?? '–'}</Table.Td>
                      <Table.Td>{r.sourceName}</Table.Td>
                      <Table.Td>{r.match ? <Badge size="sm" variant="light" color={r.match === 'organic' ? 'gray' : 'blue'} tt="none">{t(`acqReports.matches.${r.match}`)}</Badge> : '–'}</Table.Td>
                      {assisted && <Table.Td ta="right">{formatFigure(lang, 'count', r.assists)}</Table.Td>}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        </>
      )}
    </Stack>
  );
}

const KINDS = ['install', 'reinstall', 'uninstall', 'retargeting_open'] as const;
const isKind = (k: string): k is (typeof KINDS)[number] => (KINDS as readonly string[]).includes(k);
