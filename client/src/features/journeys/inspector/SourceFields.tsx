/** Entry steps: an audience (id, or a segment's first condition) or the events that start the journey. */
import { useId } from 'react';
import { Input, SegmentedControl, Stack, TagsInput } from '@mantine/core';
import type { JourneyStep, StepOf } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { ConditionEditor } from './ConditionEditor.tsx';
import { useFieldError, type Patch } from './context.ts';
import { DraftTextInput } from './draft.tsx';
import { withFirstCondition } from './segmentCondition.ts';
import { switchSourceKind } from './stepEdits.ts';

type Source = StepOf<'sourceAudience'> | StepOf<'sourceEvents'>;

export function SourceKind({ step, onChange }: { step: Source; onChange: (step: JourneyStep) => void }) {
  const { t } = useT();
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Input.Label labelElement="div" id={labelId}>
        {t('journeyEditor.inspector.sourceKind')}
      </Input.Label>
      <SegmentedControl
        fullWidth
        aria-labelledby={labelId}
        value={step.type}
        data={[
          { value: 'sourceAudience', label: t('stepType.sourceAudience') },
          { value: 'sourceEvents', label: t('stepType.sourceEvents') },
        ]}
        onChange={(v) => {
          if ((v === 'sourceAudience' || v === 'sourceEvents') && v !== step.type) onChange(switchSourceKind(step, v));
        }}
      />
    </Stack>
  );
}

export function AudienceFields({ step, patch }: { step: StepOf<'sourceAudience'>; patch: Patch<StepOf<'sourceAudience'>> }) {
  const { t } = useT();
  const audienceError = useFieldError(['audienceId']);
  const segmentError = useFieldError(['segment']);
  return (
    <>
      <DraftTextInput
        label={t('journeyEditor.inspector.audienceId')}
        value={step.audienceId ?? ''}
        error={audienceError}
        onCommit={(v) => patch((s) => ({ ...s, audienceId: v.trim() === '' ? null : v.trim() }))}
      />
      <ConditionEditor
        label={t('journeyEditor.inspector.segmentOr')}
        segment={step.segment}
        error={segmentError}
        onChange={(c) => patch((s) => ({ ...s, segment: withFirstCondition(s.segment, c) }))}
      />
    </>
  );
}

export function EventsFields({ step, patch }: { step: StepOf<'sourceEvents'>; patch: Patch<StepOf<'sourceEvents'>> }) {
  const { t } = useT();
  const error = useFieldError(['eventIds']);
  return (
    <TagsInput
      label={t('journeyEditor.inspector.eventIds')}
      description={t('journeyEditor.inspector.eventIdsHint')}
      value={step.eventIds}
      splitChars={[',']}
      acceptValueOnBlur
      clearable
      error={error}
      onChange={(eventIds) => patch((s) => ({ ...s, eventIds: eventIds.map((e) => e.trim()).filter(Boolean) }))}
    />
  );
}
