import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';

/** A value in monospace with a copy button (app keys, device ids). */
export function CopyField({ value, label, maw }: { value: string; label: string; maw?: number }) {
  const { t } = useT();
  return (
    <Group gap={4} wrap="nowrap">
      <Text className="gd-mono" truncate maw={maw} title={value}>
        {value}
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
