/**
 * The funnel query builder: steps (2..20, each an event with up to 5 property filters, reordered
 * with up/down), exclusions between two steps, the conversion window, the order, the time group
 * (the shell's range group), a breakdown with its attribution, and the comparison with the previous
 * period. Every change goes to the URL at once, except typed text (filter values, property names,
 * the window length), applied on Enter or when the field is left, so typing does not query.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Divider, Group, Input, NumberInput, Paper, SegmentedControl, Select, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconFilterPlus, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { builtInEventKey } from '@gd/shared/behaviour/events';
import { TimeGroup } from '@gd/shared/enums';
import { truncateLabel } from '@gd/shared/language';
import { MAX_STEP_FILTERS, PERSON_ATTRIBUTES, PROPERTY_FILTER_OPS } from '@gd/shared/schemas/analyticsQuery';
import type { BuiltInEventDefinition, EventDefinition } from '@gd/shared/schemas/behaviour';
import { FUNNEL_LIMITS, FunnelOrder, WindowUnit } from '@gd/shared/schemas/funnels';
import { useT } from '../../i18n/useT.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { emptyStep, normalize, type DraftFilter, type DraftStep, type FunnelState } from '../../entities/funnel/funnelState.ts';

type EventOptions = { group: string; items: { value: string; label: string }[] }[];

/** A text field applied on Enter or blur (its draft restarts from the applied value when that changes: key it by the value). */
function CommitInput({ value, onCommit, ...props }: { value: string; onCommit: (v: string) => void; label?: string; placeholder?: string; w?: number; 'aria-label'?: string; 'data-testid'?: string }) {
  const [draft, setDraft] = useState(value);
  const commit = () => {
    if (draft !== value) onCommit(draft);
  };
  return (
    <TextInput
      {...props}
      size="xs"
      value={draft}
      maxLength={200}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}

function FilterRow({ filter, onChange, onRemove }: { filter: DraftFilter; onChange: (f: DraftFilter) => void; onRemove: () => void }) {
  const { t } = useT();
  const needsValue = filter.op !== 'set' && filter.op !== 'notSet';
  return (
    <Group gap="xs" wrap="nowrap" data-testid="funnel-filter">
      <CommitInput key={`p-${filter.property}`} w={170} aria-label={t('funnels.filterProperty')} placeholder={t('funnels.filterProperty')} value={filter.property} onCommit={(property) => onChange({ ...filter, property: property.trim() })} />
      <Select
        size="xs"
        w={150}
        aria-label={t('funnels.filterOp')}
        data={PROPERTY_FILTER_OPS.map((op) => ({ value: op, label: t(`funnels.ops.${op}`) }))}
        value={filter.op}
        onChange={(op) => onChange({ ...filter, op: op ?? 'eq' })}
        allowDeselect={false}
      />
      {needsValue && (
        <CommitInput key={`v-${String(filter.value ?? '')}`} w={170} aria-label={t('funnels.filterValue')} placeholder={t('funnels.filterValue')} value={filter.value === undefined ? '' : String(filter.value)} onCommit={(value) => onChange({ ...filter, value })} />
      )}
      <Tooltip label={t('funnels.removeFilter')}>
        <ActionIcon variant="subtle" color="gray" aria-label={t('funnels.removeFilter')} onClick={onRemove}>
          <IconX size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function StepEditor({ label, step, options, onChange, actions, testId }: {
  label: React.ReactNode; step: DraftStep; options: EventOptions; onChange: (s: DraftStep) => void; actions: React.ReactNode; testId: string;
}) {
  const { t } = useT();
  return (
    <Stack gap={6} data-testid={testId}>
      <Group gap="xs" wrap="nowrap">
        {label}
        <Select
          size="sm"
          w={280}
          aria-label={t('funnels.pickEvent')}
          placeholder={t('funnels.pickEvent')}
          data={options}
          value={step.event}
          onChange={(event) => onChange({ ...step, event })}
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          allowDeselect={false}
        />
        <Tooltip label={t('funnels.addFilter')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('funnels.addFilter')}
            disabled={step.filters.length >= MAX_STEP_FILTERS}
            onClick={() => onChange({ ...step, filters: [...step.filters, { property: '', op: 'eq' }] })}
          >
            <IconFilterPlus size={16} />
          </ActionIcon>
        </Tooltip>
        {actions}
      </Group>
      {step.filters.length > 0 && (
        <Stack gap={6} pl={40}>
          {step.filters.map((f, i) => (
            <FilterRow
              key={i}
              filter={f}
              onChange={(next) => onChange({ ...step, filters: step.filters.map((g, j) => (j === i ? next : g)) })}
              onRemove={() => onChange({ ...step, filters: step.filters.filter((_, j) => j !== i) })}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

const NO_BREAKDOWN = 'none';
const PROPERTY = 'property';

export function FunnelBuilder({ state, onChange, custom, builtIn }: {
  state: FunnelState;
  /**
   * Takes a change as a function of the funnel as it is when applied, not as last drawn: two quick
   * changes (a step picked, then "Add step" before the page redrew) must not undo each other.
   */
  onChange: (change: (current: FunnelState) => FunnelState) => void;
  custom: readonly EventDefinition[];
  builtIn: readonly BuiltInEventDefinition[];
}) {
  const { t } = useT();
  const range = useDateRange((s) => s.range);
  const setRange = useDateRange((s) => s.setRange);
  const label = (name: string, customLabel?: string | null) => {
    const key = builtInEventKey(name);
    return truncateLabel(key ? t(`builtInEvent.${key}`) : customLabel?.trim() ? customLabel : name);
  };
  const chosen = new Set([...state.steps.map((s) => s.event), ...state.exclusions.map((x) => x.step.event)]);
  const options: EventOptions = [
    { group: t('analytics.custom'), items: custom.filter((d) => !d.hidden || chosen.has(d.name)).map((d) => ({ value: d.name, label: label(d.name, d.label) })) },
    { group: t('analytics.builtIn'), items: builtIn.map((d) => ({ value: d.name, label: label(d.name) })) },
  ].filter((g) => g.items.length > 0);
  const n = state.steps.length;
  const set = (change: (current: FunnelState) => Partial<FunnelState>) => onChange((current) => normalize({ ...current, ...change(current) }));
  const setStep = (i: number, step: DraftStep) => set((state) => ({ steps: state.steps.map((s, j) => (j === i ? step : s)) }));
  const move = (i: number, by: number) => set((state) => {
    const steps = [...state.steps];
    const moved = steps.splice(i, 1);
    steps.splice(i + by, 0, ...moved);
    return { steps };
  });
  const breakdownValue = state.breakdown === null ? NO_BREAKDOWN : state.breakdown.kind === 'property' ? PROPERTY : state.breakdown.field;
  const attributionValue = typeof state.attribution === 'object' ? `step:${state.attribution.step}` : state.attribution;

  return (
    <Paper withBorder p="md" component="section" aria-label={t('funnels.builder')}>
      <Stack gap="md">
        <Stack gap="sm">
          <Text fw={600} size="sm">
            {t('funnels.steps')}
          </Text>
          {state.steps.map((step, i) => (
            <StepEditor
              key={i}
              testId={`funnel-step-${i + 1}`}
              label={<Badge variant="light" size="lg" circle aria-label={t('funnels.step', { n: i + 1 })}>{i + 1}</Badge>}
              step={step}
              options={options}
              onChange={(s) => setStep(i, s)}
              actions={
                <Group gap={2} wrap="nowrap">
                  <ActionIcon variant="subtle" color="gray" aria-label={t('funnels.moveUp')} disabled={i === 0} onClick={() => move(i, -1)}>
                    <IconArrowUp size={16} />
                  </ActionIcon>
                  <ActionIcon variant="subtle" color="gray" aria-label={t('funnels.moveDown')} disabled={i === n - 1} onClick={() => move(i, 1)}>
                    <IconArrowDown size={16} />
                  </ActionIcon>
                  <ActionIcon variant="subtle" color="gray" aria-label={t('funnels.removeStep')} disabled={n <= FUNNEL_LIMITS.minSteps} onClick={() => set((state) => ({ steps: state.steps.filter((_, j) => j !== i) }))}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              }
            />
          ))}
          <Group>
            <Button size="xs" variant="default" leftSection={<IconPlus size={14} />} disabled={n >= FUNNEL_LIMITS.maxSteps} onClick={() => set((state) => ({ steps: [...state.steps, emptyStep()] }))}>
              {t('funnels.addStep')}
            </Button>
          </Group>
        </Stack>

        <Divider />
        <Stack gap="sm">
          <Group gap="xs">
            <Text fw={600} size="sm">
              {t('funnels.exclusions')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('funnels.exclusionsHint')}
            </Text>
          </Group>
          {state.exclusions.map((x, i) => (
            <StepEditor
              key={i}
              testId={`funnel-exclusion-${i + 1}`}
              label={
                <Select
                  size="sm"
                  w={190}
                  aria-label={t('funnels.between', { a: x.afterStep, b: x.afterStep + 1 })}
                  data={Array.from({ length: n - 1 }, (_, k) => ({ value: String(k + 1), label: t('funnels.between', { a: k + 1, b: k + 2 }) }))}
                  value={String(x.afterStep)}
                  onChange={(v) => set((state) => ({ exclusions: state.exclusions.map((e, j) => (j === i ? { ...e, afterStep: Number(v ?? 1) } : e)) }))}
                  allowDeselect={false}
                />
              }
              step={x.step}
              options={options}
              onChange={(s) => set((state) => ({ exclusions: state.exclusions.map((e, j) => (j === i ? { ...e, step: s } : e)) }))}
              actions={
                <ActionIcon variant="subtle" color="gray" aria-label={t('funnels.removeExclusion')} onClick={() => set((state) => ({ exclusions: state.exclusions.filter((_, j) => j !== i) }))}>
                  <IconTrash size={16} />
                </ActionIcon>
              }
            />
          ))}
          <Group>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlus size={14} />}
              disabled={state.exclusions.length >= FUNNEL_LIMITS.maxExclusions}
              onClick={() => set((state) => ({ exclusions: [...state.exclusions, { step: emptyStep(), afterStep: 1 }] }))}
            >
              {t('funnels.addExclusion')}
            </Button>
          </Group>
        </Stack>

        <Divider />
        <Group align="flex-end" gap="md" wrap="wrap">
          <Input.Wrapper label={t('funnels.window')}>
            <Group gap={6} wrap="nowrap">
              <NumberInput
                key={`w-${state.window.value}-${state.window.unit}`}
                w={90}
                aria-label={t('funnels.windowValue')}
                min={1}
                max={state.window.unit === 'minute' ? 129_600 : state.window.unit === 'hour' ? 2160 : 90}
                clampBehavior="strict"
                allowDecimal={false}
                defaultValue={state.window.value}
                onBlur={(e) => {
                  const value = Number(e.currentTarget.value);
                  if (Number.isInteger(value) && value >= 1 && value !== state.window.value) set((state) => ({ window: { ...state.window, value } }));
                }}
              />
              <Select
                w={120}
                aria-label={t('funnels.window')}
                data={WindowUnit.options.map((u) => ({ value: u, label: t(`funnels.units.${u}`) }))}
                value={state.window.unit}
                onChange={(u) => {
                  const unit = WindowUnit.parse(u ?? 'day');
                  const limit = unit === 'minute' ? 129_600 : unit === 'hour' ? 2160 : 90;
                  set((state) => ({ window: { unit, value: Math.min(state.window.value, limit) } }));
                }}
                allowDeselect={false}
              />
            </Group>
          </Input.Wrapper>
          <Input.Wrapper label={t('funnels.order')} labelProps={{ id: 'funnel-order' }}>
            <Tooltip label={t('funnels.orderHint')} multiline w={320} openDelay={400}>
              <SegmentedControl
                display="flex"
                aria-labelledby="funnel-order"
                value={state.order}
                onChange={(v) => set(() => ({ order: FunnelOrder.parse(v) }))}
                data={FunnelOrder.options.map((o) => ({ value: o, label: t(`funnels.orders.${o}`) }))}
              />
            </Tooltip>
          </Input.Wrapper>
          <Input.Wrapper label={t('funnels.timeGroup')} labelProps={{ id: 'funnel-group' }}>
            <SegmentedControl
              display="flex"
              aria-labelledby="funnel-group"
              value={range.timeGroup}
              onChange={(v) => setRange({ ...range, timeGroup: TimeGroup.parse(v) })}
              data={TimeGroup.options.map((g) => ({ value: g, label: t(`dateRange.group.${g}`) }))}
            />
          </Input.Wrapper>
        </Group>
        <Group align="flex-end" gap="md" wrap="wrap">
          <Select
            w={210}
            label={t('funnels.breakdown')}
            data={[
              { value: NO_BREAKDOWN, label: t('funnels.breakdownNone') },
              ...PERSON_ATTRIBUTES.map((a) => ({ value: a, label: t(`funnels.attributes.${a}`) })),
              { value: PROPERTY, label: t('funnels.breakdownProperty') },
            ]}
            value={breakdownValue}
            onChange={(v) => set(() => ({
              breakdown: !v || v === NO_BREAKDOWN ? null : v === PROPERTY ? { kind: 'property', property: '' } : { kind: 'attribute', field: v },
            }))}
            allowDeselect={false}
            data-testid="funnel-breakdown"
          />
          {state.breakdown?.kind === 'property' && (
            <>
              <Input.Wrapper label={t('funnels.breakdownPropertyName')}>
                <CommitInput
                  key={state.breakdown.property}
                  w={200}
                  aria-label={t('funnels.breakdownPropertyName')}
                  value={state.breakdown.property}
                  onCommit={(property) => set(() => ({ breakdown: { kind: 'property', property: property.trim() } }))}
                />
              </Input.Wrapper>
              <Select
                w={170}
                label={t('funnels.attribution')}
                data={[
                  { value: 'first', label: t('funnels.attributions.first') },
                  { value: 'last', label: t('funnels.attributions.last') },
                  ...state.steps.map((_, i) => ({ value: `step:${i + 1}`, label: t('funnels.attributions.step', { n: i + 1 }) })),
                ]}
                value={attributionValue}
                onChange={(v) => set(() => ({ attribution: v?.startsWith('step:') ? { step: Number(v.slice(5)) } : v === 'last' ? 'last' : 'first' }))}
                allowDeselect={false}
              />
            </>
          )}
          <Switch mb={8} label={t('funnels.compare')} checked={state.compare} onChange={(e) => set(() => ({ compare: e.currentTarget.checked }))} />
        </Group>
      </Stack>
    </Paper>
  );
}
