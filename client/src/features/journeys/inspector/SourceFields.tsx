/** Entry steps: an audience (picked from the app's, or a segment's first condition) or the events that start the journey (picked from its catalogue). */
import { Radio, Stack } from '@mantine/core';
import type { JourneyStep, StepOf } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { ConditionEditor } from './ConditionEditor.tsx';
import { useFieldError, type Patch } from './context.ts';
import { AudiencePicker, EventsPicker } from './Pickers.tsx';
import { withFirstCondition } from './segmentCondition.ts';
import { switchSourceKind } from './stepEdits.ts';

type Source = StepOf<'sourceAudience'> | StepOf<'sourceEvents'>;
const SOURCE_KINDS = ['sourceAudience', 'sourceEvents'] as const;

/**
 * The kind of entry, as radio buttons stacked with a line each: the two kinds' names are long in
 * some languages (Spanish), and side by side in the inspector's column they were cut off.
 */
export function SourceKind({ step, onChange }: { step: Source; onChange: (step: JourneyStep) => void }) {
  const { t } = useT();
  return (
    <Radio.Group
      label={t('journeyEditor.inspector.sourceKind')}
      value={step.type}
      onChange={(v) => {
        const kind = SOURCE_KINDS.find((k) => k === v);
        if (kind && kind !== step.type) onChange(switchSourceKind(step, kind));
      }}
      data-testid="source-kind"
    >
      <Stack gap="xs" mt={6}>
        {SOURCE_KINDS.map((kind) => (
          <Radio key={kind} value={kind} label={t(`stepType.${kind}`)} description={t(`journeyEditor.stepHint.${kind}`)} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

export function AudienceFields({ step, patch }: { step: StepOf<'sourceAudience'>; patch: Patch<StepOf<'sourceAudience'>> }) {
  const { t } = useT();
  const audienceError = useFieldError(['audienceId']);
  const segmentError = useFieldError(['segment']);
  return (
    <>
      <AudiencePicker value={step.audienceId ?? null} error={audienceError} onChange={(id) => patch((s) => ({ ...s, audienceId: id }))} />
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
  const error = useFieldError(['eventIds']);
  return <EventsPicker values={step.eventIds} error={error} onChange={(eventIds) => patch((s) => ({ ...s, eventIds }))} />;
}
