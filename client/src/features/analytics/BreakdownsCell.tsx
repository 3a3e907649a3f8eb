/**
 * The "Breakdowns" cell of a custom event in /manage/events: the properties marked as breakdowns
 * (explore answers a breakdown by them from a rollup kept as events arrive), each a badge, outlined
 * with an hourglass ("counting past events", also its tooltip) while its backfill runs. With api:events.edit a pencil opens a dialog
 * to pick them (at most ANALYTICS_LIMITS.maxBreakdownProperties; free text with the event's most
 * frequent properties of the last 7 days as suggestions, since a property may not have been sent
 * lately). Saving replaces the whole set.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Group, TagsInput, Text, Tooltip } from '@mantine/core';
import { IconHourglass, IconPencil } from '@tabler/icons-react';
import { ANALYTICS_LIMITS, type EventDefinition } from '@gd/shared/schemas/behaviour';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { truncateLabel } from './labels.ts';

function BreakdownsDialog({ appId, definition, onClose, onSaved }: { appId: string; definition: EventDefinition; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const name = definition.name;
  const [properties, setProperties] = useState(definition.breakdowns.map((b) => b.property));
  const [failure, setFailure] = useState<unknown>(null);
  const [submitting, setSubmitting] = useState(false);
  const suggestions = useApiQuery('eventProperties', { params: { appId }, query: { name }, scope: 'app', range: true });
  const data = [...new Set([...(suggestions.data?.properties.map((p) => p.name) ?? []), ...properties])];
  const max = ANALYTICS_LIMITS.maxBreakdownProperties;
  return (
    <FormModal
      title={t('manageEventsScreen.breakdownsTitle', { event: name })}
      intro={t('manageEventsScreen.breakdownsHelp', { event: name, max })}
      failure={failure}
      submitLabel={t('common.save')}
      submitting={submitting}
      submitTestId="save-breakdowns"
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        setSubmitting(true);
        setFailure(null);
        api.call('setEventBreakdowns', { params: { appId, eventName: name }, body: { properties } })
          .then(() => {
            notifySuccess(t('manageEventsScreen.breakdownsSaved', { event: name }));
            onSaved();
            onClose();
          })
          .catch((error: unknown) => setFailure(error))
          .finally(() => setSubmitting(false));
      }}
    >
      <TagsInput
        label={t('manageEventsScreen.breakdowns')}
        aria-label={t('manageEventsScreen.breakdownsOf', { event: name })}
        placeholder={properties.length < max ? t('manageEventsScreen.breakdownsPlaceholder') : undefined}
        data={data}
        value={properties}
        onChange={(values) => setProperties(values.map((v) => v.trim()).filter((v, i, all) => v !== '' && all.indexOf(v) === i).slice(0, max))}
        maxTags={max}
        clearable
        comboboxProps={{ withinPortal: true }}
      />
    </FormModal>
  );
}

export function BreakdownsCell({ appId, definition, canEdit, onSaved }: { appId: string; definition: EventDefinition; canEdit: boolean; onSaved: () => void }) {
  const { t } = useT();
  const [editing, setEditing] = useState(false);
  const marks = definition.breakdowns;
  return (
    <Group gap={6} wrap="nowrap" justify="space-between" data-testid="event-breakdowns">
      <Group gap={4} wrap="wrap">
        {marks.length === 0 && <Text size="sm" c="dimmed">{t('manageEventsScreen.noBreakdowns')}</Text>}
        {marks.map((m) => (
          <Tooltip key={m.property} label={t('manageEventsScreen.breakdownsPending')} disabled={m.ready} withArrow>
            <Badge
              size="sm" variant={m.ready ? 'light' : 'outline'} color={m.ready ? 'blue' : 'gray'} tt="none" data-ready={m.ready}
              leftSection={m.ready ? undefined : <IconHourglass size={12} aria-label={t('manageEventsScreen.pendingBadge')} />}
            >
              {truncateLabel(m.property)}
            </Badge>
          </Tooltip>
        ))}
      </Group>
      {canEdit && (
        <ActionIcon variant="subtle" color="gray" aria-label={t('manageEventsScreen.editBreakdowns', { event: definition.name })} onClick={() => setEditing(true)}>
          <IconPencil size={16} />
        </ActionIcon>
      )}
      {editing && <BreakdownsDialog appId={appId} definition={definition} onClose={() => setEditing(false)} onSaved={onSaved} />}
    </Group>
  );
}
