/**
 * The settings of one step: a form per step type (SPEC.md section 3), field errors from the
 * journey's violations, typed fields committed on blur, Enter or after 300 ms (never per keystroke).
 */
import { useMemo, type ReactNode } from 'react';
import { Alert, Badge, Button, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconTrash } from '@tabler/icons-react';
import { stepCategory, type Journey, type JourneyStep } from '@gd/shared/journey/model';
import { addPath, allowedInteractions } from '@gd/shared/journey/rules';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { useT } from '../../../i18n/useT.ts';
import { newPathId } from '../canvas/ops.ts';
import { STEP_VISUALS } from '../canvas/stepVisuals.ts';
import type { JourneyOp } from '../canvas/types.ts';
import { violationText } from '../../../entities/journey/violationText.ts';
import { InspectorContext, useStepPatch, type Patch } from './context.ts';
import { DraftTextInput } from '../../../ui/draft.tsx';
import { stepLevelViolations } from './fieldErrors.ts';
import { isOneOf, withName } from './stepEdits.ts';
import { PathsFields } from './PathsFields.tsx';
import { PostbackFields } from './PostbackFields.tsx';
import { MessageFields, Note, TagFields, WaitFields } from './SimpleFields.tsx';
import { AudienceFields, EventsFields, SourceKind } from './SourceFields.tsx';

export interface StepInspectorProps {
  journey: Journey;
  step: JourneyStep;
  violations: JourneyViolation[];
  readOnly: boolean;
  onChange: (step: JourneyStep) => void;
  onRemove: () => void;
  /**
   * Optional: path additions and removals as ops (a removed path takes what only it reached, like
   * the canvas). Without it they go through onChange, and a removed path's steps stay, unlinked.
   */
  onOp?: (op: JourneyOp) => void;
}

const narrow = <S extends JourneyStep>(patch: Patch<JourneyStep>, is: (s: JourneyStep) => s is S): Patch<S> => (fn) => patch((s) => (is(s) ? fn(s) : s));

export function StepInspector(props: StepInspectorProps) {
  // A new step (or a new kind of entry) starts with fresh drafts.
  return <InspectorBody key={`${props.step.id}:${props.step.type}`} {...props} />;
}

function TypeFields({ journey, step, readOnly, onChange, onOp, patch }: StepInspectorProps & { patch: Patch<JourneyStep> }) {
  const { t } = useT();
  switch (step.type) {
    case 'sourceAudience':
      return <AudienceFields step={step} patch={narrow(patch, isOneOf('sourceAudience'))} />;
    case 'sourceEvents':
      return <EventsFields step={step} patch={narrow(patch, isOneOf('sourceEvents'))} />;
    case 'flowInteraction':
    case 'flowEvent':
    case 'flowRandom':
    case 'flowSplit':
    case 'flowWaitInteraction': {
      const onAddPath = () => {
        const pathId = newPathId();
        if (onOp) onOp({ kind: 'addPath', stepId: step.id, pathId });
        else {
          const added = addPath(journey, step.id, pathId).steps.find((s) => s.id === step.id);
          if (added) onChange(added);
        }
      };
      const onRemovePath = (index: number) => {
        if (onOp) onOp({ kind: 'removePath', stepId: step.id, pathIndex: index });
        else onChange({ ...step, paths: step.paths.filter((_, i) => i !== index) });
      };
      return (
        <PathsFields
          step={step}
          interactions={allowedInteractions(journey, step.id)}
          readOnly={readOnly}
          patch={narrow(patch, isOneOf('flowInteraction', 'flowEvent', 'flowRandom', 'flowSplit', 'flowWaitInteraction'))}
          onAddPath={onAddPath}
          onRemovePath={onRemovePath}
        />
      );
    }
    case 'flowWait':
      return <WaitFields step={step} patch={narrow(patch, isOneOf('flowWait'))} />;
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail':
      return <MessageFields step={step} patch={narrow(patch, isOneOf('actionMessagePush', 'actionMessageInApp', 'actionMessageEmail'))} />;
    case 'actionPostback':
      return <PostbackFields step={step} readOnly={readOnly} patch={narrow(patch, isOneOf('actionPostback'))} />;
    case 'updateTagCount':
      return <TagFields step={step} patch={narrow(patch, isOneOf('updateTagCount'))} />;
    case 'flowJoin':
      return <Note>{t('journeyEditor.inspector.join')}</Note>;
    case 'end':
      return <Note>{t('journeyEditor.inspector.end')}</Note>;
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

function InspectorBody(props: StepInspectorProps) {
  const { journey, step, violations, readOnly, onChange, onRemove } = props;
  const { t } = useT();
  const patch = useStepPatch(step, onChange);
  const context = useMemo(() => ({ stepId: step.id, violations, readOnly }), [step.id, violations, readOnly]);
  const general = stepLevelViolations(violations, step.id);
  const { icon: Icon, color } = STEP_VISUALS[step.type];
  const isEntry = step.id === journey.entryId;
  let footer: ReactNode = null;
  if (!readOnly && isEntry) footer = <Text size="xs" c="dimmed">{t('journeyEditor.inspector.entryFixed')}</Text>;
  else if (!readOnly) {
    footer = (
      <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={onRemove} style={{ alignSelf: 'flex-start' }}>
        {t('journeyEditor.inspector.remove')}
      </Button>
    );
  }
  return (
    <InspectorContext.Provider value={context}>
      <Stack gap="md" component="section" aria-label={t('journeyEditor.inspector.label')} data-testid="step-inspector">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={38} radius="md" variant="light" color={color} aria-hidden>
            <Icon size={21} />
          </ThemeIcon>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600} lh={1.2}>
              {t(`journeyEditor.category.${stepCategory(step.type)}`)}
            </Text>
            <Title order={4} lineClamp={1}>
              {t(`stepType.${step.type}`)}
            </Title>
          </div>
          {step.auto && (
            <Badge variant="outline" color="gray" style={{ borderStyle: 'dashed' }}>
              {t('journeyEditor.canvas.automatic')}
            </Badge>
          )}
        </Group>
        {readOnly && (
          <Alert variant="light" color="gray" icon={<IconLock size={16} />} p="xs">
            {t('journeyEditor.inspector.readOnly')}
          </Alert>
        )}
        {step.auto && !readOnly && <Note>{t('journeyEditor.inspector.automatic')}</Note>}
        {general.length > 0 && (
          <Alert variant="light" color="red" icon={<IconAlertTriangle size={16} />} title={t('journeyEditor.inspector.stepProblems')} role="alert" p="xs">
            <List size="sm" spacing={2}>
              {general.map((v, i) => (
                <List.Item key={i}>{violationText(t, v)}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            {(step.type === 'sourceAudience' || step.type === 'sourceEvents') && <SourceKind step={step} onChange={onChange} />}
            <DraftTextInput
              label={t('journeyEditor.inspector.name')}
              placeholder={t(`stepType.${step.type}`)}
              value={step.name ?? ''}
              maxLength={200}
              onCommit={(name) => patch((s) => withName(s, name))}
            />
            <TypeFields {...props} patch={patch} />
          </Stack>
        </fieldset>
        {footer}
      </Stack>
    </InspectorContext.Provider>
  );
}
