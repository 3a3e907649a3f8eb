/**
 * One custom event of /manage/events. With api:events.edit the label is edited in place (saved
 * on Enter or when the field loses focus, Escape restores it), the conversion type and the hidden
 * flag save as they change, the breakdown properties through their dialog (BreakdownsCell.tsx);
 * without it the row only shows them.
 */
import { useState } from 'react';
import { Select, Switch, Table, Text, TextInput } from '@mantine/core';
import { ANALYTICS_LIMITS, type EventDefinition, type EventDefinitionUpdate } from '@gd/shared/schemas/behaviour';
import { ConversionType } from '@gd/shared/behaviour/events';
import { useT } from '../../i18n/useT.ts';
import { formatDate } from '../../ui/format.ts';
import { BreakdownsCell } from './BreakdownsCell.tsx';
import { truncateLabel } from './labels.ts';

/** The label in place: keyed by the saved label, so it starts again from it after each save. */
function LabelField({ name, saved, onSave }: { name: string; saved: string | null; onSave: (change: EventDefinitionUpdate) => Promise<boolean> }) {
  const { t } = useT();
  const [label, setLabel] = useState(saved ?? '');
  const save = async () => {
    const next = label.trim();
    if (next === (saved ?? '')) return;
    if (!(await onSave({ label: next === '' ? null : next }))) setLabel(saved ?? '');
  };
  return (
    <TextInput
      size="xs"
      aria-label={t('manageEventsScreen.labelOf', { event: name })}
      placeholder={t('manageEventsScreen.labelPlaceholder')}
      maxLength={ANALYTICS_LIMITS.maxLabelLength}
      value={label}
      onChange={(e) => setLabel(e.currentTarget.value)}
      onBlur={() => void save()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') setLabel(saved ?? '');
      }}
    />
  );
}

export function CustomEventRow({ appId, definition, canEdit, onSave, onBreakdownsSaved }: {
  appId: string;
  definition: EventDefinition;
  canEdit: boolean;
  onSave: (change: EventDefinitionUpdate) => Promise<boolean>;
  onBreakdownsSaved: () => void;
}) {
  const { t, lang } = useT();
  const conversions = ConversionType.options.map((c) => ({ value: c, label: t(`conversionType.${c}`) }));
  const name = definition.name;

  return (
    <Table.Tr data-testid="custom-event-row">
      <Table.Td>
        <Text size="sm" ff="monospace" truncate title={name}>
          {truncateLabel(name)}
        </Text>
      </Table.Td>
      <Table.Td>
        {canEdit ? (
          <LabelField key={definition.label ?? ''} name={name} saved={definition.label} onSave={onSave} />
        ) : (
          <Text size="sm" c={definition.label ? undefined : 'dimmed'} truncate title={definition.label ?? undefined}>
            {definition.label ? truncateLabel(definition.label) : t('analytics.noValue')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {canEdit ? (
          <Select
            size="xs"
            aria-label={t('manageEventsScreen.conversionOf', { event: name })}
            placeholder={t('manageEventsScreen.noConversion')}
            data={conversions}
            value={definition.conversionType}
            onChange={(value) => void onSave({ conversionType: value === null ? null : ConversionType.parse(value) })}
            clearable
            searchable
          />
        ) : (
          <Text size="sm" c={definition.conversionType ? undefined : 'dimmed'}>
            {definition.conversionType ? t(`conversionType.${definition.conversionType}`) : t('manageEventsScreen.noConversion')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <BreakdownsCell appId={appId} definition={definition} canEdit={canEdit} onSaved={onBreakdownsSaved} />
      </Table.Td>
      <Table.Td>
        <Switch
          aria-label={t('manageEventsScreen.hiddenOf', { event: name })}
          checked={definition.hidden}
          disabled={!canEdit}
          onChange={(e) => void onSave({ hidden: e.currentTarget.checked })}
        />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {definition.firstSeenAt ? formatDate(definition.firstSeenAt, lang) : t('analytics.noValue')}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
