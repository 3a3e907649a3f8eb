import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';

/**
 * A value in monospace with a copy button (app keys, device ids, short links). `shown` is what the
 * cell shows when it is a shorter form of the value (a short link's path); the tooltip and the copy
 * always carry the whole value.
 */
export function CopyField({ value, label, maw, shown, size }: { value: string; label: string; maw?: number; shown?: string; size?: 'sm' }) {
  const { t } = useT();
  return (
    <Group gap={4} wrap="nowrap">
      <Text className="gd-mono" size={size} truncate="end" maw={maw} title={value}>
        {shown ?? value}
      </Text>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('common.copied') : `${t('common.copy')}: ${label}`}>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="sm" onClick={copy} aria-label={`${t('common.copy')}: ${label}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
