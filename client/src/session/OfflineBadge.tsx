/**
 * "Offline" in the header while the session comes from the browser's copy (the API cannot be
 * reached; see store.ts). Nothing otherwise.
 */
import { Badge, Tooltip } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { formatDateTime } from '../ui/format.ts';
import { useSession } from './store.ts';

export function OfflineBadge() {
  const { t, lang } = useT();
  const since = useSession((s) => s.offlineSince);
  if (since === null) return null;
  const time = formatDateTime(new Date(since).toISOString(), lang);
  return (
    <Tooltip label={t('journeys.sync.sessionOfflineHint', { time })} multiline w={300} withArrow>
      <Badge color="orange" variant="light" size="lg" radius="sm" tt="none" fw={500} leftSection={<IconCloudOff size={14} />} tabIndex={0} role="status" data-testid="session-offline">
        {t('journeys.sync.offline')}
      </Badge>
    </Tooltip>
  );
}
