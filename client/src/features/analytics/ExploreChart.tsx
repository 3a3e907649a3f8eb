/**
 * The explore chart: one line (or one stacked bar segment) per series; with a comparison, the
 * previous period as a dashed line in the series' colour (or a second, paler stack beside it).
 * The legend names each series once and says once how the previous period is drawn.
 */
import { Group, Text } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ExploreSeries } from '@gd/shared/schemas/behaviour';
import { useT } from '../../i18n/useT.ts';
import { AXIS_COLOR, GRID_COLOR, TOOLTIP_STYLE, bucketTick, compactNumber, seriesColor } from './chartStyle.ts';
import type { ChartType } from './exploreState.ts';

const HEIGHT = 340;

export function ExploreChart({ buckets, series, names, previousName, chart, format }: {
  buckets: readonly string[];
  series: readonly ExploreSeries[];
  /** Display name of each series, in order. */
  names: readonly string[];
  previousName: (name: string) => string;
  chart: ChartType;
  format: (n: number) => string;
}) {
  const { t, lang } = useT();
  const data = buckets.map((bucket, i) => {
    const point: Record<string, string | number> = { bucket };
    series.forEach((s, j) => {
      point[`s${j}`] = s.values[i] ?? 0;
      if (s.previous) point[`p${j}`] = s.previous[i] ?? 0;
    });
    return point;
  });
  const axes = (
    <>
      <CartesianGrid stroke={GRID_COLOR} vertical={false} />
      <XAxis dataKey="bucket" tickFormatter={(b: string) => bucketTick(b, lang)} stroke={AXIS_COLOR} fontSize={12} tickLine={false} minTickGap={16} />
      <YAxis tickFormatter={compactNumber(lang)} stroke={AXIS_COLOR} fontSize={12} tickLine={false} axisLine={false} width={52} />
      <Tooltip formatter={(value) => format(Number(value))} {...TOOLTIP_STYLE} />
    </>
  );
  const name = (j: number) => names[j] ?? '';
  const margin = { top: 8, right: 16, bottom: 0, left: 0 };

  return (
    <div data-testid="explore-chart" role="img" aria-label={names.join(', ')}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        {chart === 'lines' ? (
          <LineChart data={data} margin={margin}>
            {axes}
            {series.map((s, j) => (
              <Line key={`s${j}`} type="monotone" dataKey={`s${j}`} name={name(j)} stroke={seriesColor(j, s.key)} strokeWidth={2} dot={buckets.length <= 31 ? { r: 2 } : false} isAnimationActive={false} />
            ))}
            {series.map((s, j) => s.previous && (
              <Line key={`p${j}`} type="monotone" dataKey={`p${j}`} name={previousName(name(j))} stroke={seriesColor(j, s.key)} strokeOpacity={0.55} strokeWidth={2} strokeDasharray="5 4" dot={false} isAnimationActive={false} />
            ))}
          </LineChart>
        ) : (
          <BarChart data={data} margin={margin}>
            {axes}
            {series.map((s, j) => (
              <Bar key={`s${j}`} dataKey={`s${j}`} name={name(j)} stackId="current" fill={seriesColor(j, s.key)} isAnimationActive={false} />
            ))}
            {series.map((s, j) => s.previous && (
              <Bar key={`p${j}`} dataKey={`p${j}`} name={previousName(name(j))} stackId="previous" fill={seriesColor(j, s.key)} fillOpacity={0.35} isAnimationActive={false} />
            ))}
          </BarChart>
        )}
      </ResponsiveContainer>
      <Group gap="md" mt="xs" px="xs" wrap="wrap" role="list" aria-label={t('explore.legend')}>
        {series.map((s, j) => (
          <Group key={j} gap={6} wrap="nowrap" role="listitem">
            <span aria-hidden style={{ width: 12, height: chart === 'lines' ? 3 : 10, borderRadius: 2, background: seriesColor(j, s.key) }} />
            <Text size="xs">{name(j)}</Text>
          </Group>
        ))}
        {series.some((s) => s.previous) && (
          <Group gap={6} wrap="nowrap" role="listitem">
            {chart === 'lines'
              ? <span aria-hidden style={{ width: 14, borderTop: `2px dashed ${AXIS_COLOR}` }} />
              : <span aria-hidden style={{ width: 12, height: 10, borderRadius: 2, background: AXIS_COLOR, opacity: 0.35 }} />}
            <Text size="xs" c="dimmed">{t('analytics.previousShort')}</Text>
          </Group>
        )}
      </Group>
    </div>
  );
}
