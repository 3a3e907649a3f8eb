/**
 * The cohort query controls: start event and return event (or any event) each with property
 * filters, first time or every time, the period (day, week, month) and how many, "on" or "on or
 * after", and a breakdown by a person attribute or a property of the start event. Free text (filter
 * values, property names) applies on Enter or when leaving the field, so typing does not run a
 * query per key.
 */
import { useState } from 'react';
import { ActionIcon, Button, Group, Input, NumberInput, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { builtInEventKey } from '@gd/shared/behaviour/events';
import { truncateLabel } from '@gd/shared/language';
import { PERSON_ATTRIBUTES, PROPERTY_FILTER_OPS, MAX_STEP_FILTERS, type PropertyFilter } from '@gd/shared/schemas/analyticsQuery';
import type { BuiltInEventDefinition, EventDefinition } from '@gd/shared/schemas/behaviour';
import { COHORT_PERIODS, DEFAULT_COHORT_PERIODS, MAX_COHORT_PERIODS } from '@gd/shared/schemas/cohorts';
import { useT } from '../../i18n/useT.ts';
import type { TFunction } from '../../i18n/keys.ts';
import type { CohortState } from '../../entities/cohort/cohortState.ts';

const ANY = '__any__';
const NONE = '__none__';
const PROPERTY = '__property__';

export function eventName(t: TFunction, name: string, label?: string | null): string {
  const key = builtInEventKey(name);
  if (key) return t(`builtInEvent.${key}`);
  return label?.trim() ? label : name;
}

/** A text field applied on Enter or blur. */
function CommitField({ value, onCommit, ...props }: { value: string; onCommit: (v: string) => void; label?: string; placeholder?: string; w?: number; 'aria-label'?: string }) {
  const [draft, setDraft] = useState(value);
  return (
    <TextInput
      {...props}
      size="xs"
      value={draft}
      maxLength={200}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={() => { if (draft !== value) onCommit(draft); }}
      onKeyDown={(e) => { if (e.key === 'Enter' && draft !== value) onCommit(draft); }}
    />
  );
}

function FilterRows({ filters, onChange, testId }: { filters: PropertyFilter[]; onChange: (f: PropertyFilter[]) => void; testId: string }) {
  const { t } = useT();
  const set = (i: number, change: Partial<PropertyFilter>) => {
    const next = filters.map((f, j) => (j === i ? { ...f, ...change } : f)).map((f) => (f.op === 'set' || f.op === 'notSet' ? { property: f.property, op: f.op } : f));
    // Only complete filters run: a value is needed except for set / not set.
    onChange(next);
  };
  return (
    <Stack gap={4} data-testid={testId}>
      {filters.map((f, i) => (
        <Group key={i} gap={4} wrap="nowrap">
          <CommitField key={`p${f.property}`} w={130} aria-label={t('cohorts.filterProperty')} placeholder={t('cohorts.filterProperty')} value={f.property} onCommit={(property) => set(i, { property: property.trim() || f.property })} />
          <Select
            size="xs" w={130} aria-label={t('cohorts.filterOp')} allowDeselect={false} value={f.op}
            data={PROPERTY_FILTER_OPS.map((op) => ({ value: op, label: t(`cohorts.ops.${op}`) }))}
            onChange={(op) => set(i, { op: (op ?? 'eq') })}
          />
          {f.op !== 'set' && f.op !== 'notSet' && (
            <CommitField key={`v${String(f.value)}`} w={110} aria-label={t('cohorts.filterValue')} placeholder={t('cohorts.filterValue')} value={f.value === undefined ? '' : String(f.value)}
              onCommit={(v) => set(i, { value: f.op === 'gt' || f.op === 'lt' ? (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : f.value) : v })} />
          )}
          <ActionIcon variant="subtle" color="gray" aria-label={t('cohorts.removeFilter')} onClick={() => onChange(filters.filter((_, j) => j !== i))}>
            <IconX size={14} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

/** A fresh filter: "is set" on a property name typed first, so it is complete (and runs) at once. */
function AddFilter({ count, onAdd }: { count: number; onAdd: (f: PropertyFilter) => void }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  if (count >= MAX_STEP_FILTERS) return null;
  if (open) {
    return (
      <CommitField w={160} placeholder={t('cohorts.filterProperty')} aria-label={t('cohorts.filterProperty')} value="" onCommit={(p) => { setOpen(false); if (p.trim()) onAdd({ property: p.trim().slice(0, 64), op: 'set' }); }} />
    );
  }
  return (
    <Button size="compact-xs" variant="subtle" leftSection={<IconPlus size={12} />} onClick={() => setOpen(true)}>
      {t('cohorts.addFilter')}
    </Button>
  );
}

export function CohortControls({ state, onChange, custom, builtIn }: {
  state: CohortState;
  onChange: (next: Partial<CohortState>) => void;
  custom: readonly EventDefinition[];
  builtIn: readonly BuiltInEventDefinition[];
}) {
  const { t } = useT();
  const visible = custom.filter((d) => !d.hidden || d.name === state.start || d.name === state.returnEvent);
  const groups = [
    { group: t('analytics.custom'), items: visible.map((d) => ({ value: d.name, label: truncateLabel(eventName(t, d.name, d.label)) })) },
    { group: t('analytics.builtIn'), items: builtIn.map((d) => ({ value: d.name, label: truncateLabel(eventName(t, d.name)) })) },
  ].filter((g) => g.items.length > 0);
  const breakdownValue = state.breakdown === null ? NONE : state.breakdown.kind === 'property' ? PROPERTY : state.breakdown.field;
  const attributeOptions = PERSON_ATTRIBUTES.map((a) => ({ value: a, label: t(`cohorts.attributes.${a}`) }));

  return (
    <Paper withBorder p="md" component="section" aria-label={t('cohorts.query')}>
      <Stack gap="sm">
        <Group align="flex-start" gap="lg" wrap="wrap">
          <Stack gap={4} align="flex-start">
            <Select
              w={260} label={t('cohorts.startEvent')} placeholder={t('cohorts.pickEvent')} data={groups} value={state.start} searchable allowDeselect={false}
              nothingFoundMessage={t('common.nothingFound')} onChange={(start) => onChange({ start })} data-testid="cohort-start"
            />
            <FilterRows filters={state.startFilters} onChange={(startFilters) => onChange({ startFilters })} testId="cohort-start-filters" />
            <AddFilter count={state.startFilters.length} onAdd={(f) => onChange({ startFilters: [...state.startFilters, f] })} />
          </Stack>
          <Stack gap={4} align="flex-start">
            <Select
              w={260} label={t('cohorts.returnEvent')} data={[{ group: t('cohorts.returnEvent'), items: [{ value: ANY, label: t('cohorts.anyEvent') }] }, ...groups]}
              value={state.returnEvent ?? ANY} searchable allowDeselect={false} nothingFoundMessage={t('common.nothingFound')}
              onChange={(v) => onChange({ returnEvent: v && v !== ANY ? v : null, returnFilters: [] })} data-testid="cohort-return"
            />
            {state.returnEvent && (
              <>
                <FilterRows filters={state.returnFilters} onChange={(returnFilters) => onChange({ returnFilters })} testId="cohort-return-filters" />
                <AddFilter count={state.returnFilters.length} onAdd={(f) => onChange({ returnFilters: [...state.returnFilters, f] })} />
              </>
            )}
          </Stack>
          <Stack gap={4} align="flex-start">
            <Select
              w={220} label={t('cohorts.breakdown')} allowDeselect={false} value={breakdownValue}
              data={[{ value: NONE, label: t('cohorts.breakdownNone') }, ...attributeOptions, { value: PROPERTY, label: t('cohorts.breakdownProperty') }]}
              onChange={(v) => {
                if (!v || v === NONE) onChange({ breakdown: null, segment: null });
                else if (v === PROPERTY) onChange({ breakdown: { kind: 'property', property: state.breakdown?.kind === 'property' ? state.breakdown.property : 'plan' }, segment: null });
                else onChange({ breakdown: { kind: 'attribute', field: attributeOptions.find((a) => a.value === v)?.value ?? 'country' }, segment: null });
              }}
            />
            {state.breakdown?.kind === 'property' && (
              <CommitField key={state.breakdown.property} w={220} aria-label={t('cohorts.breakdownPropertyName')} placeholder={t('cohorts.breakdownPropertyName')} value={state.breakdown.property}
                onCommit={(p) => { if (p.trim()) onChange({ breakdown: { kind: 'property', property: p.trim().slice(0, 64) }, segment: null }); }} />
            )}
          </Stack>
        </Group>
        <Group align="flex-end" gap="lg" wrap="wrap">
          <Input.Wrapper label={t('cohorts.mode')} labelProps={{ id: 'cohort-mode' }}>
            <SegmentedControl display="flex" aria-labelledby="cohort-mode" value={state.mode} onChange={(v) => onChange({ mode: v === 'recurring' ? 'recurring' : 'first' })}
              data={(['first', 'recurring'] as const).map((m) => ({ value: m, label: t(`cohorts.modes.${m}`) }))} />
          </Input.Wrapper>
          <Input.Wrapper label={t('cohorts.period')} labelProps={{ id: 'cohort-period' }}>
            <SegmentedControl display="flex" aria-labelledby="cohort-period" value={state.period}
              onChange={(v) => onChange({ period: (COHORT_PERIODS.find((p) => p === v) ?? 'week'), periods: null })}
              data={COHORT_PERIODS.map((p) => ({ value: p, label: t(`cohorts.periods.${p}`) }))} />
          </Input.Wrapper>
          <NumberInput
            w={100} label={t('cohorts.periodCount')} min={1} max={MAX_COHORT_PERIODS} clampBehavior="strict" allowDecimal={false}
            value={state.periods ?? DEFAULT_COHORT_PERIODS[state.period]}
            onChange={(v) => { const n = Number(v); if (Number.isInteger(n) && n >= 1 && n <= MAX_COHORT_PERIODS) onChange({ periods: n }); }}
          />
          <Input.Wrapper label={t('cohorts.returnOn')} labelProps={{ id: 'cohort-on' }}>
            <SegmentedControl display="flex" aria-labelledby="cohort-on" value={state.returnOn} onChange={(v) => onChange({ returnOn: v === 'onOrAfter' ? 'onOrAfter' : 'on' })}
              data={(['on', 'onOrAfter'] as const).map((m) => ({ value: m, label: t(`cohorts.returnOns.${m}`) }))} />
          </Input.Wrapper>
        </Group>
        <Text size="xs" c="dimmed">{t('cohorts.modeHint')} {t('cohorts.returnOnHint')}</Text>
      </Stack>
    </Paper>
  );
}
