/**
 * Pickers for what a journey names in the app (issue 11), fed by the same lists as the segment
 * editor (useSegmentOptions): the audience of an audience entry, the events of an events entry and
 * of an event branch (built-in events by their labels, then the app's catalogue). What the
 * document holds is always shown, also when the app does not have it (then marked, and the step
 * shows the problem). Without the right to read a list, events fall back to typed names.
 */
import { MultiSelect, Select, TagsInput } from '@mantine/core';
import type { TFunction } from '../../../i18n/keys.ts';
import { useT } from '../../../i18n/useT.ts';
import { useSegmentOptions, type Option, type SegmentOptions } from '../../../entities/segment/useSegmentOptions.ts';

const withHeld = (t: TFunction, items: Option[], values: readonly string[]): Option[] => {
  const missing = values.filter((v) => v !== '' && !items.some((o) => o.value === v));
  return [...items, ...missing.map((v) => ({ value: v, label: t('journeyEditor.inspector.notInApp', { name: v }) }))];
};

function eventGroups(t: TFunction, options: SegmentOptions, values: readonly string[]) {
  const known = [...options.automaticEvents, ...options.appEvents];
  const held = withHeld(t, known, values).slice(known.length);
  return [
    { group: t('journeyEditor.inspector.appEvents'), items: options.appEvents },
    { group: t('journeyEditor.inspector.automaticEvents'), items: options.automaticEvents },
    ...(held.length > 0 ? [{ group: t('journeyEditor.inspector.notInCatalogue'), items: held }] : []),
  ].filter((g) => g.items.length > 0);
}

export function AudiencePicker({ value, error, onChange }: { value: string | null; error?: string; onChange: (id: string | null) => void }) {
  const { t } = useT();
  const options = useSegmentOptions();
  return (
    <Select
      label={t('journeyEditor.inspector.audience')}
      placeholder={t('journeyEditor.inspector.audiencePick')}
      data={withHeld(t, options.audiences, value ? [value] : [])}
      value={value}
      searchable
      clearable
      nothingFoundMessage={t('journeyEditor.inspector.nothingFound')}
      error={error}
      onChange={onChange}
      comboboxProps={{ withinPortal: true }}
      data-testid="audience-picker"
    />
  );
}

export function EventsPicker({ values, error, onChange }: { values: string[]; error?: string; onChange: (names: string[]) => void }) {
  const { t } = useT();
  const options = useSegmentOptions();
  if (!options.knownEvents) {
    return (
      <TagsInput
        label={t('journeyEditor.inspector.eventIds')}
        description={t('journeyEditor.inspector.eventIdsHint')}
        value={values}
        splitChars={[',']}
        acceptValueOnBlur
        clearable
        error={error}
        onChange={(names) => onChange(names.map((e) => e.trim()).filter(Boolean))}
      />
    );
  }
  return (
    <MultiSelect
      label={t('journeyEditor.inspector.eventIds')}
      placeholder={values.length === 0 ? t('journeyEditor.inspector.eventPick') : undefined}
      data={eventGroups(t, options, values)}
      value={values}
      searchable
      clearable
      nothingFoundMessage={t('journeyEditor.inspector.nothingFound')}
      error={error}
      onChange={onChange}
      comboboxProps={{ withinPortal: true }}
      data-testid="events-picker"
    />
  );
}

export function EventPicker({ value, error, onChange }: { value: string | null; error?: string; onChange: (name: string | null) => void }) {
  const { t } = useT();
  const options = useSegmentOptions();
  return (
    <Select
      label={t('journeyEditor.inspector.eventId')}
      placeholder={t('journeyEditor.inspector.eventPick')}
      data={eventGroups(t, options, value ? [value] : [])}
      value={value}
      searchable
      clearable
      nothingFoundMessage={t('journeyEditor.inspector.nothingFound')}
      error={error}
      onChange={onChange}
      comboboxProps={{ withinPortal: true }}
      data-testid="event-picker"
    />
  );
}
