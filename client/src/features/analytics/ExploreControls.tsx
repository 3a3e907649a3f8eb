/**
 * The explore query controls: event, metric, time group (the shell's range group), breakdown,
 * property name (with suggestions from the event's top properties, applied on pick, Enter or
 * leaving the field) and the previous-period comparison.
 */
import { useState } from 'react';
import { Autocomplete, Group, Input, Paper, SegmentedControl, Select, Switch } from '@mantine/core';
import { EMPTY_SENTINEL } from '@gd/shared/behaviour/events';
import type { DateRange } from '@gd/shared/dateRange';
import { TimeGroup } from '@gd/shared/enums';
import { ExploreBreakdown, ExploreMetric, type BuiltInEventDefinition, type EventDefinition } from '@gd/shared/schemas/behaviour';
import { useT } from '../../i18n/useT.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { eventLabel, truncateLabel } from './labels.ts';
import type { ExploreState } from './exploreState.ts';
import { useAppRangeQuery } from './useAnalytics.ts';

const NO_BREAKDOWN = 'none';

function PropertyField({ appId, event, range, value, onChange }: {
  appId: string; event: string | null; range: DateRange; value: string | null; onChange: (v: string | null) => void;
}) {
  const { t } = useT();
  // Keyed by the applied value (see ExploreControls), so the draft starts from it after each change.
  const [draft, setDraft] = useState(value ?? '');
  const suggestions = useAppRangeQuery('eventProperties', appId, { name: event ?? '', startDay: range.startDay, endDay: range.endDay }, event !== null);
  const names = (suggestions.data?.properties ?? []).map((p) => p.name).filter((n) => n !== EMPTY_SENTINEL);
  const commit = (next: string) => onChange(next.trim() ? next.trim() : null);
  return (
    <Autocomplete
      w={220}
      label={t('explore.property')}
      placeholder={t('explore.propertyPlaceholder')}
      data={names}
      value={draft}
      onChange={setDraft}
      onOptionSubmit={commit}
      onBlur={() => commit(draft)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(draft);
      }}
      maxLength={64}
    />
  );
}

export function ExploreControls({ appId, state, onChange, custom, builtIn }: {
  appId: string;
  state: ExploreState;
  onChange: (next: Partial<ExploreState>) => void;
  custom: readonly EventDefinition[];
  builtIn: readonly BuiltInEventDefinition[];
}) {
  const { t } = useT();
  const range = useDateRange((s) => s.range);
  const setRange = useDateRange((s) => s.setRange);
  const visible = custom.filter((d) => !d.hidden || d.name === state.event);
  const eventOptions = [
    { group: t('analytics.custom'), items: visible.map((d) => ({ value: d.name, label: truncateLabel(eventLabel(t, d.name, d.label)) })) },
    { group: t('analytics.builtIn'), items: builtIn.map((d) => ({ value: d.name, label: truncateLabel(eventLabel(t, d.name)) })) },
  ].filter((g) => g.items.length > 0);

  return (
    <Paper withBorder p="md" component="section" aria-label={t('explore.controls')}>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          w={260}
          label={t('explore.event')}
          placeholder={t('explore.pickEvent')}
          data={eventOptions}
          value={state.event}
          onChange={(event) => onChange({ event })}
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          allowDeselect={false}
          data-testid="explore-event"
        />
        <Select
          w={190}
          label={t('explore.metric')}
          data={ExploreMetric.options.map((m) => ({ value: m, label: t(`explore.metrics.${m}`) }))}
          value={state.metric}
          onChange={(v) => onChange({ metric: ExploreMetric.parse(v ?? 'events') })}
          allowDeselect={false}
        />
        <Input.Wrapper label={t('explore.timeGroup')} labelProps={{ id: 'explore-group' }}>
          <SegmentedControl
            display="flex"
            aria-labelledby="explore-group"
            value={range.timeGroup}
            onChange={(v) => setRange({ ...range, timeGroup: TimeGroup.parse(v) })}
            data={TimeGroup.options.map((g) => ({ value: g, label: t(`dateRange.group.${g}`) }))}
          />
        </Input.Wrapper>
        <Select
          w={200}
          label={t('explore.breakdown')}
          data={[NO_BREAKDOWN, ...ExploreBreakdown.options].map((b) => ({ value: b, label: t(`explore.breakdowns.${b as ExploreBreakdown | typeof NO_BREAKDOWN}`) }))}
          value={state.breakdown ?? NO_BREAKDOWN}
          onChange={(v) => onChange({ breakdown: v && v !== NO_BREAKDOWN ? ExploreBreakdown.parse(v) : null })}
          allowDeselect={false}
        />
        {state.breakdown === 'property' && (
          <PropertyField key={state.property ?? ''} appId={appId} event={state.event} range={range} value={state.property} onChange={(property) => onChange({ property })} />
        )}
        <Switch mb={8} label={t('explore.compare')} checked={state.compare} onChange={(e) => onChange({ compare: e.currentTarget.checked })} />
      </Group>
    </Paper>
  );
}
