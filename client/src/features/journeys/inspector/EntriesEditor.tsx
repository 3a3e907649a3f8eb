/** A list of name/value rows (postback headers and body parameters). */
import { ActionIcon, Button, Group, Input, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { PostbackEntry } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { DraftTextInput } from '../../../ui/draft.tsx';

const MAX_ENTRIES = 100;

interface Props {
  label: string;
  entries: readonly PostbackEntry[];
  readOnly: boolean;
  /** Applies a change to the latest list. */
  onUpdate: (fn: (entries: PostbackEntry[]) => PostbackEntry[]) => void;
  errorAt: (index: number) => string | undefined;
}

export function EntriesEditor({ label, entries, readOnly, onUpdate, errorAt }: Props) {
  const { t } = useT();
  const setAt = (i: number, patch: Partial<PostbackEntry>) => onUpdate((es) => es.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Input.Label labelElement="div">
        {label}
      </Input.Label>
      {entries.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('journeyEditor.inspector.noEntries')}
        </Text>
      )}
      {entries.map((e, i) => {
        const error = errorAt(i);
        return (
          <Stack key={i} gap={2}>
            <Group gap={6} wrap="nowrap" align="flex-start">
              <DraftTextInput
                size="xs"
                style={{ flex: 1 }}
                aria-label={`${label} ${i + 1}: ${t('journeyEditor.inspector.param')}`}
                placeholder={t('journeyEditor.inspector.param')}
                value={e.param}
                error={!!error}
                onCommit={(param) => setAt(i, { param })}
              />
              <DraftTextInput
                size="xs"
                style={{ flex: 1.4 }}
                aria-label={`${label} ${i + 1}: ${t('journeyEditor.inspector.value')}`}
                placeholder={t('journeyEditor.inspector.value')}
                value={e.value}
                error={!!error}
                onCommit={(value) => setAt(i, { value })}
              />
              {!readOnly && (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size={30}
                  aria-label={t('journeyEditor.inspector.removeEntry', { index: i + 1 })}
                  onClick={() => onUpdate((es) => es.filter((_, j) => j !== i))}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              )}
            </Group>
            {error && (
              <Text size="xs" c="red">
                {error}
              </Text>
            )}
          </Stack>
        );
      })}
      {!readOnly && entries.length < MAX_ENTRIES && (
        <Button
          variant="subtle"
          size="compact-xs"
          leftSection={<IconPlus size={12} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={() => onUpdate((es) => [...es, { param: '', value: '' }])}
        >
          {t('journeyEditor.inspector.addEntry')}
        </Button>
      )}
    </Stack>
  );
}
