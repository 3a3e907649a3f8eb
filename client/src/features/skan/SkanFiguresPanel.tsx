/** The decoded figures of the shell's date range: one row per campaign (unmapped identifiers last), one window at a time. */
import { useState } from 'react';
import { Badge, Group, Paper, SegmentedControl, Table, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { SKAN_WINDOW_DAYS, type SkanWindow } from '@gd/shared/acquisition/skan';
import { useT } from '../../i18n/useT.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useFreshOnMount } from './useFreshOnMount.ts';
import { DataState } from '../../ui/DataState.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { moneyFormatter } from '../../ui/money.ts';
import { EmptyBlock } from '../../ui/States.tsx';
import { revenueText, topEvents } from './skanView.ts';

export function SkanFiguresPanel({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const [win, setWin] = useState<SkanWindow>(0);
  const figures = useApiQuery('skanFigures', { params: { appId: app.id }, scope: 'app', range: true, query: { startDay: range.startDay, endDay: range.endDay } });
  useFreshOnMount(figures);
  const n = (x: number) => x.toLocaleString(lang);
  return (
    <DataState query={figures} rows={5}>
      {(answer) => {
        const money = moneyFormatter(lang, answer.currency);
        const totals = answer.campaigns.reduce((sum, c) => sum + (c.windows[0]?.installs ?? 0), 0);
        return (
          <>
            <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
              <SegmentedControl
                aria-label={t('skan.window')}
                value={String(win)}
                onChange={(v) => setWin(Number(v) as SkanWindow)}
                data={([0, 1, 2] as const).map((w) => ({ value: String(w), label: t('skan.windowN', { n: w + 1, from: SKAN_WINDOW_DAYS[w][0], to: SKAN_WINDOW_DAYS[w][1] }) }))}
                data-testid="skan-window"
              />
              <Text size="sm" c="dimmed" data-testid="skan-totals">
                {t('skan.totals', { installs: n(totals), rejected: n(answer.rejected) })}
              </Text>
            </Group>
            {answer.campaigns.length === 0 ? (
              <Paper withBorder>
                <EmptyBlock icon={<IconChartBar size={28} />} title={t('skan.figuresEmptyTitle')} description={t('skan.figuresEmptyBody')} />
              </Paper>
            ) : (
              <ListTable
                isEmpty={false}
                empty={null}
                label={t('skan.tabs.figures')}
                minWidth={980}
                head={
                  <>
                    <Table.Th>{t('skan.campaign')}</Table.Th>
                    <Table.Th ta="right">{t('skan.postbacks')}</Table.Th>
                    <Table.Th ta="right">{win === 0 ? t('skan.installs') : t('skan.fineCoarse')}</Table.Th>
                    {win === 0 && <Table.Th ta="right">{t('skan.redownloads')}</Table.Th>}
                    <Table.Th ta="right">{t('skan.noValue')}</Table.Th>
                    <Table.Th>{t('skan.conversions')}</Table.Th>
                    <Table.Th ta="right">{t('skan.revenue')}</Table.Th>
                  </>
                }
              >
                {answer.campaigns.map((c) => {
                  const w = c.windows[win];
                  if (!w) return null;
                  const events = topEvents(w.events);
                  return (
                    <Table.Tr key={c.campaignId ?? `${c.adNetworkId}:${c.sourceIdentifier}`} data-testid="skan-figure-row">
                      <Table.Td maw={320}>
                        {c.campaignId ? (
                          <Text size="sm" fw={600} truncate="end">{c.campaignName ?? t('skan.deletedCampaign')}</Text>
                        ) : (
                          <>
                            <Text size="sm" fw={600} c="dimmed">{t('skan.unmapped')}</Text>
                            <Text size="xs" c="dimmed" truncate="end">{c.adNetworkId} · {c.sourceIdentifier}</Text>
                          </>
                        )}
                      </Table.Td>
                      <Table.Td ta="right" className="gd-num">{n(w.postbacks)}</Table.Td>
                      <Table.Td ta="right" className="gd-num">{win === 0 ? n(w.installs) : `${n(w.fine)} / ${n(w.coarse)}`}</Table.Td>
                      {win === 0 && <Table.Td ta="right" className="gd-num">{n(w.redownloads)}</Table.Td>}
                      <Table.Td ta="right" className="gd-num">{n(w.noValue)}</Table.Td>
                      <Table.Td>
                        {events.length === 0 ? <Text size="sm" c="dimmed">—</Text> : (
                          <Group gap={4}>
                            {events.map(([event, count]) => <Badge key={event} variant="light" color="indigo" tt="none">{event} · {n(count)}</Badge>)}
                          </Group>
                        )}
                      </Table.Td>
                      <Table.Td ta="right" className="gd-num">{revenueText(w.revenueMin, w.revenueMax, money)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </ListTable>
            )}
          </>
        );
      }}
    </DataState>
  );
}
