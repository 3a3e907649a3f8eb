/** The right column of the journey editor when a run panel is open: its title, a close button and the panel, scrolled. */
import type { ReactNode } from 'react';
import { ActionIcon, Group, ScrollArea, Title, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useT } from '../../../i18n/useT.ts';

export function RunSidePanel({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId: string }) {
  const { t } = useT();
  return (
    <>
      <Group justify="space-between" wrap="nowrap" px="md" py="sm" className="gd-run-panel__header">
        <Title order={2} fz="md" fw={700}>
          {title}
        </Title>
        <Tooltip label={t('journeyRun.tools.close')} withArrow>
          <ActionIcon variant="subtle" color="gray" onClick={onClose} aria-label={t('journeyRun.tools.close')} data-testid="close-run-panel">
            <IconX size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <ScrollArea style={{ flex: 1 }} type="auto" scrollbars="y" p="md" data-testid={testId}>
        {children}
      </ScrollArea>
    </>
  );
}
