import type { ReactNode } from 'react';
import { Group } from '@mantine/core';

/** A tab's actions, right-aligned above its table (a summary text may sit on the left). */
export function PanelActions({ children, summary }: { children: ReactNode; summary?: ReactNode }) {
  return (
    <Group justify={summary ? 'space-between' : 'flex-end'} mb="sm" gap="sm" wrap="nowrap">
      {summary}
      <Group gap="sm" wrap="nowrap">{children}</Group>
    </Group>
  );
}
