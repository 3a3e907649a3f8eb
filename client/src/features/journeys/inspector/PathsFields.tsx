/** The paths of a branching step: name and, by step type, interaction, event, segment, share or timeout. */
import { ActionIcon, Button, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { InteractionType, type BranchingStep, type JourneyPath } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { pathLabelText } from '../canvas/labels.ts';
import { pathLabel } from '../canvas/toFlow.ts';
import { ConditionEditor } from './ConditionEditor.tsx';
import { EventPicker } from './Pickers.tsx';
import { useFieldError, useFieldErrors, type Patch } from './context.ts';
import { DraftNumberInput, DraftTextInput } from '../../../ui/draft.tsx';
import { DurationField } from './DurationField.tsx';
import { withFirstCondition } from './segmentCondition.ts';

const MAX_PATHS = 50;

interface Props {
  step: BranchingStep;
  /** Interactions that fit the messages before this step (allowedInteractions). */
  interactions: readonly InteractionType[];
  readOnly: boolean;
  patch: Patch<BranchingStep>;
  onAddPath: () => void;
  onRemovePath: (index: number) => void;
}

function PathFields({ step, index, interactions, patch }: Omit<Props, 'onAddPath' | 'onRemovePath' | 'readOnly'> & { index: number }) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  const path = step.paths[index];
  if (!path) return null;
  const last = index === step.paths.length - 1;
  const err = (field: string) => errorAt(['paths', index, field]);
  const actionError = err('action');
  const eventError = err('eventId');
  const segmentError = err('segment');
  const amountError = err('amount');
  const durationError = err('duration');
  const set = (fn: (p: JourneyPath) => JourneyPath) =>
    patch((s) => ({ ...s, paths: s.paths.map((p) => (p.id === path.id ? fn(p) : p)) }));
  const otherwise = <Text size="xs" c="dimmed">{t('journeyEditor.inspector.otherwise')}</Text>;
  switch (step.type) {
    case 'flowInteraction':
    case 'flowWaitInteraction':
      if (last) {
        return step.type === 'flowWaitInteraction' ? (
          <DurationField label={t('journeyEditor.inspector.timeout')} seconds={path.duration ?? null} error={durationError} onCommit={(duration) => set((p) => ({ ...p, duration }))} />
        ) : (
          otherwise
        );
      }
      return (
        <Select
          label={t('journeyEditor.inspector.action')}
          value={path.action ?? null}
          data={interactions.map((a) => ({ value: a, label: t(`journeyEditor.interaction.${a}`) }))}
          disabled={interactions.length === 0}
          description={interactions.length === 0 ? t('journeyEditor.inspector.actionNone') : undefined}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          error={actionError}
          onChange={(v) => set((p) => ({ ...p, action: InteractionType.safeParse(v).data ?? null }))}
        />
      );
    case 'flowEvent':
      if (last) return otherwise;
      return <EventPicker value={path.eventId ?? null} error={eventError} onChange={(eventId) => set((p) => ({ ...p, eventId }))} />;
    case 'flowSplit':
      if (last) return otherwise;
      return (
        <ConditionEditor
          label={t('journeyEditor.inspector.segment')}
          segment={path.segment ?? null}
          error={segmentError}
          onChange={(c) => set((p) => ({ ...p, segment: withFirstCondition(p.segment ?? null, c) }))}
        />
      );
    case 'flowRandom': {
      const total = step.paths.reduce((sum, p) => sum + (p.amount ?? 0), 0);
      const share = total > 0 ? Math.round(((path.amount ?? 0) / total) * 100) : 0;
      return (
        <DraftNumberInput
          label={t('journeyEditor.inspector.amount')}
          description={t('journeyEditor.inspector.amountHint', { share })}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={path.amount === null || path.amount === undefined ? null : Math.round(path.amount * 1000) / 10}
          min={0}
          max={100}
          decimalScale={1}
          suffix="%"
          error={amountError}
          onCommit={(v) => set((p) => ({ ...p, amount: v === null ? null : Math.min(1, Math.max(0, v / 100)) }))}
        />
      );
    }
    default: {
      const never: never = step;
      throw new Error(`unknown branching step ${JSON.stringify(never)}`);
    }
  }
}

export function PathsFields(props: Props) {
  const { t } = useT();
  const { step, readOnly, patch, onAddPath, onRemovePath } = props;
  const pathsError = useFieldError(['paths']);
  const removable = (i: number) => step.paths.length > 2 && (step.type === 'flowRandom' || i < step.paths.length - 1);
  return (
    <Stack gap="sm">
      <Text size="sm" fw={600}>
        {t('journeyEditor.inspector.paths')}
      </Text>
      {step.paths.map((path, i) => (
        <Paper key={path.id} withBorder radius="md" p="sm">
          <Stack gap="xs">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                {t('journeyEditor.inspector.path', { index: i + 1 })}
              </Text>
              {!readOnly && removable(i) && (
                <Tooltip label={t('journeyEditor.inspector.removePath', { index: i + 1 })}>
                  <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('journeyEditor.inspector.removePath', { index: i + 1 })} onClick={() => onRemovePath(i)}>
                    <IconTrash size={14} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
            <DraftTextInput
              label={t('journeyEditor.inspector.pathName')}
              placeholder={pathLabelText(t, pathLabel({ ...step, paths: step.paths.map((p) => ({ ...p, name: '' })) }, i))}
              value={path.name}
              maxLength={200}
              onCommit={(name) => patch((s) => ({ ...s, paths: s.paths.map((p) => (p.id === path.id ? { ...p, name } : p)) }))}
            />
            <PathFields {...props} index={i} />
          </Stack>
        </Paper>
      ))}
      {pathsError && (
        <Text size="xs" c="red" role="alert">
          {pathsError}
        </Text>
      )}
      {!readOnly && step.paths.length < MAX_PATHS && (
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={onAddPath} style={{ alignSelf: 'flex-start' }}>
          {t('journeyEditor.inspector.addPath')}
        </Button>
      )}
    </Stack>
  );
}
