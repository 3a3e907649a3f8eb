import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from './usePageTitle.ts';

/** Title, description and primary action of a page; also names the browser tab. On phones the actions wrap under the text (app/global.css). */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  usePageTitle(title);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="nowrap" gap="lg" className="gd-page-header">
      <Stack gap={4} miw={0}>
        <Title order={1} fz={26}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" maw={720}>
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
          {actions}
        </Group>
      )}
    </Group>
  );
}
