/** A duration in seconds edited as an amount and a unit (minutes, hours, days). */
import { useState } from 'react';
import { Group, Select } from '@mantine/core';
import { useT } from '../../../i18n/useT.ts';
import { DURATION_UNITS, UNIT_SECONDS, splitDuration, toSeconds, type DurationUnit } from '../canvas/duration.ts';
import { DraftNumberInput } from '../../../ui/draft.tsx';

const isUnit = (v: string | null): v is DurationUnit => (DURATION_UNITS as readonly (string | null)[]).includes(v);

export function DurationField({ label, seconds, error, onCommit }: { label: string; seconds: number | null; error?: string; onCommit: (seconds: number | null) => void }) {
  const { t } = useT();
  const [unit, setUnit] = useState<DurationUnit>(() => splitDuration(seconds ?? 0).unit);
  const amount = seconds === null ? null : Math.round((seconds / UNIT_SECONDS[unit]) * 100) / 100;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <DraftNumberInput
        label={label}
        value={amount}
        min={0}
        decimalScale={2}
        error={error}
        style={{ flex: 1 }}
        onCommit={(v) => onCommit(v === null ? null : toSeconds(v, unit))}
      />
      <Select
        label={t('journeyEditor.inspector.durationUnit')}
        w={120}
        value={unit}
        allowDeselect={false}
        data={DURATION_UNITS.map((u) => ({ value: u, label: t(`journeyEditor.unit.${u}`) }))}
        onChange={(v) => {
          if (!isUnit(v)) return;
          setUnit(v);
          if (amount !== null) onCommit(toSeconds(amount, v));
        }}
      />
    </Group>
  );
}
