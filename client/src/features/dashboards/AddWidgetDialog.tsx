/**
 * Add a widget from the dashboard itself: a chart of one event's metric (with an optional
 * breakdown) or a key figure (the metric's total and its variation). Funnel and retention widgets
 * come from their screens' "Add to dashboard" (their queries are built there). The event list is
 * the app's catalogue (custom events and the built-in ones).
 */
import { useState } from 'react';
import { SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NewWidget, WIDGET_TITLE_MAX } from '@gd/shared/dashboard/model';
import { ExploreBreakdown, ExploreMetric } from '@gd/shared/schemas/behaviour';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { eventName } from '../../entities/explore/exploreLabels.ts';

type Kind = 'explore' | 'kpi';

export function AddWidgetDialog({ appId, onAdd, onClose }: { appId: string; onAdd: (widget: NewWidget) => void; onClose: () => void }) {
  const { t } = useT();
  const catalogue = useApiQuery('listEventDefinitions', { params: { appId }, scope: 'app' });
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { kind: 'kpi' as Kind, title: '', event: '', metric: 'events', breakdown: '', property: '' },
    validate: {
      event: (v) => (v ? null : t('validation.choose')),
      property: (v, values) => (values.kind === 'explore' && values.breakdown === 'property' && v.trim() === '' ? t('validation.required') : null),
    },
  });
  const events = [
    ...(catalogue.data?.custom ?? []).filter((d) => !d.hidden).map((d) => ({ value: d.name, label: eventName(t, d.name, d.label) })),
    ...(catalogue.data?.builtIn ?? []).map((d) => ({ value: d.name, label: d.label })),
  ];
  const metricLabel = (m: string) => t(`explore.metrics.${ExploreMetric.parse(m)}`);
  const defaultTitle = (v: typeof form.values) => {
    const label = events.find((e) => e.value === v.event)?.label ?? v.event;
    return `${label} · ${metricLabel(v.metric)}`;
  };

  const submit = form.onSubmit((v) => {
    setFailure(null);
    const breakdown = v.kind === 'explore' && v.breakdown ? v.breakdown : undefined;
    const query = v.kind === 'kpi'
      ? { event: v.event, metric: v.metric }
      : { event: v.event, metric: v.metric, ...(breakdown ? { breakdown } : {}), ...(breakdown === 'property' ? { property: v.property.trim() } : {}) };
    const parsed = NewWidget.safeParse({ kind: v.kind, title: (v.title.trim() || defaultTitle(v)).slice(0, WIDGET_TITLE_MAX), query });
    if (!parsed.success) {
      setFailure(parsed.error);
      return;
    }
    onAdd(parsed.data);
  });

  return (
    <FormModal title={t('dashboards.addWidgetTitle')} failure={failure} submitLabel={t('dashboards.addWidget')} submitting={false} submitTestId="add-widget-submit" onSubmit={submit} onClose={onClose}>
      <Stack gap="sm">
        <SegmentedControl
          fullWidth
          aria-label={t('dashboards.widget.kind')}
          data={(['kpi', 'explore'] as const).map((k) => ({ value: k, label: t(`dashboards.widget.kinds.${k}`) }))}
          {...form.getInputProps('kind')}
        />
        <Select label={t('dashboards.widget.event')} data={events} searchable data-testid="widget-event" comboboxProps={{ withinPortal: true }} {...form.getInputProps('event')} />
        <Select
          label={t('dashboards.widget.metric')}
          data={ExploreMetric.options.map((m) => ({ value: m, label: metricLabel(m) }))}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('metric')}
        />
        {form.values.kind === 'explore' && (
          <Select
            label={t('dashboards.widget.breakdown')}
            data={[{ value: '', label: t('dashboards.widget.noBreakdown') }, ...ExploreBreakdown.options.map((b) => ({ value: b, label: t(`explore.breakdowns.${b}`) }))]}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('breakdown')}
          />
        )}
        {form.values.kind === 'explore' && form.values.breakdown === 'property' && (
          <TextInput label={t('dashboards.widget.property')} maxLength={64} {...form.getInputProps('property')} />
        )}
        <TextInput label={t('dashboards.widget.title')} placeholder={form.values.event ? defaultTitle(form.values) : ''} maxLength={WIDGET_TITLE_MAX} data-testid="widget-title-input" {...form.getInputProps('title')} />
      </Stack>
    </FormModal>
  );
}
