import { Group, Loader, Text } from '@mantine/core';
import { useT } from '../../i18n/useT.ts';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';

/** "Updating…" while a refetch runs over data already shown, after the 100 ms debounce. */
export function Refreshing({ active }: { active: boolean }) {
  const { t } = useT();
  const shown = useDelayedFlag(active);
  if (!shown) return null;
  return (
    <Group gap={6} role="status" aria-live="polite">
      <Loader size={14} />
      <Text size="xs" c="dimmed">
        {t('analytics.refreshing')}
      </Text>
    </Group>
  );
}
