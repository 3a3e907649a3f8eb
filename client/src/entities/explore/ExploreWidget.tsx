/**
 * An explore answer as a compact chart (dashboard widgets): one line per series, the buckets on
 * the x axis (HH:00 for hours, as the answer labels them; days as "4 Mar"), a legend of series
 * names truncated at 50 characters with the full name in their tooltip. Fills its parent's height.
 */
import { Group, Text, Tooltip as HoverTip } from '@mantine/core';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ExploreAnswer } from '@gd/shared/schemas/behaviour';
import type { z } from 'zod';
import { useT } from '../../i18n/useT.ts';
import { bucketLabel, compactFormat, metricFormat, seriesColour, seriesName, truncateLabel } from './exploreLabels.ts';

export type ExploreAnswerData = z.infer<z.ZodObject<typeof ExploreAnswer>>;

export function ExploreWidget({ answer }: { answer: ExploreAnswerData }) {
  const { t, lang } = useT();
  const metric = t(`explore.metrics.${answer.metric}`);
  const names = answer.series.map((s) => seriesName(t, s.key, metric));
  const format = metricFormat(lang, answer.metric, answer.currency);
  const data = answer.buckets.map((bucket, i) => {
    const point: Record<string, string | number> = { bucket };
    answer.series.forEach((s, j) => { point[`s${j}`] = s.values[i] ?? 0; });
    return point;
  });
  return (
    <div data-testid="explore-widget" role="img" aria-label={names.join(', ')} style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <div style={{ flex: 1, minHeight: 0 }}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e9ecef" vertical={false} />
            <XAxis dataKey="bucket" tickFormatter={(b: string) => bucketLabel(b, lang)} stroke="#868e96" fontSize={11} tickLine={false} minTickGap={12} />
            <YAxis tickFormatter={compactFormat(lang)} stroke="#868e96" fontSize={11} tickLine={false} axisLine={false} width={40} allowDecimals={answer.metric !== 'events' && answer.metric !== 'people'} />
            <Tooltip formatter={(value) => format(Number(value))} labelFormatter={(b) => (typeof b === 'string' ? bucketLabel(b, lang) : '')} contentStyle={{ borderRadius: 8, fontSize: 12 }} />
            {answer.series.map((s, j) => (
              <Line key={`s${j}`} type="monotone" dataKey={`s${j}`} name={truncateLabel(names[j] ?? '')} stroke={seriesColour(j, s.key)} strokeWidth={2} dot={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      {answer.series.length > 1 && (
        <Group gap="sm" px={4} pt={4} wrap="wrap" role="list">
          {answer.series.map((s, j) => (
            <HoverTip key={j} label={names[j]} disabled={(names[j] ?? '').length <= 50} withArrow>
              <Group gap={4} wrap="nowrap" role="listitem">
                <span aria-hidden style={{ width: 10, height: 3, borderRadius: 2, background: seriesColour(j, s.key) }} />
                <Text size="xs">{truncateLabel(names[j] ?? '')}</Text>
              </Group>
            </HoverTip>
          ))}
        </Group>
      )}
    </div>
  );
}
