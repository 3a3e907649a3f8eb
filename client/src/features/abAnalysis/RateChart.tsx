/**
 * Each variant's rate on the chosen metric as a bar (the winner in green) and, right under it, its
 * 95% interval as a thin bar from the interval's low to its high end (an invisible stacked segment
 * up to the low end, then the interval). Recharts' ErrorBar was tried first: it draws nothing for a
 * 0% rate, which is exactly where the interval matters most.
 */
import { Box, Group, Text } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AbAnalysis } from '@gd/shared/schemas/abAnalysis';
import { useT } from '../../i18n/useT.ts';
import { AXIS_COLOR, GRID_COLOR, INTERVAL_COLOR, TOOLTIP_STYLE, VARIANT_COLOR, WINNER_COLOR, percent } from './format.ts';

export function RateChart({ analysis }: { analysis: AbAnalysis }) {
  const { t, lang } = useT();
  const pct = percent(lang);
  const rateName = t(`abAnalysis.rateOf.${analysis.metric}`);
  const data = analysis.variants.map((v) => {
    const r = v.rates[analysis.metric];
    return { name: v.name, id: v.id, rate: r.rate, low: r.low, high: r.high, span: Math.max(0.002, r.high - r.low) };
  });
  const top = Math.min(1, Math.max(0.05, ...data.map((d) => d.high)) * 1.1);
  const height = Math.max(150, 64 * data.length + 40);
  return (
    <div data-testid="ab-rate-chart" role="img" aria-label={t('abAnalysis.chartLabel', { rate: rateName })}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={GRID_COLOR} horizontal={false} />
          <XAxis type="number" domain={[0, top]} tickFormatter={(x: number) => pct(x)} stroke={AXIS_COLOR} fontSize={12} tickLine={false} />
          <YAxis type="category" dataKey="name" stroke={AXIS_COLOR} fontSize={12} tickLine={false} axisLine={false} width={110} />
          <Tooltip
            formatter={(_value, _name, item) => {
              const p = item.payload as { rate: number; low: number; high: number };
              return [`${pct(p.rate)} (${t('abAnalysis.interval', { low: pct(p.low), high: pct(p.high) })})`, rateName];
            }}
            cursor={{ fill: 'rgba(0, 0, 0, 0.03)' }}
            {...TOOLTIP_STYLE}
          />
          <Bar dataKey="rate" name={rateName} barSize={20} isAnimationActive={false}>
            {data.map((d) => <Cell key={d.id} fill={d.id === analysis.decision.winnerId ? WINNER_COLOR : VARIANT_COLOR} />)}
          </Bar>
          <Bar dataKey="low" stackId="interval" barSize={6} fill="transparent" isAnimationActive={false} legendType="none" tooltipType="none" />
          <Bar dataKey="span" stackId="interval" barSize={6} fill={INTERVAL_COLOR} radius={3} isAnimationActive={false} legendType="none" tooltipType="none" />
        </BarChart>
      </ResponsiveContainer>
      <Group gap="lg" justify="center" mt={4} aria-hidden>
        <Group gap={6}><Box w={12} h={12} bg={VARIANT_COLOR} style={{ borderRadius: 2 }} /><Text size="xs" c="dimmed">{rateName}</Text></Group>
        <Group gap={6}><Box w={16} h={5} bg={INTERVAL_COLOR} style={{ borderRadius: 3 }} /><Text size="xs" c="dimmed">{t('abAnalysis.intervalLegend')}</Text></Group>
      </Group>
    </div>
  );
}
