/**
 * A funnel answer: the headline figures (entered, converted, overall conversion with the previous
 * period, median and average time to convert), the funnel bars, the steps table with the way into
 * the people who converted or dropped at each step, the breakdown table (each count opens the
 * people of that value who reached the step), the time-to-convert histogram and conversion over
 * time. Labelled from the answer itself (it may be the previous query's while a new one loads).
 */
import { Paper, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconMoodEmpty } from '@tabler/icons-react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '@gd/shared/behaviour/events';
import { localeFor, truncateLabel } from '@gd/shared/language';
import type { FunnelAnswer } from '@gd/shared/schemas/funnels';
import { FunnelChart } from '../../entities/funnel/FunnelChart.tsx';
import { durationParts, formatCount, formatPercent } from '../../entities/funnel/format.ts';
import { useT } from '../../i18n/useT.ts';
import { formatVariation } from '../../ui/format.ts';
import { EmptyBlock } from '../../ui/States.tsx';

export interface DrillTarget { step: number; outcome: 'converted' | 'dropped'; breakdownValue?: string }

const TOOLTIP = {
  contentStyle: { borderRadius: 8, border: '1px solid #dee2e6', boxShadow: '0 4px 12px rgba(0, 0, 0, 0.08)', fontSize: 13, padding: '8px 12px' },
  labelStyle: { fontWeight: 600, marginBottom: 4 },
} as const;

function useDuration() {
  const { t } = useT();
  return (seconds: number | null) => {
    if (seconds === null) return '—';
    const { n, unit } = durationParts(seconds);
    return t(`funnels.duration.${unit}`, { n });
  };
}

function Figure({ label, value, note, testId }: { label: string; value: string; note?: string | null; testId?: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={22} fw={700} data-testid={testId}>
        {value}
      </Text>
      {note ? (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      ) : null}
    </Paper>
  );
}

function bucketTick(bucket: string, lang: 'en' | 'es' | 'to'): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(bucket)) return bucket;
  return new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${bucket}T12:00:00Z`));
}

export function FunnelResult({ answer, labels, timezone, onDrill }: {
  answer: FunnelAnswer;
  /** Display name of each step. */
  labels: readonly string[];
  timezone: string;
  onDrill: (target: DrillTarget) => void;
}) {
  const { t, lang } = useT();
  const duration = useDuration();
  const { total } = answer;
  const n = answer.steps.length;
  const last = n - 1;
  if ((total.counts[0] ?? 0) === 0 && (answer.previous?.total.counts[0] ?? 0) === 0) {
    return (
      <Paper withBorder>
        <EmptyBlock icon={<IconMoodEmpty size={28} />} title={t('funnels.emptyTitle')} description={t('funnels.emptyBody')} />
      </Paper>
    );
  }
  const previousConversion = answer.previous ? (answer.previous.total.conversion[last] ?? 0) : null;
  const conversionNote = previousConversion === null ? null
    : `${t('funnels.previous', { value: formatPercent(previousConversion, lang) })}${previousConversion > 0 ? ` (${formatVariation(((total.conversion[last] ?? 0) - previousConversion) / previousConversion, lang)})` : ''}`;
  const breakdownLabel = (key: string | null) => (key === EMPTY_SENTINEL ? t('analytics.empty') : key === OTHER_SENTINEL ? t('analytics.other') : truncateLabel(key ?? ''));
  const folded = answer.breakdown.some((s) => s.key === OTHER_SENTINEL);
  const overTime = answer.overTime.buckets.map((bucket, i) => {
    const entered = answer.overTime.entered[i] ?? 0;
    return { bucket, rate: entered === 0 ? null : (answer.overTime.converted[i] ?? 0) / entered, entered };
  });
  const histogram = answer.histogram.map((h) => ({ label: t('funnels.upTo', { time: duration(h.upTo) }), people: h.people }));
  const prevNote = (k: number) => (answer.previous ? t('funnels.previous', { value: formatCount(answer.previous.total.counts[k] ?? 0, lang) }) : null);

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
        <Figure label={t('funnels.entered')} value={formatCount(total.counts[0] ?? 0, lang)} note={prevNote(0)} testId="funnel-entered" />
        <Figure label={t('funnels.converted')} value={formatCount(total.counts[last] ?? 0, lang)} note={prevNote(last)} testId="funnel-converted" />
        <Figure label={t('funnels.overall')} value={formatPercent(total.conversion[last] ?? 0, lang)} note={conversionNote} testId="funnel-conversion" />
        <Figure label={t('funnels.medianTime')} value={duration(total.medianSeconds)} note={total.medianSeconds === null ? t('funnels.noTime') : null} />
        <Figure label={t('funnels.avgTime')} value={duration(total.avgSeconds)} note={answer.previous?.total.avgSeconds != null ? t('funnels.previous', { value: duration(answer.previous.total.avgSeconds) }) : null} />
      </SimpleGrid>

      <Paper withBorder p="md">
        <FunnelChart answer={answer} labels={labels} />
      </Paper>

      <Stack gap="xs">
        <Title order={2} fz="md">
          {t('funnels.stepsTable')}
        </Title>
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label={t('funnels.stepsTable')} style={{ whiteSpace: 'nowrap' }} data-testid="funnel-steps">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('funnels.steps')}</Table.Th>
                  <Table.Th ta="right">{t('funnels.people')}</Table.Th>
                  <Table.Th ta="right">{t('funnels.overall')}</Table.Th>
                  <Table.Th ta="right">{t('funnels.fromPrevious')}</Table.Th>
                  <Table.Th ta="right">{t('funnels.dropped')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {answer.steps.map((_, k) => (
                  <Table.Tr key={k} data-testid={`funnel-row-${k + 1}`}>
                    <Table.Td title={labels[k]}>
                      {k + 1}. {truncateLabel(labels[k] ?? '')}
                    </Table.Td>
                    <Table.Td ta="right" data-testid="count">
                      <UnstyledButton fz="sm" c="blue" fw={600} onClick={() => onDrill({ step: k + 1, outcome: 'converted' })} aria-label={t('funnels.showConverted', { n: k + 1 })}>
                        {formatCount(total.counts[k] ?? 0, lang)}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td ta="right">{formatPercent(total.conversion[k] ?? 0, lang)}</Table.Td>
                    <Table.Td ta="right">{k === 0 ? '—' : formatPercent(total.stepConversion[k] ?? 0, lang)}</Table.Td>
                    <Table.Td ta="right" data-testid="dropped">
                      {k === 0 ? '—' : (
                        <UnstyledButton fz="sm" c="orange.8" fw={600} onClick={() => onDrill({ step: k + 1, outcome: 'dropped' })} aria-label={t('funnels.showDropped', { n: k + 1 })}>
                          {formatCount((total.counts[k - 1] ?? 0) - (total.counts[k] ?? 0), lang)}
                        </UnstyledButton>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      </Stack>

      <Text size="xs" c="dimmed" mt={-8}>
        {t('funnels.drillHint')}
      </Text>

      {answer.breakdown.length > 0 && (
        <Stack gap="xs">
          <Title order={2} fz="md">
            {t('funnels.breakdown')}
          </Title>
          <Paper withBorder>
            <Table.ScrollContainer minWidth={Math.max(560, 160 + n * 110)}>
              <Table aria-label={t('funnels.breakdown')} style={{ whiteSpace: 'nowrap' }} data-testid="funnel-breakdown-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('funnels.series')}</Table.Th>
                    {answer.steps.map((_, k) => (
                      <Table.Th key={k} ta="right" title={labels[k]}>
                        {k + 1}. {truncateLabel(labels[k] ?? '', 18)}
                      </Table.Th>
                    ))}
                    <Table.Th ta="right">{t('funnels.overall')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {answer.breakdown.map((s) => (
                    <Table.Tr key={s.key}>
                      <Table.Td title={s.key ?? ''}>{breakdownLabel(s.key)}</Table.Td>
                      {s.counts.map((c, k) => (
                        <Table.Td key={k} ta="right">
                          <UnstyledButton fz="sm" c="blue" onClick={() => onDrill({ step: k + 1, outcome: 'converted', breakdownValue: s.key ?? '' })}>
                            {formatCount(c, lang)}
                          </UnstyledButton>
                        </Table.Td>
                      ))}
                      <Table.Td ta="right">{formatPercent(s.conversion[last] ?? 0, lang)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          {folded && (
            <Text size="xs" c="dimmed">
              {t('funnels.topNote')}
            </Text>
          )}
        </Stack>
      )}

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder p="md">
          <Title order={2} fz="md" mb="sm">
            {t('funnels.timeToConvert')}
          </Title>
          <div role="img" aria-label={t('funnels.timeToConvert')}>
            <ResponsiveContainer width="100%" height={240}>
              <BarChart data={histogram} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid stroke="#e9ecef" vertical={false} />
                <XAxis dataKey="label" stroke="#868e96" fontSize={11} tickLine={false} interval="preserveStartEnd" />
                <YAxis stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={44} allowDecimals={false} />
                <Tooltip formatter={(v) => [formatCount(Number(v), lang), t('funnels.people')]} {...TOOLTIP} />
                <Bar dataKey="people" fill="#12b886" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} fz="md" mb="sm">
            {t('funnels.overTime')}
          </Title>
          <div role="img" aria-label={t('funnels.overTime')}>
            <ResponsiveContainer width="100%" height={240}>
              <LineChart data={overTime} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                <CartesianGrid stroke="#e9ecef" vertical={false} />
                <XAxis dataKey="bucket" stroke="#868e96" fontSize={12} tickLine={false} minTickGap={16} tickFormatter={(b: string) => bucketTick(b, lang)} />
                <YAxis stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={52} domain={[0, 1]} tickFormatter={(v: number) => formatPercent(v, lang)} />
                <Tooltip formatter={(v) => [formatPercent(Number(v), lang), t('funnels.conversion')]} labelFormatter={(b) => (typeof b === 'string' ? bucketTick(b, lang) : '')} {...TOOLTIP} />
                <Line dataKey="rate" stroke="#228be6" strokeWidth={2} dot={overTime.length < 40} connectNulls isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
          {answer.range.timeGroup === 'hour' && (
            <Text size="xs" c="dimmed" mt="xs">
              {t('funnels.hourNote', { zone: timezone })}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
