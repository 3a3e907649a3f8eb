/**
 * Tells the person which of their changes another person's concurrent (or offline) change
 * replaced: on which step and field, who changed it, their value and ours, with "Restore mine"
 * (writes ours back; undoable like any edit) and "Show" (selects the step). A step that the other
 * change removed is named, with nothing to restore; so is a step of theirs that the other change cut
 * off and that was put back on the journey (why it moved). At most three are listed; the rest are
 * counted.
 */
import { Alert, Anchor, Button, CloseButton, Group, Stack, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import type { Journey } from '@gd/shared/journey/model';
import { useT } from '../../i18n/useT.ts';
import { stepLabel } from './canvas/labels.ts';
import { fieldLabel } from './fieldLabels.ts';
import type { ShownConflict } from './useJourneyConflicts.ts';

const SHOWN = 3;
const MAX_VALUE = 60;

function valueText(value: unknown): string {
  const text = value === null || value === undefined || value === '' ? '—' : typeof value === 'string' ? value : Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

interface Props {
  conflicts: ShownConflict[];
  journey: Journey;
  readOnly: boolean;
  onShow: (stepId: string) => void;
  onRestore: (key: string) => void;
  onDismiss: (key: string) => void;
}

export function ConflictNotice({ conflicts, journey, readOnly, onShow, onRestore, onDismiss }: Props) {
  const { t } = useT();
  if (conflicts.length === 0) return null;
  const shown = conflicts.slice(-SHOWN).reverse();
  return (
    <Alert color="orange" variant="light" icon={<IconArrowsExchange size={16} />} py="xs" data-testid="conflict-notice" title={t('journeys.conflict.title', { count: conflicts.length })}>
      <Stack gap={6}>
        {shown.map((c) => {
          const step = journey.steps.find((s) => s.id === c.stepId);
          const stepName = step ? stepLabel(t, step) : c.stepId;
          const field = fieldLabel(t, c.field);
          const who = c.by ?? t('journeys.conflict.someone');
          return (
            <Group key={c.key} justify="space-between" wrap="nowrap" gap="sm" data-testid="conflict" data-step={c.stepId} data-field={c.field} data-relinked={c.relinked === true}>
              <Text size="sm" style={{ minWidth: 0 }}>
                {c.relinked
                  ? t('journeys.conflict.relinked', { step: stepName, who })
                  : c.removed || !step
                    ? t('journeys.conflict.removed', { step: stepName, who })
                    : t('journeys.conflict.replaced', { step: stepName, field, who, theirs: valueText(c.theirs), mine: valueText(c.mine) })}
              </Text>
              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                {step && (
                  <Anchor component="button" type="button" size="sm" onClick={() => onShow(c.stepId)}>
                    {t('journeys.conflict.show')}
                  </Anchor>
                )}
                {step && !c.removed && !c.relinked && !readOnly && (
                  <Button size="compact-xs" variant="light" color="orange" onClick={() => onRestore(c.key)} data-testid="restore-mine">
                    {t('journeys.conflict.restore')}
                  </Button>
                )}
                <CloseButton size="sm" aria-label={t('journeys.conflict.dismiss')} onClick={() => onDismiss(c.key)} />
              </Group>
            </Group>
          );
        })}
        {conflicts.length > SHOWN && (
          <Text size="xs" c="dimmed">
            {t('journeys.conflict.more', { count: conflicts.length - SHOWN })}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
