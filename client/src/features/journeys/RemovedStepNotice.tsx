/**
 * In the settings panel, in place of a step that someone else removed while this person had it
 * open: who removed it, whether what they were typing was still unsaved, and "Put it back" (where
 * it was, with their typing; undoable like any edit) or "Dismiss".
 */
import { Button, Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconTrashX } from '@tabler/icons-react';
import { useT } from '../../i18n/useT.ts';
import { stepLabel } from './canvas/labels.ts';
import type { RemovedStep } from './useRemovedWhileOpen.ts';

interface Props {
  removed: RemovedStep;
  /** The remover's name, when known. */
  by: string | null;
  readOnly: boolean;
  onPutBack: () => void;
  onDismiss: () => void;
}

export function RemovedStepNotice({ removed, by, readOnly, onPutBack, onDismiss }: Props) {
  const { t } = useT();
  const who = by ?? t('journeys.conflict.someone');
  return (
    <Center style={{ flex: 1 }} p="lg">
      <Stack align="center" gap="sm" maw={280} data-testid="step-removed" role="status">
        <ThemeIcon size={40} radius="xl" variant="light" color="orange" aria-hidden>
          <IconTrashX size={22} />
        </ThemeIcon>
        <Text size="sm" fw={600} ta="center">
          {t('journeys.removedWhileOpen.title')}
        </Text>
        <Text size="sm" c="dimmed" ta="center">
          {t('journeys.removedWhileOpen.body', { who, step: stepLabel(t, removed.step) })}
          {removed.unsaved && !readOnly && ` ${t('journeys.removedWhileOpen.unsaved')}`}
        </Text>
        <Group gap="xs" justify="center">
          {!readOnly && (
            <Button size="xs" variant="light" color="orange" onClick={onPutBack} data-testid="put-back">
              {t('journeys.removedWhileOpen.putBack')}
            </Button>
          )}
          <Button size="xs" variant="default" onClick={onDismiss}>
            {t('journeys.conflict.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
