/**
 * The funnel's bars: one per step, the people who reached it (solid) over those who dropped since
 * the previous step (pale), the overall conversion above each bar and the step's label below
 * (truncated at 50 characters). `compact` (dashboard widgets) draws it shorter, without the
 * grid. Built-in events are named by the i18n catalogue; `labels` overrides the names (the
 * page passes the catalogue's custom labels).
 */
import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { builtInEventKey } from '@gd/shared/behaviour/events';
import { truncateLabel } from '@gd/shared/language';
import type { FunnelAnswer } from '@gd/shared/schemas/funnels';
import { useT } from '../../i18n/useT.ts';
import { formatCount, formatPercent } from './format.ts';

const SOLID = '#228be6';
const PALE = '#d0ebff';
const TOOLTIP = {
  contentStyle: { borderRadius: 8, border: '1px solid #dee2e6', boxShadow: '0 4px 12px rgba(0, 0, 0, 0.08)', fontSize: 13, padding: '8px 12px' },
  labelStyle: { fontWeight: 600, marginBottom: 4 },
  wrapperStyle: { zIndex: 10 },
} as const;

export function FunnelChart({ answer, compact, labels }: { answer: FunnelAnswer; compact?: boolean; labels?: readonly string[] }) {
  const { t, lang } = useT();
  const name = (event: string, i: number) => {
    const given = labels?.[i];
    if (given) return given;
    const key = builtInEventKey(event);
    return key ? t(`builtInEvent.${key}`) : event;
  };
  const { counts, conversion } = answer.total;
  const data = answer.steps.map((event, i) => ({
    step: `${i + 1}. ${truncateLabel(name(event, i))}`,
    reached: counts[i] ?? 0,
    dropped: i === 0 ? 0 : (counts[i - 1] ?? 0) - (counts[i] ?? 0),
    // The label sits on the top of the stack: the pale part, or the solid one where nobody dropped.
    top: i > 0 && (counts[i - 1] ?? 0) > (counts[i] ?? 0) ? formatPercent(conversion[i] ?? 0, lang) : '',
    solid: i > 0 && (counts[i - 1] ?? 0) > (counts[i] ?? 0) ? '' : formatPercent(conversion[i] ?? 0, lang),
  }));
  const height = compact ? 180 : 320;
  return (
    <div data-testid="funnel-chart" role="img" aria-label={t('funnels.chart')}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} margin={{ top: 24, right: 8, bottom: 0, left: 0 }} barCategoryGap={compact ? '18%' : '24%'}>
          {!compact && <CartesianGrid stroke="#e9ecef" vertical={false} />}
          <XAxis dataKey="step" stroke="#868e96" fontSize={compact ? 11 : 12} tickLine={false} interval={0} tickFormatter={(s: string) => (compact ? truncateLabel(s, 16) : truncateLabel(s, 28))} />
          <YAxis hide={compact} stroke="#868e96" fontSize={12} tickLine={false} axisLine={false} width={52} tickFormatter={(n: number) => formatCount(n, lang)} />
          <Tooltip formatter={(value, key) => [formatCount(Number(value), lang), key === 'reached' ? t('funnels.people') : t('funnels.dropped')]} {...TOOLTIP} />
          <Bar dataKey="reached" stackId="s" fill={SOLID} isAnimationActive={false}>
            <LabelList dataKey="solid" position="top" fontSize={12} fill="#495057" />
          </Bar>
          <Bar dataKey="dropped" stackId="s" fill={PALE} isAnimationActive={false}>
            <LabelList dataKey="top" position="top" fontSize={12} fill="#495057" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
