/** Fields of the single-next steps that need little: waits, messages, tag counts; notes for join and end. */
import { Text } from '@mantine/core';
import { messageChannel, type StepOf } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { useFieldErrors, type Patch } from './context.ts';
import { DraftNumberInput, DraftTextInput } from '../../../ui/draft.tsx';
import { DurationField } from './DurationField.tsx';
import { MessagePickers } from './Pickers.tsx';
import { useJourneyMessages } from '../useJourneyMessages.ts';

type Message = StepOf<'actionMessagePush'> | StepOf<'actionMessageInApp'> | StepOf<'actionMessageEmail'>;
const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

export function WaitFields({ step, patch }: { step: StepOf<'flowWait'>; patch: Patch<StepOf<'flowWait'>> }) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  return (
    <DurationField
      label={t('journeyEditor.inspector.waitFor')}
      seconds={step.duration}
      error={errorAt(['duration'])}
      onCommit={(duration) => patch((s) => ({ ...s, duration }))}
    />
  );
}

export function MessageFields({ step, patch }: { step: Message; patch: Patch<Message> }) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  const { readable } = useJourneyMessages();
  const channel = messageChannel(step.type) ?? 'push';
  if (readable) {
    return <MessagePickers channel={channel} campaignId={step.campaignId} messageId={step.messageId} onChange={(campaignId, messageId) => patch((s) => ({ ...s, campaignId, messageId }))} />;
  }
  // Without the right to read the app's messages: the ids, typed.
  return (
    <>
      <DraftTextInput
        label={t('journeyEditor.inspector.campaignId')}
        value={step.campaignId ?? ''}
        error={errorAt(['campaignId'])}
        onCommit={(v) => patch((s) => ({ ...s, campaignId: orNull(v) }))}
      />
      <DraftTextInput
        label={t('journeyEditor.inspector.messageId')}
        value={step.messageId ?? ''}
        error={errorAt(['messageId'])}
        onCommit={(v) => patch((s) => ({ ...s, messageId: orNull(v) }))}
      />
    </>
  );
}

export function TagFields({ step, patch }: { step: StepOf<'updateTagCount'>; patch: Patch<StepOf<'updateTagCount'>> }) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  return (
    <>
      <DraftTextInput label={t('journeyEditor.inspector.tagId')} value={step.tagId ?? ''} error={errorAt(['tagId'])} onCommit={(v) => patch((s) => ({ ...s, tagId: orNull(v) }))} />
      <DraftNumberInput
        label={t('journeyEditor.inspector.tagAmount')}
        description={t('journeyEditor.inspector.tagAmountHint')}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={step.amount}
        allowDecimal={false}
        min={-1_000_000}
        max={1_000_000}
        error={errorAt(['amount'])}
        onCommit={(v) => patch((s) => ({ ...s, amount: v === null ? 0 : Math.round(v) }))}
      />
    </>
  );
}

export function Note({ children }: { children: string }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}
