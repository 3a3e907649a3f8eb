/**
 * A side panel whose figures follow what is being edited (the segment estimate, a message's
 * what-if): its title, an "updating" indicator while a newer answer is on its way, and the body.
 * The `data-*` attributes go on the panel, for tests and tools.
 */
import type { ReactNode } from 'react';
import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';

export function LivePanel({ title, updating, updatingLabel, children, ...data }: {
  title: string;
  updating: boolean;
  updatingLabel: string;
  children: ReactNode;
} & Record<`data-${string}`, string | number | boolean | undefined>) {
  return (
    <Paper withBorder radius="md" p="md" data-pending={updating} {...data}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="sm" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.4 }}>
            {title}
          </Title>
          {updating && (
            <Group gap={6} wrap="nowrap" role="status" aria-live="polite">
              <Loader size={12} />
              <Text size="xs" c="dimmed">
                {updatingLabel}
              </Text>
            </Group>
          )}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
