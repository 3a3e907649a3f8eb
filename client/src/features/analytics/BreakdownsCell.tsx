/**
 * The "Breakdowns" cell of a custom event in /manage/events: the properties marked as breakdowns
 * (explore answers a breakdown by them from a rollup kept as events arrive), each a badge by the
 * state of its backfill (schemas/behaviour.ts `BreakdownState`; looks in breakdownBadge.ts): filled when ready; outlined with
 * an hourglass ("counting past events", also its tooltip) while it counts; orange with a warning
 * sign when every attempt failed, its tooltip giving the last error and saying that explore keeps
 * reading the events (right, only slower), and, with api:events.edit, a retry button beside it
 * that starts the backfill over. With api:events.edit a pencil opens a dialog
 * to pick them (at most ANALYTICS_LIMITS.maxBreakdownProperties; free text with the event's most
 * frequent properties of the last 7 days as suggestions, since a property may not have been sent
 * lately). Saving replaces the whole set.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Group, TagsInput, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconHourglass, IconPencil, IconRefresh } from '@tabler/icons-react';
import { ANALYTICS_LIMITS, type BreakdownMark, type EventDefinition } from '@gd/shared/schemas/behaviour';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { markLook } from './breakdownBadge.ts';
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

/** One mark: its badge (breakdownBadge.ts) and, for a failed one and an editor, the retry button. */
function Mark({ appId, event, mark, canEdit, onRetried }: { appId: string; event: string; mark: BreakdownMark; canEdit: boolean; onRetried: () => void }) {
  const { t } = useT();
  const [retrying, setRetrying] = useState(false);
  const look = markLook(t, mark, canEdit);
  const retry = () => {
    setRetrying(true);
    api.call('retryEventBreakdown', { params: { appId, eventName: event }, body: { property: mark.property } })
      .then(() => {
        notifySuccess(t('manageEventsScreen.breakdownRetried', { property: mark.property }));
        onRetried();
      })
      .catch((error: unknown) => notifyError(t, error))
      .finally(() => setRetrying(false));
  };
  const Icon = look.icon?.kind === 'warning' ? IconAlertTriangle : IconHourglass;
  return (
    <Group gap={2} wrap="nowrap">
      <Tooltip label={look.tooltip} disabled={look.tooltip === null} multiline maw={320} withArrow>
        <Badge
          size="sm" variant={look.variant} color={look.color} tt="none" data-ready={mark.ready} data-state={mark.state} tabIndex={look.tooltip === null ? undefined : 0}
          leftSection={look.icon ? <Icon size={12} aria-label={look.icon.label} /> : undefined}
        >
          {truncateLabel(mark.property)}
        </Badge>
      </Tooltip>
      {look.retry !== null && (
        <Tooltip label={look.retry} withArrow>
          <ActionIcon size="sm" variant="subtle" color="orange" loading={retrying} aria-label={look.retry} onClick={retry} data-testid="retry-breakdown">
            <IconRefresh size={14} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
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
        {marks.map((m) => <Mark key={m.property} appId={appId} event={definition.name} mark={m} canEdit={canEdit} onRetried={onSaved} />)}
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
