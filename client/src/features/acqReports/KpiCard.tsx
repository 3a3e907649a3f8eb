/** One figure of an acquisition report with its change on the previous period. */
import { Badge, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconMinus } from '@tabler/icons-react';
import { useT } from '../../i18n/useT.ts';
import { formatVariation } from '../../ui/format.ts';
import { changeColor, changeOf, formatFigure, type FigureKind } from './format.ts';

export function KpiCard({ label, hint, current, previous, kind, lowerIsBetter = false, testId }: {
  label: string; hint?: string; current: number | null; previous: number | null; kind: FigureKind; lowerIsBetter?: boolean; testId: string;
}) {
  const { t, lang } = useT();
  const change = changeOf(current, previous);
  const color = changeColor(change, lowerIsBetter);
  const title = <Text size="sm" c="dimmed" fw={600} truncate="end" tabIndex={hint ? 0 : undefined}>{label}</Text>;
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Stack gap={6}>
        {hint ? <Tooltip label={hint} multiline w={260} withArrow>{title}</Tooltip> : title}
        <Text fz={22} fw={700} lh={1.2} data-testid="kpi-value" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {formatFigure(lang, kind, current)}
        </Text>
        <Badge variant="light" color={color} tt="none" radius="sm" w="fit-content" data-testid="kpi-change" data-kind={change.kind}
          leftSection={change.kind === 'up' ? <IconArrowUpRight size={12} /> : change.kind === 'down' ? <IconArrowDownRight size={12} /> : change.kind === 'same' ? <IconMinus size={12} /> : undefined}>
          {change.kind === 'up' || change.kind === 'down' ? formatVariation(change.ratio, lang) : t(change.kind === 'same' ? 'acqReports.noChange' : 'acqReports.noPrevious')}
        </Badge>
        <Text size="xs" c="dimmed">{t('acqReports.previous', { value: formatFigure(lang, kind, previous) })}</Text>
      </Stack>
    </Paper>
  );
}

/** The change of a row's figure, small, for tables. */
export function ChangeText({ current, previous, lowerIsBetter = false }: { current: number | null; previous: number | null; lowerIsBetter?: boolean }) {
  const { lang } = useT();
  const change = changeOf(current, previous);
  if (change.kind !== 'up' && change.kind !== 'down') return <Text span size="xs" c="dimmed">–</Text>;
  return <Text span size="xs" c={changeColor(change, lowerIsBetter)}>{formatVariation(change.ratio, lang)}</Text>;
}
