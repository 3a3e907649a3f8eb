/**
 * /main/executive: every app of the account side by side and in total over the header's range
 * (getExecutive, account-scoped, cached as a range query): installs, active people, sessions,
 * revenue, ARPU, messages sent and conversions, each with its change on the previous period of
 * the same length. The totals lead as key figures; the table below has one row per app and the
 * total last. Revenue shows in its currency when every app named the same one; otherwise as plain
 * numbers with a note (the sum mixes currencies). Each app counts the days in its own time zone.
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { EXECUTIVE_FIGURES, type ExecutiveFigure, type FigurePair } from '@gd/shared/schemas/dashboards';
import { localeFor, truncateLabel, type Language } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { formatRange } from '../../shell/DateRangeControl.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatVariation } from '../../ui/format.ts';
import { moneyFormatter } from '../../ui/money.ts';

const MONEY = new Set<ExecutiveFigure>(['revenue', 'arpu']);

function figureFormat(lang: Language, figure: ExecutiveFigure, currency: string | null): (n: number) => string {
  if (MONEY.has(figure)) return moneyFormatter(lang, currency);
  const format = new Intl.NumberFormat(localeFor(lang), { maximumFractionDigits: 0 });
  return (n) => format.format(n);
}

/** The change on the previous period; without one, a dash in tables (its tooltip says why), the words on cards. */
function Change({ pair, short = false }: { pair: FigurePair; short?: boolean }) {
  const { t, lang } = useT();
  if (pair.previous === 0) {
    return short
      ? <Tooltip label={t('dashboards.widget.noPrevious')} withArrow><Text size="xs" c="dimmed" tabIndex={0}>—</Text></Tooltip>
      : <Text size="xs" c="dimmed">{t('dashboards.widget.noPrevious')}</Text>;
  }
  const ratio = (pair.current - pair.previous) / pair.previous;
  const color = ratio > 0 ? 'teal' : ratio < 0 ? 'red' : 'gray';
  return <Badge variant="light" color={color} tt="none" radius="sm" size="sm" data-testid="executive-change">{formatVariation(ratio, lang)}</Badge>;
}

export default function ExecutivePage() {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const result = useApiQuery('getExecutive', { query: { startDay: range.startDay, endDay: range.endDay }, range: true });
  return (
    <>
      <PageHeader title={t('nav.executive')} description={t('executive.description')} />
      <DataState query={result} rows={6}>
        {(answer) => {
          if (answer.apps.length === 0) {
            return <Paper withBorder><EmptyBlock icon={<IconBuildingStore size={28} />} title={t('executive.emptyTitle')} description={t('executive.emptyBody')} /></Paper>;
          }
          const locale = localeFor(lang);
          return (
            <Stack gap="md">
              <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
                {EXECUTIVE_FIGURES.map((f) => {
                  const pair = answer.total.figures[f];
                  return (
                    <Paper key={f} withBorder p="sm" radius="md" data-testid={`executive-total-${f}`}>
                      <Stack gap={4}>
                        <Tooltip label={t(`executive.hints.${f}`)} multiline w={240} withArrow>
                          <Text size="xs" c="dimmed" fw={600} truncate tabIndex={0}>{t(`executive.figures.${f}`)}</Text>
                        </Tooltip>
                        <Text fz={22} fw={700} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }} data-testid="executive-value">
                          {figureFormat(lang, f, answer.total.currency)(pair.current)}
                        </Text>
                        <Change pair={pair} />
                      </Stack>
                    </Paper>
                  );
                })}
              </SimpleGrid>
              <Paper withBorder>
                <Table.ScrollContainer minWidth={960}>
                  <Table aria-label={t('executive.table')} verticalSpacing="sm" striped={false} data-testid="executive-table">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('executive.app')}</Table.Th>
                        {EXECUTIVE_FIGURES.map((f) => (
                          <Table.Th key={f} ta="right">
                            <Tooltip label={t(`executive.hints.${f}`)} multiline w={240} withArrow><span tabIndex={0}>{t(`executive.figures.${f}`)}</span></Tooltip>
                          </Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {[...answer.apps.map((a) => ({ key: a.appId, name: a.name, note: a.timezone, currency: a.currency, figures: a.figures, total: false })),
                        { key: 'total', name: t('executive.total'), note: '', currency: answer.total.currency, figures: answer.total.figures, total: true }].map((row) => (
                        <Table.Tr key={row.key} data-testid={row.total ? 'executive-total-row' : 'executive-row'} style={row.total ? { background: 'var(--mantine-color-gray-0)', fontWeight: 600 } : undefined}>
                          <Table.Td>
                            <Tooltip label={row.name} disabled={row.name.length <= 50} withArrow>
                              <Text size="sm" fw={row.total ? 700 : 500}>{truncateLabel(row.name)}</Text>
                            </Tooltip>
                            {row.note && <Text size="xs" c="dimmed">{row.note}</Text>}
                          </Table.Td>
                          {EXECUTIVE_FIGURES.map((f) => (
                            <Table.Td key={f} ta="right" data-figure={f}>
                              <Stack gap={2} align="flex-end">
                                <Text size="sm" fw={row.total ? 700 : 400} style={{ fontVariantNumeric: 'tabular-nums' }}>{figureFormat(lang, f, row.currency)(row.figures[f].current)}</Text>
                                <Change pair={row.figures[f]} short />
                              </Stack>
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Paper>
              <Group gap="md">
                <Text size="xs" c="dimmed">{t('executive.previous', { range: formatRange(answer.previous, locale) })}</Text>
                <Text size="xs" c="dimmed">{t('executive.timezoneNote')}</Text>
                {answer.total.currency === null && answer.apps.filter((a) => a.figures.revenue.current !== 0).length > 1 && (
                  <Text size="xs" c="dimmed">{t('executive.mixedCurrencies')}</Text>
                )}
              </Group>
            </Stack>
          );
        }}
      </DataState>
    </>
  );
}
