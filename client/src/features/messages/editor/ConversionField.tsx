/**
 * The message's conversion settings (shared message/conversion.ts): the goal event, picked from the
 * app's events (built-in and the catalogue's own, like the segment editor's), and the window in days.
 * Frozen with the rest of the draft on approval; the metrics count with the approved version's.
 */
import { Group, NumberInput, Select } from '@mantine/core';
import { jsonEqual } from '@gd/shared/journey/json';
import { CONVERSION_LIMITS, type MessageConversion } from '@gd/shared/message/conversion';
import { useSegmentOptions } from '../../../entities/segment/useSegmentOptions.ts';
import { useT } from '../../../i18n/useT.ts';
import { Field, useForm } from './formContext.tsx';
import { wholeNumber } from './wholeNumber.ts';

export function ConversionField() {
  const { t } = useT();
  const { draft, readOnly, edit, errorAt } = useForm();
  const options = useSegmentOptions();
  const conversion = draft.conversion;
  const set = (next: MessageConversion) => edit((d) => (jsonEqual(d.conversion, next) ? d : { ...d, conversion: next }));
  // An event can be both automatic and in the app's catalogue (e_screen_name): listed once (the select refuses duplicates).
  const known = [...options.automaticEvents, ...options.appEvents].filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i);
  const data = known.some((o) => o.value === conversion.eventName) ? known : [{ value: conversion.eventName, label: conversion.eventName }, ...known];
  const { minWindowDays: min, maxWindowDays: max } = CONVERSION_LIMITS;
  return (
    <Field path="conversion">
      <Group gap="md" align="flex-start" wrap="wrap">
        <Select
          label={t('messageAnalytics.settings.goal')}
          description={t('messageAnalytics.settings.goalHelp')}
          data={data}
          value={conversion.eventName}
          searchable
          allowDeselect={false}
          readOnly={readOnly}
          w={320}
          error={errorAt('conversion.eventName')}
          onChange={(v) => v && set({ ...conversion, eventName: v })}
          data-testid="conversion-event"
        />
        <NumberInput
          label={t('messageAnalytics.settings.window')}
          description={t('messageAnalytics.settings.windowHelp', { min, max })}
          value={conversion.windowDays}
          min={min}
          max={max}
          allowDecimal={false}
          allowNegative={false}
          readOnly={readOnly}
          w={320}
          error={errorAt('conversion.windowDays')}
          clampBehavior="blur"
          onChange={(v) => {
            // What is typed, unclamped: validation shows a value out of range.
            const windowDays = wholeNumber(v);
            if (windowDays !== null) set({ ...conversion, windowDays });
          }}
          data-testid="conversion-window"
        />
      </Group>
    </Field>
  );
}
