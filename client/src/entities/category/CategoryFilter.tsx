/**
 * The category filter of a list (apps, apptracker campaigns, messages): "Any category" or one of
 * the account's categories that apply to the list's entity type, each with its colour. The list
 * keeps the choice in its address (`?category=<id>`) and sends it as `categoryId`.
 */
import { Box, Group, Select, Text } from '@mantine/core';
import type { CategoryEntityType } from '@gd/shared/schemas/categories';
import { useT } from '../../i18n/useT.ts';
import { useCategories } from './categories.ts';

export function ColourDot({ colour, size = 10 }: { colour: string; size?: number }) {
  return <Box component="span" aria-hidden w={size} h={size} style={{ borderRadius: '50%', background: colour, flexShrink: 0, display: 'inline-block', boxShadow: 'inset 0 0 0 1px rgba(0,0,0,0.15)' }} />;
}

export function CategoryFilter({ entityType, value, onChange, w = 200, size = 'sm', hideLabel = false }: {
  /** The list's entity type, or types (the messages list matches its messages' and their campaigns' categories). */
  entityType: CategoryEntityType | readonly CategoryEntityType[];
  value: string | undefined;
  onChange: (categoryId: string | undefined) => void;
  w?: number;
  size?: 'xs' | 'sm';
  /** In a row of unlabelled controls: the label is only the accessible name. */
  hideLabel?: boolean;
}) {
  const { t } = useT();
  const types: readonly CategoryEntityType[] = typeof entityType === 'string' ? [entityType] : entityType;
  const categories = useCategories(types.length === 1 ? types[0] : undefined);
  const list = (categories.data?.categories ?? []).filter((c) => c.entityTypes.some((type) => types.includes(type)));
  const colours = new Map(list.map((c) => [c.id, c.colour]));
  // A category chosen in the address that is not (or no longer) there still shows as chosen until cleared.
  const known = value === undefined || colours.has(value) || categories.state !== 'loaded';
  const data = [{ value: '', label: t('categories.filterAny') }, ...list.map((c) => ({ value: c.id, label: c.name })), ...(known ? [] : [{ value: value ?? '', label: '—' }])];
  const selected = value ? colours.get(value) : undefined;
  return (
    <Select
      size={size}
      w={w}
      label={hideLabel ? undefined : t('categories.filter')}
      aria-label={t('categories.filter')}
      value={value ?? ''}
      onChange={(v) => onChange(v ? v : undefined)}
      allowDeselect={false}
      searchable={list.length > 8}
      data={data}
      leftSection={selected ? <ColourDot colour={selected} /> : undefined}
      renderOption={({ option }) => (
        <Group gap={8} wrap="nowrap">
          {colours.get(option.value) ? <ColourDot colour={colours.get(option.value) ?? ''} /> : <Box w={10} />}
          <Text size="sm" truncate="end">{option.label}</Text>
        </Group>
      )}
      comboboxProps={{ withinPortal: true }}
      data-testid={`category-filter-${types.join('-')}`}
    />
  );
}
