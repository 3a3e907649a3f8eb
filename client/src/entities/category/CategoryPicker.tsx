/**
 * Choosing an item's categories: `CategoryPicker` (controlled, for a form such as the campaign
 * dialog, which saves with the item), `EntityCategories` (loads and saves one item's categories
 * by itself: app settings, a message and its campaign) and `CategoryBadges` (the categories of a
 * row in a list). Only the categories that apply to the item's type are offered; when there is
 * none yet the picker says so and links to /manage/categories.
 */
import { useEffect, useRef, useState } from 'react';
import { Anchor, Badge, Group, Loader, MultiSelect, Text, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import type { Category, CategoryEntityType } from '@gd/shared/schemas/categories';
import { useT } from '../../i18n/useT.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { pickCategories, saveCategories, sameIds, useCategories, useCategoryAssignments } from './categories.ts';
import { ColourDot } from './CategoryFilter.tsx';

export function CategoryPicker({ entityType, value, onChange, disabled, label, error, onDropdownOpen, onDropdownClose, testId }: {
  entityType: CategoryEntityType;
  value: readonly string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean | undefined;
  label?: string | undefined;
  error?: string | undefined;
  onDropdownOpen?: (() => void) | undefined;
  onDropdownClose?: (() => void) | undefined;
  testId?: string | undefined;
}) {
  const { t } = useT();
  const categories = useCategories(entityType);
  const list = categories.data?.categories ?? [];
  const colours = new Map(list.map((c) => [c.id, c.colour]));
  const none = categories.state === 'loaded' && list.length === 0;
  return (
    <MultiSelect
      label={label ?? t('categories.picker')}
      placeholder={value.length === 0 ? (none ? t('categories.noneAssigned') : t('categories.pickerPlaceholder')) : undefined}
      data={list.map((c) => ({ value: c.id, label: c.name }))}
      value={value.filter((id) => categories.state !== 'loaded' || colours.has(id))}
      onChange={onChange}
      onDropdownOpen={onDropdownOpen}
      onDropdownClose={onDropdownClose}
      disabled={disabled || none}
      error={error}
      searchable
      clearable
      hidePickedOptions
      maxDropdownHeight={260}
      nothingFoundMessage={t('common.nothingFound')}
      rightSection={categories.state === 'loading' && !categories.data ? <Loader size={14} /> : undefined}
      description={none ? (
        <>
          {t('categories.pickerNone', { type: t(`categories.entityType.${entityType}`).toLowerCase() })}{' '}
          <Anchor component={Link} to="/manage/categories" size="xs">{t('categories.pickerManage')}</Anchor>
        </>
      ) : undefined}
      renderOption={({ option }) => (
        <Group gap={8} wrap="nowrap">
          <ColourDot colour={colours.get(option.value) ?? 'transparent'} />
          <Text size="sm" truncate="end">{option.label}</Text>
        </Group>
      )}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId ?? `category-picker-${entityType}`}
    />
  );
}

/** The categories of a row, as small badges with their colour (nothing when none). */
export function CategoryBadges({ categories, max = 3 }: { categories: readonly Category[]; max?: number }) {
  if (categories.length === 0) return null;
  const shown = categories.slice(0, max);
  const rest = categories.slice(max);
  return (
    <Group gap={4} wrap="nowrap" style={{ overflow: 'hidden' }} data-testid="category-badges">
      {shown.map((c) => (
        <Badge key={c.id} size="xs" variant="outline" color="gray" tt="none" leftSection={<ColourDot colour={c.colour} size={8} />} style={{ flexShrink: 1, minWidth: 0 }} title={c.name}>
          {c.name}
        </Badge>
      ))}
      {rest.length > 0 && (
        <Tooltip label={rest.map((c) => c.name).join(', ')} withArrow>
          <Badge size="xs" variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>{`+${rest.length}`}</Badge>
        </Tooltip>
      )}
    </Group>
  );
}

/** The badges of one entity from a list's assignments. */
export function EntityCategoryBadges({ all, ids, max }: { all: readonly Category[] | undefined; ids: readonly string[] | undefined; max?: number }) {
  return <CategoryBadges categories={pickCategories(all, ids)} {...(max ? { max } : {})} />;
}

/**
 * One entity's categories, loaded and saved by the picker itself: each change is saved when the
 * dropdown closes (or a pill is removed), and a refusal puts the saved ones back.
 */
export function EntityCategories({ appId, entityType, entityId, editable, label, testId }: {
  appId: string;
  entityType: CategoryEntityType;
  entityId: string;
  editable: boolean;
  label?: string;
  testId?: string;
}) {
  const { t } = useT();
  const assignments = useCategoryAssignments(appId, entityType);
  const saved = assignments.byEntity.get(entityId) ?? [];
  const savedKey = saved.join(',');
  const [value, setValue] = useState<string[]>([...saved]);
  const [saving, setSaving] = useState(false);
  const open = useRef(false);
  const latest = useRef<string[]>(value);
  const choose = (ids: string[]) => {
    latest.current = ids;
    setValue(ids);
  };
  // What was saved elsewhere (or loaded) replaces the choice while nothing is being changed here.
  useEffect(() => {
    if (!open.current && !saving) choose(savedKey === '' ? [] : savedKey.split(','));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new saved list resets the choice
  }, [savedKey]);

  const save = async (ids: string[]) => {
    if (sameIds(ids, saved)) return;
    setSaving(true);
    try {
      choose(await saveCategories(appId, entityType, entityId, ids));
      notifySuccess(t('categories.saved'));
    } catch (error) {
      choose([...saved]);
      notifyError(t, error);
    } finally {
      setSaving(false);
      assignments.refetch();
    }
  };

  return (
    <CategoryPicker
      entityType={entityType}
      value={value}
      label={label}
      disabled={!editable || saving || assignments.state === 'error'}
      testId={testId}
      onChange={(ids) => {
        choose(ids);
        // Removing a pill (dropdown closed) saves at once; choosing saves when the dropdown closes.
        if (!open.current) void save(ids);
      }}
      onDropdownOpen={() => {
        open.current = true;
      }}
      onDropdownClose={() => {
        open.current = false;
        void save(latest.current);
      }}
    />
  );
}
