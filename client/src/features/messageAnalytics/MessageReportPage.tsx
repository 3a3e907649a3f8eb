/**
 * /communication/report: the messages of the current app that sent or were interacted with in the
 * shell's date range, their KPIs and the variation against the previous period of the same length,
 * the range's totals as tiles, a table sortable by any column, each name linking to its message.
 */
import { useMemo, useState } from 'react';
import { Paper, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChartBar, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { MessageKpis } from '@gd/shared/schemas/messageAnalytics';
import { variation } from '@gd/shared/messageAnalytics/variation';
import { localeFor } from '@gd/shared/language';
import { MessageStatusBadge } from '../../entities/message/MessageStatus.tsx';
import { formatVariation } from '../../ui/format.ts';
import { formatKpi, goodWhenUp, type KpiKey } from '../../entities/messageMetrics/format.ts';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { formatRange } from '../../shell/DateRangeControl.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { NAME_CELL_STYLE, NameLink } from '../../ui/NameLink.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { DEFAULT_REPORT_SORT, nextReportSort, sortReportRows, type ReportColumn, type ReportSort } from './reportRows.ts';

/** The columns of the table (the tiles show every KPI). */
const COLUMNS = ['sents', 'delivered', 'opens', 'clicks', 'ctr', 'conversionsDirect', 'conversionsIndirect', 'revenueDirect'] as const satisfies readonly KpiKey[];
const TILES = ['sents', 'delivered', 'fails', 'opens', 'clicks', 'ctr', 'conversionsDirect', 'conversionsIndirect', 'revenueDirect', 'revenueIndirect'] as const satisfies readonly KpiKey[];

export default function MessageReportPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.report')} descriptionNoApp={t('messageAnalytics.report.descriptionNoApp')}>{(app) => <Report app={app} />}</AppScreen>;
}

/** The change on the previous period; in the table (`compact`) a missing one is a dash titled with why. */
function Variation({ kpi, current, previous, compact = false }: { kpi: KpiKey; current: number | null; previous: number | null; compact?: boolean }) {
  const { t, lang } = useT();
  const ratio = variation(current, previous);
  const text = formatVariation(ratio, lang);
  if (text === null) {
    return compact
      ? <Text span size="xs" c="dimmed" title={t('messageAnalytics.report.noPrevious')} aria-label={t('messageAnalytics.report.noPrevious')}>–</Text>
      : <Text span size="xs" c="dimmed">{t('messageAnalytics.report.noPrevious')}</Text>;
  }
  const good = ratio === 0 ? null : (ratio ?? 0) > 0 === goodWhenUp(kpi);
  return <Text span size="xs" c={good === null ? 'dimmed' : good ? 'teal.8' : 'red.8'}>{text}</Text>;
}

function Tiles({ current, previous }: { current: MessageKpis; previous: MessageKpis }) {
  const { t, lang } = useT();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm" data-testid="report-totals">
      {TILES.map((k) => (
        <Paper key={k} withBorder radius="md" p="sm">
          <Text size="xs" c="dimmed">{t(`messageAnalytics.kpi.${k}`)}</Text>
          <Text fw={700} size="xl">{formatKpi(k, current[k], lang)}</Text>
          <Variation kpi={k} current={current[k]} previous={previous[k]} />
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function SortHeader({ column, label, sort, onSort, numeric }: { column: ReportColumn; label: string; sort: ReportSort; onSort: (c: ReportColumn) => void; numeric?: boolean }) {
  const { t } = useT();
  const active = sort.column === column;
  const Icon = sort.descending ? IconChevronDown : IconChevronUp;
  return (
    <Table.Th ta={numeric ? 'right' : undefined} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} aria-label={t('messageAnalytics.report.sortBy', { column: label })} style={{ fontWeight: 600, fontSize: 'inherit', whiteSpace: 'nowrap' }}>
        {label}{active && <Icon size={12} style={{ marginLeft: 4, verticalAlign: 'middle' }} />}
      </UnstyledButton>
    </Table.Th>
  );
}

function Report({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const [sort, setSort] = useState<ReportSort>(DEFAULT_REPORT_SORT);
  const query = useApiQuery('messageReport', { params: { appId: app.id }, query: { startDay: range.startDay, endDay: range.endDay }, scope: 'app', range: true });
  const rows = useMemo(() => sortReportRows(query.data?.report.messages ?? [], sort, localeFor(lang)), [query.data, sort, lang]);
  return (
    <>
      <PageHeader title={t('nav.report')} description={t('messageAnalytics.report.description', { app: app.name })} />
      <DataState query={query} rows={8}>
        {({ report }) => report.messages.length === 0 ? (
          <Paper withBorder>
            <EmptyBlock icon={<IconChartBar size={28} />} title={t('messageAnalytics.report.emptyTitle')} description={t('messageAnalytics.report.emptyBody')} />
          </Paper>
        ) : (
          <Stack gap="md">
            <Text size="sm" c="dimmed">{t('messageAnalytics.report.comparedWith', { range: formatRange(report.previous, localeFor(lang)) })}</Text>
            <Tiles current={report.total.current} previous={report.total.previous} />
            <Paper withBorder radius="md">
              <Table.ScrollContainer minWidth={1100}>
                <Table striped highlightOnHover fz="sm" data-testid="report-table">
                  <Table.Thead>
                    <Table.Tr>
                      <SortHeader column="name" label={t('messageAnalytics.report.message')} sort={sort} onSort={(c) => setSort(nextReportSort(sort, c))} />
                      <Table.Th>{t('messageAnalytics.report.status')}</Table.Th>
                      {COLUMNS.map((k) => <SortHeader key={k} column={k} label={t(`messageAnalytics.kpi.${k}`)} sort={sort} onSort={(c) => setSort(nextReportSort(sort, c))} numeric />)}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => (
                      <Table.Tr key={r.messageId} data-testid="report-row">
                        <Table.Td miw={220} style={NAME_CELL_STYLE}>
                          <NameLink to={`/communication/messaging?id=${r.messageId}`} name={r.name || '—'} label={t('messages.open', { name: r.name || '—' })} />
                          <Text size="xs" c="dimmed">{r.campaignName} · {t(`messages.type.${r.type}`)}</Text>
                        </Table.Td>
                        <Table.Td miw={120}><MessageStatusBadge status={r.status} /></Table.Td>
                        {COLUMNS.map((k) => (
                          <Table.Td key={k} ta="right">
                            <Text size="sm">{formatKpi(k, r.current[k], lang)}</Text>
                            <Variation kpi={k} current={r.current[k]} previous={r.previous[k]} compact />
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
          </Stack>
        )}
      </DataState>
    </>
  );
}
