/**
 * The sync status of an open document, always visible in its editor: saved (online), offline,
 * syncing, or "N changes not yet saved", with a tooltip saying what that means. Announced politely.
 */
import { Badge, Tooltip } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconCloudUp, IconEye, IconLoader2, IconAlertTriangle } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import type { SyncStatus } from './status.ts';

export function SyncStatusBadge({ status, unsynced, readOnly }: { status: SyncStatus; unsynced: number; readOnly: boolean }) {
  const { t } = useT();
  const pending = !readOnly && unsynced > 0 && (status === 'offline' || status === 'syncing');
  let color: string;
  let label: string;
  let hint: string;
  let icon;
  switch (status) {
    case 'online':
      // A viewer saves nothing: their copy is simply current.
      [color, label, hint, icon] = ['teal', readOnly ? t('journeys.sync.upToDate') : t('journeys.sync.online'), t('journeys.sync.onlineHint'), <IconCloudCheck size={14} />];
      break;
    case 'offline':
      [color, label, hint, icon] = ['orange', t('journeys.sync.offline'), t('journeys.sync.offlineHint'), <IconCloudOff size={14} />];
      break;
    case 'syncing':
      [color, label, hint, icon] = ['blue', t('journeys.sync.syncing'), t('journeys.sync.syncingHint'), <IconCloudUp size={14} />];
      break;
    case 'loading':
      [color, label, hint, icon] = ['gray', t('journeys.sync.loading'), t('journeys.sync.loadingHint'), <IconLoader2 size={14} />];
      break;
    case 'error':
      [color, label, hint, icon] = ['red', t('journeys.sync.error'), t('journeys.sync.errorHint'), <IconAlertTriangle size={14} />];
      break;
    default: {
      const never: never = status;
      throw new Error(`unknown sync status ${String(never)}`);
    }
  }
  // Offline with changes waiting: the count is the news (colour, icon and tooltip say offline).
  const spoken = pending && status === 'offline' ? `${t('journeys.sync.offline')} · ${t('journeys.sync.unsynced', { count: unsynced })}` : null;
  if (pending) {
    label = t('journeys.sync.unsynced', { count: unsynced });
    hint = `${hint} ${t('journeys.sync.unsyncedHint')}`;
  }
  if (readOnly) hint = `${hint} ${t('journeys.sync.readOnly')}`;
  return (
    <Tooltip label={hint} multiline w={280} withArrow>
      <Badge
        variant="light"
        color={color}
        size="lg"
        radius="sm"
        tt="none"
        fw={500}
        leftSection={readOnly && status === 'online' ? <IconEye size={14} /> : icon}
        role="status"
        aria-live="polite"
        aria-label={`${t('journeys.sync.label')}: ${spoken ?? label}`}
        data-testid="sync-status"
        data-status={status}
        data-unsynced={readOnly ? 0 : unsynced}
        tabIndex={0}
        style={{ flexShrink: 0, minWidth: 'max-content' }}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
