/**
 * Countries of a condition, picked by name in the interface language (Spanish for es, English
 * otherwise) or by code, stored as ISO 3166 alpha-2 codes (issue 11: "Country 'Spain' finds
 * nobody because only 'ES' works"). Typing "Spa", "Esp" or "es" offers Spain first and Enter picks
 * it; the app's countries come first with how many people have each. Whatever the condition held
 * before (a name typed as text) is turned into its code on the next change.
 */
import { Group, MultiSelect, Text, type ComboboxItem, type ComboboxParsedItem, type OptionsFilter } from '@mantine/core';
import { useMemo, useState } from 'react';
import { normalizeCountryValues } from '@gd/shared/segment/countries';
import type { SegmentCondition } from '@gd/shared/segment/model';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import type { TagTypeOf } from './conditionShape.ts';
import { useValueSuggestions } from './useValueSuggestions.ts';
import { countryItems, filterCountryItems, type PickerItem } from './valueOptions.ts';

interface Props {
  c: SegmentCondition;
  tagType: TagTypeOf;
  readOnly: boolean;
  error: boolean;
  ariaLabel: string;
  width: number;
  onChange: (patch: Partial<SegmentCondition>) => void;
}

const flat = (options: ComboboxParsedItem[]): ComboboxItem[] => options.flatMap((o) => ('group' in o ? o.items : [o]));

export function CountryPicker({ c, tagType, readOnly, error, ariaLabel, width, onChange }: Props) {
  const { t, lang } = useT();
  const [search, setSearch] = useState('');
  const suggestions = useValueSuggestions(c, tagType);
  const { inData, others } = useMemo(() => countryItems(lang, suggestions.values, c.multiSelect), [lang, suggestions.values, c.multiSelect]);
  const byValue = useMemo(() => new Map<string, PickerItem>([...inData, ...others].map((i) => [i.value, i])), [inData, others]);
  const data = useMemo(
    () => (inData.length > 0 ? [{ group: t('segments.field.inData'), items: inData }, { group: t('segments.field.allCountries'), items: others }] : others),
    [inData, others, t],
  );
  // A search lists the matches flat, best first; without one, the groups as they are.
  const filter: OptionsFilter = ({ options, search: typed }) => {
    if (typed.trim() === '') return options;
    const items = flat(options).map((o) => byValue.get(String(o.value)) ?? { value: String(o.value), label: o.label });
    return filterCountryItems(items, typed, lang).map((i) => ({ value: i.value, label: i.label }));
  };
  const number = new Intl.NumberFormat(localeFor(lang));

  return (
    <MultiSelect
      size="sm"
      w={width}
      aria-label={ariaLabel}
      readOnly={readOnly}
      error={error}
      placeholder={c.multiSelect.length === 0 ? t('segments.field.searchCountries') : undefined}
      data={data}
      value={c.multiSelect}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={filter}
      selectFirstOptionOnChange
      hidePickedOptions
      clearable={!readOnly}
      maxDropdownHeight={300}
      nothingFoundMessage={t('segments.field.noOptions')}
      onChange={(values) => onChange({ multiSelect: normalizeCountryValues(values), input: null })}
      renderOption={({ option }) => {
        const item = byValue.get(option.value);
        return (
          <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
            {/* The dropdown's list grows to its longest line: a long name is cut so the counts stay in view. */}
            <Text size="sm" truncate maw={width - 96}>
              {option.label}
            </Text>
            <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
              {item?.count !== undefined && (
                <Text size="xs" c="dimmed" title={t('segments.field.peopleWith', { count: number.format(item.count) })}>
                  {number.format(item.count)}
                </Text>
              )}
              <Text size="xs" c="dimmed" ff="monospace" w={22} ta="right">
                {option.value.length === 2 ? option.value : ''}
              </Text>
            </Group>
          </Group>
        );
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid="condition-countries"
    />
  );
}
