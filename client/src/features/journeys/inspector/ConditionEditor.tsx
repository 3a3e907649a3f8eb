/** A simple editor for the first condition of a segment: filter, field, operator and its value. */
import { Group, Input, Select, Stack, Text, TextInput } from '@mantine/core';
import { DateString } from '@gd/shared/formats';
import {
  SegmentFilterKind,
  SegmentOperator,
  operatorValueNeed,
  type Segment,
  type SegmentCondition,
} from '@gd/shared/segment/model';
import { useT } from '../../../i18n/useT.ts';
import { DraftNumberInput, DraftTextInput } from './draft.tsx';
import { firstCondition } from './segmentCondition.ts';

interface Props {
  label: string;
  segment: Segment | null;
  error?: string;
  /** A change of the first condition (the caller applies it to the latest segment). */
  onChange: (patch: Partial<SegmentCondition>) => void;
}

const isKind = (v: string | null) => SegmentFilterKind.safeParse(v);
const isOperator = (v: string | null) => SegmentOperator.safeParse(v);

function ValueFields({ c, op, onChange }: { c: SegmentCondition; op: SegmentOperator | null; onChange: Props['onChange'] }) {
  const { t } = useT();
  if (!op) return null;
  switch (operatorValueNeed(op)) {
    case 'none':
    case 'property':
      return null;
    case 'value':
      return <DraftTextInput label={t('journeyEditor.condition.value')} value={c.input === null ? '' : String(c.input)} onCommit={(v) => onChange({ input: v === '' ? null : v })} />;
    case 'days':
      return (
        <DraftNumberInput
          label={t('journeyEditor.condition.days')}
          value={c.dateDays}
          min={0}
          max={36_500}
          allowDecimal={false}
          onCommit={(v) => onChange({ dateDays: v === null ? null : Math.round(v) })}
        />
      );
    case 'dateRange': {
      const range = c.dateRange ?? { startDay: '', endDay: '' };
      const set = (startDay: string, endDay: string) =>
        onChange({ dateRange: DateString.safeParse(startDay).success && DateString.safeParse(endDay).success ? { startDay, endDay } : null });
      return (
        <Group grow gap="xs">
          <TextInput type="date" label={t('journeyEditor.condition.from')} value={range.startDay} onChange={(e) => set(e.currentTarget.value, range.endDay || e.currentTarget.value)} />
          <TextInput type="date" label={t('journeyEditor.condition.to')} value={range.endDay} onChange={(e) => set(range.startDay || e.currentTarget.value, e.currentTarget.value)} />
        </Group>
      );
    }
    default:
      return null;
  }
}

export function ConditionEditor({ label, segment, error, onChange }: Props) {
  const { t } = useT();
  const c = firstCondition(segment);
  const operators = SegmentOperator.options.map((op) => ({ value: op, label: t(`segments.operator.${op}`) }));
  return (
    <Stack gap="xs" role="group" aria-label={label}>
      <Input.Label labelElement="div">
        {label}
      </Input.Label>
      <Group grow gap="xs" align="flex-start">
        <Select
          label={t('journeyEditor.condition.type')}
          value={c.type}
          data={SegmentFilterKind.options.map((k) => ({ value: k, label: t(`journeyEditor.condition.kind.${k}`) }))}
          onChange={(v) => onChange({ type: isKind(v).data ?? null })}
        />
        <DraftTextInput label={t('journeyEditor.condition.id')} value={c.id ?? ''} onCommit={(v) => onChange({ id: v.trim() === '' ? null : v.trim() })} />
      </Group>
      <Select
        label={t('journeyEditor.condition.condition')}
        value={c.condition}
        searchable
        data={operators}
        onChange={(v) => onChange({ condition: isOperator(v).data ?? null })}
      />
      {c.condition === 'with_property' && (
        <Select
          label={t('journeyEditor.condition.tagCondition')}
          value={c.tagCondition}
          searchable
          data={operators.filter((o) => o.value !== 'with_property')}
          onChange={(v) => onChange({ tagCondition: isOperator(v).data ?? null })}
        />
      )}
      <ValueFields c={c} op={c.condition === 'with_property' ? c.tagCondition : c.condition} onChange={onChange} />
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

