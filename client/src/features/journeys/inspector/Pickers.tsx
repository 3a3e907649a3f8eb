/**
 * Pickers for what a journey names in the app (issue 11), fed by the same lists as the segment
 * editor (useSegmentOptions): the audience of an audience entry, the events of an events entry and
 * of an event branch (built-in events by their labels, then the app's catalogue). What the
 * document holds is always shown, also when the app does not have it (then marked, and the step
 * shows the problem). Without the right to read a list, events fall back to typed names.
 */
import { Link } from 'react-router';
import { Anchor, Group, Loader, MultiSelect, Select, TagsInput, Text } from '@mantine/core';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import type { MessageChannel } from '@gd/shared/journey/model';
import type { TFunction } from '../../../i18n/keys.ts';
import { useT } from '../../../i18n/useT.ts';
import { useSegmentOptions, type Option, type SegmentOptions } from '../../../entities/segment/useSegmentOptions.ts';
import { MessageStatusBadge } from '../../../entities/message/MessageStatus.tsx';
import { campaignsForChannel, heldMessageProblem, messagesForChannel, newJourneyMessageHref, notApprovedYet } from '../messages.ts';
import { useJourneyMessages } from '../useJourneyMessages.ts';
import { useFieldErrors, useInspectorReadOnly } from './context.ts';

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

/** `label` and `testId` default to an events entry's; the journey settings pass their own. */
export function EventsPicker({ values, error, onChange, label, testId = 'events-picker' }: { values: string[]; error?: string; onChange: (names: string[]) => void; label?: string; testId?: string }) {
  const { t } = useT();
  const options = useSegmentOptions();
  if (!options.knownEvents) {
    return (
      <TagsInput
        label={label ?? t('journeyEditor.inspector.eventIds')}
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
      label={label ?? t('journeyEditor.inspector.eventIds')}
      placeholder={values.length === 0 ? t('journeyEditor.inspector.eventPick') : undefined}
      data={eventGroups(t, options, values)}
      value={values}
      searchable
      clearable
      nothingFoundMessage={t('journeyEditor.inspector.nothingFound')}
      error={error}
      onChange={onChange}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}

/** `label`, `placeholder` and `testId` default to an event branch's; the journey settings and the simulation pass their own. */
export function EventPicker({ value, error, onChange, label, placeholder, testId = 'event-picker', size }: EventPickerProps) {
  const { t } = useT();
  const options = useSegmentOptions();
  return (
    <Select
      label={label ?? t('journeyEditor.inspector.eventId')}
      placeholder={placeholder ?? t('journeyEditor.inspector.eventPick')}
      size={size}
      data={eventGroups(t, options, value ? [value] : [])}
      value={value}
      searchable
      clearable
      nothingFoundMessage={t('journeyEditor.inspector.nothingFound')}
      error={error}
      onChange={onChange}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}

/**
 * The message a message step sends (issue 12): first one of the app's campaigns, then one of its
 * journey messages (origin automatic journey) of the step's channel (messages.ts), each with its
 * status. "Create a message" opens the new-message dialog for a journey message of that channel. Messages not approved yet
 * may be picked; the step then says so. Links open the message, or the messages screen to create
 * one, in a new tab (the journey stays open). The list is read again when a list opens, so a
 * message created meanwhile shows up.
 */
// Option rows: the name takes what the status or count leaves and is cut with an ellipsis (a zero
// width keeps a long name from widening the dropdown's scroll area past the input).
export function MessagePickers({ channel, campaignId, messageId, onChange }: MessagePickersProps) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  const readOnly = useInspectorReadOnly();
  const messages = useJourneyMessages();
  const { campaigns, loaded, refetch } = messages;
  const campaign = campaigns.find((c) => c.id === campaignId);
  const pickable = messagesForChannel(campaign, channel);
  const picked = campaignId && messageId ? messages.find(campaignId, messageId) : undefined;
  const pickedOk = picked && pickable.some((m) => m.id === picked.id);

  // What the step holds but the app does not offer stays shown (marked once the list is known).
  // (Ids only: deleted messages and campaigns are not listed, so their names are not known.)
  const heldCampaign = campaignId && !campaign ? [{ value: campaignId, label: loaded ? t('journeyEditor.inspector.campaignGone') : campaignId }] : [];
  const heldProblem = picked ? heldMessageProblem(picked, channel) : null;
  const heldMessage =
    messageId && !pickedOk
      ? [{
          value: messageId,
          label: picked
            ? heldProblem === 'notJourney' ? t('journeyEditor.inspector.notJourneyMessage', { name: picked.name }) : t(`journeyEditor.inspector.wrongChannel.${channel}`, { name: picked.name })
            : loaded ? t('journeyEditor.inspector.messageGone') : messageId,
        }]
      : [];
  const statusOf = new Map(pickable.map((m) => [m.id, m.status]));
  const listed = campaignsForChannel(campaigns, channel);
  const campaignData = [...listed.map(({ campaign: c }) => ({ value: c.id, label: c.name })), ...heldCampaign];
  const counts = new Map(listed.map(({ campaign: c, count }) => [c.id, count]));
  const loading = messages.readable && !loaded && !messages.failed;

  return (
    <>
      <Select
        label={t('journeyEditor.inspector.campaign')}
        placeholder={loading ? t('journeyEditor.inspector.messagesLoading') : t('journeyEditor.inspector.campaignPick')}
        data={campaignData}
        value={campaignId}
        searchable
        clearable
        nothingFoundMessage={campaigns.length === 0 && loaded ? t('journeyEditor.inspector.noCampaigns') : t('journeyEditor.inspector.nothingFound')}
        error={errorAt(['campaignId'])}
        rightSection={loading ? <Loader size="xs" /> : undefined}
        onDropdownOpen={refetch}
        onChange={(id) => onChange(id, id === campaignId ? messageId : null)}
        renderOption={({ option }) => {
          const count = counts.get(option.value);
          return (
            <Group justify="space-between" wrap="nowrap" gap="xs" w="100%">
              <Text size="sm" truncate="end" title={option.label} style={{ width: 0, flex: 1 }}>
                {option.label}
              </Text>
              {count !== undefined && (
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {count === 0 ? t(`journeyEditor.inspector.campaignNone.${channel}`) : t(`journeyEditor.inspector.campaignMessages.${channel}`, { count })}
                </Text>
              )}
            </Group>
          );
        }}
        comboboxProps={{ withinPortal: true }}
        data-testid="campaign-picker"
      />
      <Select
        label={t('journeyEditor.inspector.message')}
        placeholder={campaignId ? t('journeyEditor.inspector.messagePick') : t('journeyEditor.inspector.messagePickCampaignFirst')}
        data={[...pickable.map((m) => ({ value: m.id, label: m.name })), ...heldMessage]}
        value={messageId}
        disabled={!campaignId}
        searchable
        clearable
        nothingFoundMessage={pickable.length === 0 && loaded ? t(`journeyEditor.inspector.campaignEmpty.${channel}`) : t('journeyEditor.inspector.nothingFound')}
        error={errorAt(['messageId'])}
        onDropdownOpen={refetch}
        onChange={(id) => onChange(campaignId, id)}
        renderOption={({ option }) => {
          const status = statusOf.get(option.value);
          return (
            <Group justify="space-between" wrap="nowrap" gap="xs" w="100%">
              <Text size="sm" truncate="end" title={option.label} style={{ width: 0, flex: 1 }}>
                {option.label}
              </Text>
              {status && <MessageStatusBadge status={status} />}
            </Group>
          );
        }}
        comboboxProps={{ withinPortal: true }}
        data-testid="message-picker"
      />
      {messages.failed && (
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c="red">{t('journeyEditor.inspector.messagesFailed')}</Text>
          <Anchor component="button" type="button" size="xs" onClick={refetch}>
            {t('journeyEditor.inspector.retry')}
          </Anchor>
        </Group>
      )}
      {picked && pickedOk && (
        <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="picked-message">
          <MessageStatusBadge status={picked.status} />
          {notApprovedYet(picked.status) && (
            <Text size="xs" c="orange.8" data-testid="message-not-approved">
              {t('journeyEditor.inspector.notApproved')}
            </Text>
          )}
        </Group>
      )}
      <Group gap="md">
        {picked && (
          <Anchor component={Link} to={`${MESSAGING}?id=${picked.id}`} target="_blank" rel="noopener" size="sm" data-testid="open-message">
            <Group gap={4} wrap="nowrap" component="span">
              <IconExternalLink size={14} aria-hidden />
              {t('journeyEditor.inspector.openMessage')}
            </Group>
          </Anchor>
        )}
        {!readOnly && (
          <Anchor component={Link} to={newJourneyMessageHref(channel)} target="_blank" rel="noopener" size="sm" data-testid="create-message">
            <Group gap={4} wrap="nowrap" component="span">
              <IconPlus size={14} aria-hidden />
              {t('journeyEditor.inspector.createMessage')}
            </Group>
          </Anchor>
        )}
      </Group>
    </>
  );
}

const MESSAGING = '/communication/messaging';

interface EventPickerProps {
  value: string | null;
  error?: string;
  onChange: (name: string | null) => void;
  label?: string;
  placeholder?: string;
  testId?: string;
  size?: 'xs' | 'sm';
}

interface MessagePickersProps {
  channel: MessageChannel;
  campaignId: string | null;
  messageId: string | null;
  /** Both ids at once: a new campaign drops a message of the previous one. */
  onChange: (campaignId: string | null, messageId: string | null) => void;
}
