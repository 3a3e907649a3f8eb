/**
 * The value part of a condition row, by widget (conditionShape.ts `ValueWidget`): one text,
 * several texts, one of a short list, a number, a day, a day count, a date range, days from today,
 * audiences or journeys. Typed values reach the document through a draft (300 ms after typing
 * stops, on Enter and on blur); picks are written at once. Texts offer the values the app's data
 * holds (SuggestedInputs.tsx); countries are picked by name and stored as codes (CountryPicker.tsx);
 * operating systems from the known list.
 */
import { Group, MultiSelect, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import type { SegmentCondition } from '@gd/shared/segment/model';
import { useT } from '../../i18n/useT.ts';
import { valuePicker } from '@gd/shared/segment/valueSuggestions';
import { DraftNumberInput } from '../../ui/draft.tsx';
import type { TagTypeOf, ValueWidget } from './conditionShape.ts';
import { CountryPicker } from './CountryPicker.tsx';
import { OsChoice, SuggestedTags, SuggestedText } from './SuggestedInputs.tsx';
import type { Option } from './useSegmentOptions.ts';

export interface ValueInputProps {
  widget: ValueWidget;
  c: SegmentCondition;
  readOnly: boolean;
  error: boolean;
  /** Accessible names are prefixed with the row's label. */
  label: string;
  audiences: Option[];
  journeys: Option[];
  /** A user tag's value type (only text tags have values to suggest). */
  tagType: TagTypeOf;
  onChange: (patch: Partial<SegmentCondition>) => void;
}

const FIELD_W = 200;
const WIDE_W = 260;

const asNumber = (input: SegmentCondition['input']) => (typeof input === 'number' ? input : input !== null && input.trim() !== '' && !Number.isNaN(Number(input)) ? Number(input) : null);

/** Known options plus the values held that are not among them (shown by their id). */
function withHeld(options: Option[], held: readonly string[]): Option[] {
  const known = new Set(options.map((o) => o.value));
  return [...options, ...held.filter((v) => !known.has(v)).map((v) => ({ value: v, label: v }))];
}

export function ValueInput({ widget, c, readOnly, error, label, audiences, journeys, tagType, onChange }: ValueInputProps) {
  const { t } = useT();
  const common = { size: 'sm' as const, readOnly, error, 'aria-label': `${label}: ${t('segments.field.value')}` };
  const suggested = { c, tagType, readOnly, error, ariaLabel: common['aria-label'], onChange };
  switch (widget) {
    case 'none':
    case 'property':
      return null;
    case 'text':
      return <SuggestedText {...suggested} width={FIELD_W} placeholder={t('segments.field.value')} />;
    case 'texts':
      return valuePicker(c.type, c.id) === 'country'
        ? <CountryPicker {...suggested} width={WIDE_W} />
        : <SuggestedTags {...suggested} width={WIDE_W} placeholder={t('segments.field.valuesPlaceholder')} />;
    case 'choice':
      return <OsChoice {...suggested} width={FIELD_W} placeholder={t('segments.field.choose')} />;
    case 'number':
      return <DraftNumberInput {...common} w={150} placeholder="0" value={asNumber(c.input)} onCommit={(v) => onChange({ input: v, multiSelect: [] })} />;
    case 'anniversary':
      return (
        <DraftNumberInput
          {...common}
          aria-label={`${label}: ${t('segments.field.anniversary')}`}
          w={190}
          min={0}
          max={366}
          allowDecimal={false}
          placeholder="0"
          rightSection={<Text size="xs" c="dimmed" pr={8}>{t('segments.field.daysSuffix')}</Text>}
          rightSectionWidth={56}
          value={asNumber(c.input)}
          onCommit={(v) => onChange({ input: v === null ? null : Math.round(v), multiSelect: [] })}
        />
      );
    case 'days':
      return <DaysInput {...common} label={`${label}: ${t('segments.field.days')}`} value={c.dateDays} onCommit={(v) => onChange({ dateDays: v })} />;
    case 'day':
      return (
        <DatePickerInput
          {...common}
          w={FIELD_W}
          placeholder={t('segments.field.day')}
          valueFormat="YYYY-MM-DD"
          value={typeof c.input === 'string' && c.input !== '' ? c.input : null}
          onChange={(v) => onChange({ input: typeof v === 'string' ? v : null, multiSelect: [] })}
          clearable={!readOnly}
          popoverProps={{ withinPortal: true }}
        />
      );
    case 'date_range':
      return (
        <DatePickerInput
          {...common}
          type="range"
          w={WIDE_W}
          placeholder={t('segments.field.dateRange')}
          valueFormat="YYYY-MM-DD"
          allowSingleDateInRange
          value={c.dateRange ? [c.dateRange.startDay, c.dateRange.endDay] : [null, null]}
          onChange={([start, end]) => {
            // Written once both ends are chosen (a half range is not a range).
            if (typeof start === 'string' && typeof end === 'string') onChange({ dateRange: { startDay: start, endDay: end } });
            else if (start === null && end === null) onChange({ dateRange: null });
          }}
          clearable={!readOnly}
          popoverProps={{ withinPortal: true }}
          data-testid="condition-date-range"
        />
      );
    case 'audiences':
    case 'journeys': {
      const options = widget === 'audiences' ? audiences : journeys;
      return (
        <MultiSelect
          {...common}
          w={WIDE_W}
          placeholder={c.multiSelect.length === 0 ? t(widget === 'audiences' ? 'segments.field.audiences' : 'segments.field.journeys') : undefined}
          data={withHeld(options, c.multiSelect)}
          value={c.multiSelect}
          searchable
          nothingFoundMessage={t('segments.field.noOptions')}
          onChange={(values) => onChange({ multiSelect: values, input: null })}
          comboboxProps={{ withinPortal: true }}
        />
      );
    }
    default: {
      const never: never = widget;
      throw new Error(`unknown value widget ${String(never)}`);
    }
  }
}

/** A whole number of days, 0 to 36,500, with "days" after it. */
export function DaysInput({ label, value, onCommit, readOnly, disabled, error, size, placeholder = '0' }: { label: string; value: number | null; onCommit: (v: number | null) => void; readOnly: boolean; disabled?: boolean; error?: boolean; size?: 'sm'; placeholder?: string }) {
  const { t } = useT();
  return (
    <Group gap={6} wrap="nowrap">
      <DraftNumberInput
        aria-label={label}
        size={size ?? 'sm'}
        w={130}
        min={0}
        max={36_500}
        allowDecimal={false}
        allowNegative={false}
        placeholder={placeholder}
        readOnly={readOnly}
        disabled={disabled}
        error={error}
        rightSection={<Text size="xs" c="dimmed" pr={8}>{t('segments.field.daysSuffix')}</Text>}
        rightSectionWidth={48}
        value={value}
        onCommit={(v) => onCommit(v === null ? null : Math.min(36_500, Math.max(0, Math.round(v))))}
      />
    </Group>
  );
}
