/**
 * The retention triangle and curve of a cohort answer (the cohort page draws them; dashboards draw
 * cohort widgets with `compact`).
 *
 * Decisions: each cell shows the percentage of its cohort and, on hover, the percentage with the
 * count and the cohort size; colours are heat.ts's (readable in both themes). Periods not over yet
 * are hatched and dimmed and left out of the "weighted average" row and the curve (the answer's
 * curve already leaves them out). A period that has not begun is an empty cell. The first row is the
 * weighted average over cohorts, as Mixpanel and Amplitude show it. Cells become buttons when
 * `onCell` is given (saving a cell as an audience).
 */
import { Box, ScrollArea, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip as ChartTooltip, XAxis, YAxis } from 'recharts';
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '@gd/shared/behaviour/events';
import { localeFor, truncateLabel, type Language } from '@gd/shared/language';
import type { CohortAnswer, CohortPeriod, CohortRow, CurvePoint } from '@gd/shared/schemas/cohorts';
import { useT } from '../../i18n/useT.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { heatStyle, percent, rateOf } from './heat.ts';

/** The label of a cohort's bucket: a day, "week of" a Monday, a month. */
export function cohortLabel(day: string, period: CohortPeriod, lang: Language): string {
  const date = new Date(`${day}T12:00:00Z`);
  const locale = localeFor(lang);
  if (period === 'month') return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);
}

export const periodLabel = (t: TFunction, period: CohortPeriod, n: number) => t(`cohorts.periodLabel.${period}`, { n });

/** A breakdown value as people read it. */
export function segmentLabel(t: TFunction, key: string): string {
  if (key === EMPTY_SENTINEL || key === '') return t('analytics.empty');
  if (key === OTHER_SENTINEL) return t('analytics.other');
  return truncateLabel(key);
}

export interface CellPick { cohort: string; period: number; count: number }

function Cell({ count, size, complete, compact, label, onPick }: {
  count: number | null | undefined; size: number; complete: boolean; compact: boolean; label: string; onPick?: (() => void) | undefined;
}) {
  const { t, lang } = useT();
  const fmt = percent(lang);
  if (count === null || count === undefined) return <Table.Td aria-label={label} />;
  const rate = rateOf(count, size);
  const style = heatStyle(rate ?? 0, complete);
  const text = rate === null ? '—' : fmt(rate);
  const title = `${t('cohorts.cellTitle', { rate: text, count: count.toLocaleString(localeFor(lang)), size: size.toLocaleString(localeFor(lang)) })}${complete ? '' : ` · ${t('cohorts.incomplete')}`}`;
  const inner = (
    <Box
      px={compact ? 4 : 6}
      py={compact ? 2 : 6}
      style={{ background: style.background, color: style.color, opacity: style.opacity, borderRadius: 4, textAlign: 'center', fontVariantNumeric: 'tabular-nums', minWidth: compact ? 40 : 56 }}
      data-complete={complete}
    >
      <Text span size={compact ? 'xs' : 'sm'} fw={500} c="inherit">{text}</Text>
    </Box>
  );
  return (
    <Table.Td p={2}>
      <Tooltip label={title} withinPortal openDelay={100}>
        {onPick && count > 0 ? (
          <UnstyledButton onClick={onPick} aria-label={`${label}: ${title}`} display="block" w="100%" data-testid="cohort-cell">
            {inner}
          </UnstyledButton>
        ) : (
          <Box aria-label={`${label}: ${title}`} role="img">{inner}</Box>
        )}
      </Tooltip>
    </Table.Td>
  );
}

export function RetentionTable({ answer, rows = answer.rows, curve = answer.curve, compact = false, onCell }: {
  answer: CohortAnswer;
  /** The rows and curve shown: the answer's (default), or one breakdown segment's. */
  rows?: readonly CohortRow[];
  curve?: readonly CurvePoint[];
  compact?: boolean;
  onCell?: (pick: CellPick) => void;
}) {
  const { t, lang } = useT();
  const periods = Array.from({ length: answer.periods + 1 }, (_, n) => n);
  const size = rows.reduce((a, r) => a + r.size, 0);
  const numbers = new Intl.NumberFormat(localeFor(lang));
  const fs = compact ? 'xs' : 'sm';
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table withRowBorders={false} verticalSpacing={0} horizontalSpacing={compact ? 4 : 'xs'} fz={fs} style={{ borderCollapse: 'separate', borderSpacing: 0 }} aria-label={t('cohorts.table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={{ whiteSpace: 'nowrap' }}>{t('cohorts.cohort')}</Table.Th>
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>{t('cohorts.people')}</Table.Th>
            {periods.map((n) => (
              <Table.Th key={n} ta="center" style={{ whiteSpace: 'nowrap' }}>{periodLabel(t, answer.period, n)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr h={compact ? 26 : 38}>
            <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>{t('cohorts.weighted')}</Table.Td>
            <Table.Td ta="right" fw={600}>{numbers.format(size)}</Table.Td>
            {periods.map((n) => {
              const point = curve[n];
              return (
                <Cell key={n} count={point && point.rate !== null ? point.people : null} size={point?.cohortPeople ?? 0} complete compact={compact} label={`${t('cohorts.weighted')}, ${periodLabel(t, answer.period, n)}`} />
              );
            })}
          </Table.Tr>
          {rows.map((row) => {
            const label = cohortLabel(row.cohort, answer.period, lang);
            return (
              <Table.Tr key={row.cohort} data-cohort={row.cohort} h={compact ? 26 : 38}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{label}</Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{numbers.format(row.size)}</Table.Td>
                {periods.map((n) => {
                  const count = row.counts[n];
                  return (
                    <Cell
                      key={n}
                      count={row.size === 0 ? null : count}
                      size={row.size}
                      complete={row.complete[n] ?? false}
                      compact={compact}
                      label={`${label}, ${periodLabel(t, answer.period, n)}`}
                      onPick={onCell && count !== null && count !== undefined ? () => onCell({ cohort: row.cohort, period: n, count }) : undefined}
                    />
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

const PALETTE = ['#228be6', '#12b886', '#fab005', '#e8590c', '#7950f2', '#e64980', '#15aabf', '#82c91e', '#4c6ef5', '#be4bdb', '#adb5bd'];

/** The weighted retention curve, one line per breakdown segment when there are some. */
export function RetentionCurve({ answer, height = 260 }: { answer: CohortAnswer; height?: number }) {
  const { t, lang } = useT();
  const fmt = percent(lang);
  const lines = answer.segments
    ? answer.segments.map((s, i) => ({ key: `s${i}`, name: segmentLabel(t, s.key), curve: s.curve, color: s.key === OTHER_SENTINEL ? '#adb5bd' : (PALETTE[i % PALETTE.length] ?? '#228be6') }))
    : [{ key: 'all', name: t('cohorts.allPeople'), curve: answer.curve, color: PALETTE[0] ?? '#228be6' }];
  const data = Array.from({ length: answer.periods + 1 }, (_, n) => {
    const point: Record<string, number | string | null> = { label: periodLabel(t, answer.period, n) };
    for (const line of lines) point[line.key] = line.curve[n]?.rate ?? null;
    return point;
  });
  return (
    <Box h={height} role="img" aria-label={t('cohorts.curve')}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--mantine-color-default-border)" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: 'var(--mantine-color-dimmed)' }} tickLine={false} axisLine={false} />
          <YAxis domain={[0, 1]} tickFormatter={(v: number) => fmt(v)} tick={{ fontSize: 12, fill: 'var(--mantine-color-dimmed)' }} tickLine={false} axisLine={false} width={48} />
          <ChartTooltip
            formatter={(v) => (typeof v === 'number' ? fmt(v) : '—')}
            contentStyle={{ borderRadius: 8, border: '1px solid var(--mantine-color-default-border)', background: 'var(--mantine-color-body)', fontSize: 13 }}
          />
          {lines.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {lines.map((line) => (
            <Line key={line.key} type="linear" dataKey={line.key} name={line.name} stroke={line.color} strokeWidth={2} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </Box>
  );
}
