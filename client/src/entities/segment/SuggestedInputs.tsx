/**
 * Value inputs that offer the app's own values (useValueSuggestions), each with how many people
 * have it: one typed value with suggestions, several values with suggestions, and the operating
 * system picker (the shared AppOs list, the data's systems first). Typed text still works for
 * anything the data does not have yet.
 */
import { Autocomplete, Group, Select, TagsInput, Text, type AutocompleteProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { SegmentCondition } from '@gd/shared/segment/model';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { useDraft } from '../../ui/draft.tsx';
import type { TagTypeOf } from './conditionShape.ts';
import { useValueSuggestions } from './useValueSuggestions.ts';
import { osItems } from './valueOptions.ts';

interface Common {
  c: SegmentCondition;
  tagType: TagTypeOf;
  readOnly: boolean;
  error: boolean;
  ariaLabel: string;
  width: number;
  onChange: (patch: Partial<SegmentCondition>) => void;
}

/** An option's text and, when known, how many people have it. */
function OptionWithCount({ label, count, width }: { label: string; count: number | undefined; width: number }) {
  const { t, lang } = useT();
  const formatted = count === undefined ? '' : new Intl.NumberFormat(localeFor(lang)).format(count);
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
      {/* The dropdown's list grows to its longest line: a long value is cut so the counts stay in view. */}
      <Text size="sm" truncate maw={width - 72}>
        {label}
      </Text>
      {count !== undefined && (
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }} title={t('segments.field.peopleWith', { count: formatted })}>
          {formatted}
        </Text>
      )}
    </Group>
  );
}

const asText = (input: SegmentCondition['input']) => (input === null ? '' : String(input));

/** One typed value, with the data's values as suggestions; committed like the other typed fields, and at once when one is picked. */
export function SuggestedText({ c, tagType, readOnly, error, ariaLabel, width, onChange, placeholder }: Common & { placeholder: string }) {
  const commit = (v: string) => onChange({ input: v.trim() === '' ? null : v, multiSelect: [] });
  const draft = useDraft(asText(c.input), commit);
  const suggestions = useValueSuggestions(c, tagType, draft.value);
  const data = useMemo(() => [...new Set(suggestions.values.map((v) => v.value))], [suggestions.values]);
  const props: AutocompleteProps = {
    size: 'sm',
    w: width,
    'aria-label': ariaLabel,
    readOnly,
    error,
    placeholder,
    maxLength: 2000,
    data,
    value: draft.value,
    onChange: draft.change,
    onOptionSubmit: (v) => {
      draft.change(v);
      draft.flush();
    },
    onBlur: draft.end,
    onKeyDown: (e) => {
      if (e.key === 'Enter') draft.flush();
    },
    renderOption: ({ option }) => <OptionWithCount label={option.value} count={suggestions.countOf(option.value)} width={width} />,
    maxDropdownHeight: 280,
    comboboxProps: { withinPortal: true },
  };
  return <Autocomplete {...props} />;
}

/** Several values, typed (Enter adds one) or picked from the data's values. */
export function SuggestedTags({ c, tagType, readOnly, error, ariaLabel, width, onChange, placeholder }: Common & { placeholder: string }) {
  const [search, setSearch] = useState('');
  // Closed once a value is added (typed + Enter, or picked): left open, the list of other values
  // would cover the next thing the person reaches for (Add condition, the next row). Typing opens it.
  const [opened, setOpened] = useState(false);
  const suggestions = useValueSuggestions(c, tagType, search);
  const data = useMemo(() => {
    const chosen = new Set(c.multiSelect.map((v) => v.toLowerCase()));
    return [...new Set(suggestions.values.map((v) => v.value))].filter((v) => !chosen.has(v.toLowerCase()));
  }, [suggestions.values, c.multiSelect]);
  return (
    <TagsInput
      size="sm"
      w={width}
      aria-label={ariaLabel}
      readOnly={readOnly}
      error={error}
      placeholder={c.multiSelect.length === 0 ? placeholder : undefined}
      value={c.multiSelect}
      data={data}
      searchValue={search}
      onSearchChange={(next) => {
        setSearch(next);
        if (next !== '') setOpened(true);
      }}
      dropdownOpened={opened}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      maxTags={1000}
      clearable={!readOnly}
      onChange={(values) => {
        setOpened(false);
        onChange({ multiSelect: values.map((v) => v.trim()).filter((v) => v !== ''), input: null });
      }}
      renderOption={({ option }) => <OptionWithCount label={option.value} count={suggestions.countOf(option.value)} width={width} />}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
      data-testid="condition-values"
    />
  );
}

/** One operating system: the data's first (with counts), then the rest of the known list. */
export function OsChoice({ c, tagType, readOnly, error, ariaLabel, width, onChange, placeholder }: Common & { placeholder: string }) {
  const suggestions = useValueSuggestions(c, tagType);
  const held = c.input === null ? [] : [String(c.input)];
  const items = useMemo(() => osItems(suggestions.values, c.input === null ? [] : [String(c.input)]), [suggestions.values, c.input]);
  const counts = new Map(items.map((i) => [i.value, i.count]));
  // Comparisons ignore case: a held "ios" is the list's "iOS".
  const value = held[0] === undefined ? null : (items.find((i) => i.value.toLowerCase() === held[0]?.toLowerCase())?.value ?? held[0]);
  return (
    <Select
      size="sm"
      w={width}
      aria-label={ariaLabel}
      readOnly={readOnly}
      error={error}
      placeholder={placeholder}
      data={items.map(({ value: v, label }) => ({ value: v, label }))}
      value={value}
      searchable
      allowDeselect={false}
      onChange={(v) => onChange({ input: v, multiSelect: [] })}
      renderOption={({ option }) => <OptionWithCount label={option.label} count={counts.get(option.value)} width={width} />}
      comboboxProps={{ withinPortal: true }}
      data-testid="condition-os"
    />
  );
}
