/**
 * Add a widget from the dashboard itself: a key figure (a metric's total and its variation), a
 * chart of one event's metric (with an optional breakdown), a funnel (2 to 20 steps, the
 * conversion window and the order) or a retention table (start event, return event or any event,
 * period). The widget is built by widgetBuilders.ts, with the funnel and cohort screens' own query
 * builders, so it is the widget their "Add to dashboard" would add; filters, exclusions and
 * breakdowns of funnels and retention are built on those screens. The event lists are the app's
 * catalogue (custom events not hidden, and the built-in ones).
 */
import { useState } from 'react';
import { ActionIcon, Button, Group, Input, NumberInput, SegmentedControl, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { WIDGET_TITLE_MAX, type DayRangeOf, type NewWidget } from '@gd/shared/dashboard/model';
import { ExploreBreakdown, ExploreMetric } from '@gd/shared/schemas/behaviour';
import { COHORT_PERIODS } from '@gd/shared/schemas/cohorts';
import { FUNNEL_LIMITS, FunnelOrder, WindowUnit } from '@gd/shared/schemas/funnels';
import { useT } from '../../i18n/useT.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { eventName } from '../../entities/explore/exploreLabels.ts';
import { DEFAULT_DRAFT, WIDGET_KINDS, buildWidget, defaultTitle, draftProblems, type DraftProblem, type WidgetDraft } from './widgetBuilders.ts';

/** `returnEvent` '' is "any event": a Select needs a non-empty value for it. */
const ANY_EVENT = '__any__';

function problemText(t: TFunction, p: DraftProblem): string {
  switch (p.code) {
    case 'choose': return t('validation.choose');
    case 'required': return t('validation.required');
    case 'stepCount': return t('dashboards.widget.stepCount', { min: FUNNEL_LIMITS.minSteps, max: FUNNEL_LIMITS.maxSteps });
    case 'windowInvalid': return t('dashboards.widget.windowInvalid');
    case 'windowTooLong': return t('dashboards.widget.windowTooLong');
    default: {
      const never: never = p;
      throw new Error(`unknown problem ${JSON.stringify(never)}`);
    }
  }
}

export function AddWidgetDialog({ appId, range, onAdd, onClose }: {
  appId: string;
  /** The dashboard window's days (the funnel and cohort query builders want a range; the widget keeps none). */
  range: DayRangeOf;
  onAdd: (widget: NewWidget) => void;
  onClose: () => void;
}) {
  const { t } = useT();
  const catalogue = useApiQuery('listEventDefinitions', { params: { appId }, scope: 'app' });
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<WidgetDraft>({
    initialValues: DEFAULT_DRAFT,
    validate: (values) => Object.fromEntries(draftProblems(values).map((p) => [p.path, problemText(t, p)])),
  });
  const custom = catalogue.data?.custom ?? [];
  const events = [
    ...custom.filter((d) => !d.hidden).map((d) => ({ value: d.name, label: eventName(t, d.name, d.label) })),
    ...(catalogue.data?.builtIn ?? []).map((d) => ({ value: d.name, label: d.label })),
  ];
  const labels = {
    event: (name: string) => events.find((e) => e.value === name)?.label ?? eventName(t, name, custom.find((d) => d.name === name)?.label),
    metric: (m: ExploreMetric) => t(`explore.metrics.${m}`),
    cohort: t('nav.cohort'),
  };
  const v = form.values;
  const eventSelect = (field: 'event' | 'start', label: string, testId: string) => (
    <Select label={label} data={events} searchable placeholder={t('funnels.pickEvent')} nothingFoundMessage={t('common.nothingFound')} data-testid={testId} comboboxProps={{ withinPortal: true }} {...form.getInputProps(field)} />
  );

  const submit = form.onSubmit((values) => {
    setFailure(null);
    const built = buildWidget(values, range, labels);
    if (!built.ok) {
      setFailure(built.error);
      return;
    }
    onAdd(built.widget);
  });

  return (
    <FormModal title={t('dashboards.addWidgetTitle')} failure={failure} submitLabel={t('dashboards.addWidget')} submitting={false} submitTestId="add-widget-submit" onSubmit={submit} onClose={onClose}>
      <Stack gap="sm">
        <SegmentedControl
          fullWidth
          aria-label={t('dashboards.widget.kind')}
          data={WIDGET_KINDS.map((k) => ({ value: k, label: t(`dashboards.widget.kinds.${k}`) }))}
          data-testid="widget-kind"
          {...form.getInputProps('kind')}
        />
        {(v.kind === 'kpi' || v.kind === 'explore') && (
          <>
            {eventSelect('event', t('dashboards.widget.event'), 'widget-event')}
            <Select
              label={t('dashboards.widget.metric')}
              data={ExploreMetric.options.map((m) => ({ value: m, label: labels.metric(m) }))}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('metric')}
            />
          </>
        )}
        {v.kind === 'explore' && (
          <Select
            label={t('dashboards.widget.breakdown')}
            data={[{ value: '', label: t('dashboards.widget.noBreakdown') }, ...ExploreBreakdown.options.map((b) => ({ value: b, label: t(`explore.breakdowns.${b}`) }))]}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('breakdown')}
          />
        )}
        {v.kind === 'explore' && v.breakdown === 'property' && (
          <TextInput label={t('dashboards.widget.property')} maxLength={64} {...form.getInputProps('property')} />
        )}

        {v.kind === 'funnel' && (
          <>
            <Input.Wrapper label={t('funnels.steps')} error={form.errors.steps}>
              <Stack gap={6} data-testid="widget-steps">
                {v.steps.map((_, i) => (
                  <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
                    <Text size="sm" c="dimmed" w={20} ta="right" pt={6}>{t('funnels.stepN', { n: i + 1 })}</Text>
                    <Select
                      style={{ flex: 1 }}
                      aria-label={t('funnels.step', { n: i + 1 })}
                      placeholder={t('funnels.pickEvent')}
                      data={events}
                      searchable
                      nothingFoundMessage={t('common.nothingFound')}
                      data-testid={`widget-step-${i + 1}`}
                      comboboxProps={{ withinPortal: true }}
                      {...form.getInputProps(`steps.${i}`)}
                    />
                    <Tooltip label={t('funnels.removeStep')}>
                      <ActionIcon
                        variant="subtle" color="gray" mt={4} aria-label={`${t('funnels.removeStep')} ${i + 1}`}
                        disabled={v.steps.length <= FUNNEL_LIMITS.minSteps}
                        onClick={() => form.removeListItem('steps', i)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                ))}
                <Group>
                  <Button
                    variant="subtle" size="xs" leftSection={<IconPlus size={14} />} data-testid="widget-add-step"
                    disabled={v.steps.length >= FUNNEL_LIMITS.maxSteps}
                    onClick={() => form.insertListItem('steps', '')}
                  >
                    {t('funnels.addStep')}
                  </Button>
                </Group>
              </Stack>
            </Input.Wrapper>
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <NumberInput
                label={t('funnels.window')}
                aria-label={t('funnels.windowValue')}
                style={{ flex: 1 }}
                min={1}
                allowDecimal={false}
                allowNegative={false}
                data-testid="widget-window"
                {...form.getInputProps('windowValue')}
              />
              <Select
                label={t('dashboards.widget.windowUnit')}
                style={{ flex: 1 }}
                data-testid="widget-window-unit"
                data={WindowUnit.options.map((u) => ({ value: u, label: t(`funnels.units.${u}`) }))}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('windowUnit')}
              />
            </Group>
            <Select
              label={t('funnels.order')}
              description={t('funnels.orderHint')}
              data-testid="widget-order"
              data={FunnelOrder.options.map((o) => ({ value: o, label: t(`funnels.orders.${o}`) }))}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('order')}
            />
          </>
        )}

        {v.kind === 'cohort' && (
          <>
            {eventSelect('start', t('cohorts.startEvent'), 'widget-start-event')}
            <Select
              label={t('cohorts.returnEvent')}
              data={[{ value: ANY_EVENT, label: t('cohorts.anyEvent') }, ...events]}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('common.nothingFound')}
              data-testid="widget-return-event"
              comboboxProps={{ withinPortal: true }}
              value={v.returnEvent || ANY_EVENT}
              onChange={(value) => form.setFieldValue('returnEvent', !value || value === ANY_EVENT ? '' : value)}
            />
            <Input.Wrapper label={t('cohorts.period')} labelProps={{ id: 'widget-period' }}>
              <SegmentedControl
                fullWidth
                aria-labelledby="widget-period"
                data={COHORT_PERIODS.map((p) => ({ value: p, label: t(`cohorts.periods.${p}`) }))}
                {...form.getInputProps('period')}
              />
            </Input.Wrapper>
          </>
        )}

        {(v.kind === 'funnel' || v.kind === 'cohort') && <Text size="xs" c="dimmed">{t('dashboards.widget.moreOnScreen')}</Text>}
        <TextInput label={t('dashboards.widget.title')} placeholder={draftProblems(v).length === 0 ? defaultTitle(v, labels) : ''} maxLength={WIDGET_TITLE_MAX} data-testid="widget-title-input" {...form.getInputProps('title')} />
      </Stack>
    </FormModal>
  );
}
