/**
 * An audience's shares to ad platforms (the detail's section): per share the platform and
 * integration, its state (syncing, ready, error with the reason, paused), how many people are on
 * the platform audience and how many members have no identifier, the last sync and what it
 * changed; "sync now" and "stop sharing" for who holds the entry's share key. Asked again while a
 * share syncs. Hidden until loaded when there is nothing to show.
 */
import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Badge, Checkbox, Group, Loader, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconDots, IconRefresh, IconShare3, IconTrash } from '@tabler/icons-react';
import { SHARE_PERMISSION, type ShareStatus } from '@gd/shared/audienceShare/model';
import type { AudienceShare } from '@gd/shared/schemas/audienceShare';
import { api } from '../../../api/client.ts';
import { useT } from '../../../i18n/useT.ts';
import { usePermissions } from '../../../session/permissions.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { usePolling } from '../../../state/usePolling.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { notifyError, notifySuccess } from '../../../ui/notify.ts';
import { ErrorBlock } from '../../../ui/States.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { formatNumber, fromNow } from '../../../entities/person/format.ts';
import { serviceLabel } from './labels.ts';

const COLOR: Record<ShareStatus, string> = { sync: 'violet', ready: 'teal', error: 'red', inactive: 'gray' };
const POLL_SYNCING_MS = 2000;
const POLL_IDLE_MS = 30_000;

/** `version`: the audience's state and last change, so the section follows the audience's own polling. */
export function AudienceShares({ appId, audienceId, version }: { appId: string; audienceId: string; version: string }) {
  const { t } = useT();
  const query = useApiQuery('audienceShares', { params: { appId, audienceId }, scope: 'app' });
  const shares = query.data?.shares;
  const { refetch } = query;
  // The audience changed (refreshed, synced, failed): its shares may have too.
  useEffect(() => refetch(), [version, refetch]);
  const syncing = shares?.some((s) => s.status === 'sync') ?? false;
  usePolling(query.refetch, syncing ? POLL_SYNCING_MS : POLL_IDLE_MS, query.state === 'loading');

  return (
    <Paper withBorder radius="md" p="md" data-testid="audience-shares">
      <Stack gap="sm">
        <Group gap={8}>
          <IconShare3 size={18} color="var(--mantine-color-blue-6)" aria-hidden />
          <Text fw={600}>{t('audienceShare.section.title')}</Text>
        </Group>
        {query.state === 'error' && !shares ? (
          <ErrorBlock error={query.error} onRetry={query.refetch} />
        ) : !shares ? (
          <Group gap="xs" py={4}>
            <Loader size="xs" />
          </Group>
        ) : shares.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="audience-shares-empty">
            {t('audienceShare.section.empty')}
          </Text>
        ) : (
          <Stack gap="xs">
            {shares.map((s) => <ShareRow key={s.id} share={s} appId={appId} onChanged={query.refetch} />)}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function ShareRow({ share, appId, onChanged }: { share: AudienceShare; appId: string; onChanged: () => void }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const allowed = can(SHARE_PERMISSION[share.entry]);
  const [stopping, setStopping] = useState(false);
  const [keep, setKeep] = useState(false);
  const params = { appId, audienceId: share.audienceId, shareId: share.id };

  const syncNow = async () => {
    try {
      await api.call('syncAudienceShare', { params });
      notifySuccess(t('audienceShare.syncQueued'));
    } catch (error) {
      notifyError(t, error);
    }
    onChanged();
  };

  return (
    <Paper withBorder radius="sm" px="sm" py={10} data-testid="audience-share" data-status={share.status} data-service={share.service}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap={8} wrap="wrap" miw={0}>
            <Text fw={600} size="sm">{serviceLabel(t, share.service)}</Text>
            <Text size="sm" c="dimmed" lineClamp={1} title={share.integrationName}>{share.integrationName}</Text>
            <Tooltip label={t(`audienceShare.statusHint.${share.status}`)} multiline w={260} withArrow>
              <Badge
                color={COLOR[share.status]}
                variant={share.status === 'inactive' ? 'outline' : 'light'}
                radius="sm"
                tt="none"
                fw={600}
                leftSection={share.status === 'sync' ? <Loader size={10} color={COLOR.sync} /> : undefined}
                tabIndex={0}
                data-testid="share-status"
              >
                {t(`audienceShare.status.${share.status}`)}
              </Badge>
            </Tooltip>
          </Group>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={t('common.actions')} title={t('common.actions')} data-testid="share-actions">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconRefresh size={16} />} disabled={!allowed || share.status === 'sync'} onClick={() => void syncNow()} data-testid="share-sync-now">
                {t('audienceShare.syncNow')}
              </Menu.Item>
              <Menu.Item leftSection={<IconTrash size={16} />} color="red" disabled={!allowed} onClick={() => setStopping(true)}>
                {t('audienceShare.stop')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        <Group gap="md" wrap="wrap">
          <Text size="xs" c="dimmed" data-testid="share-uploaded">{t('audienceShare.uploaded', { count: formatNumber(share.uploadedCount, lang) })}</Text>
          {share.skippedCount > 0 && <Text size="xs" c="dimmed">{t('audienceShare.skipped', { count: formatNumber(share.skippedCount, lang) })}</Text>}
          {share.lastSyncedAt && share.lastAdded !== null && (
            <Text size="xs" c="dimmed">{t('audienceShare.lastChange', { added: formatNumber(share.lastAdded, lang), removed: formatNumber(share.lastRemoved ?? 0, lang) })}</Text>
          )}
          <Tooltip label={share.lastSyncedAt ? formatDateTime(share.lastSyncedAt, lang) : ''} disabled={!share.lastSyncedAt} withArrow>
            <Text size="xs" c="dimmed">{share.lastSyncedAt ? t('audienceShare.lastSync', { when: fromNow(share.lastSyncedAt, lang) }) : t('audienceShare.neverSynced')}</Text>
          </Tooltip>
        </Group>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {t('audienceShare.platformAudience')}: {share.platformAudienceId ?? t('audienceShare.platformAudienceNew')}
        </Text>
        {(share.status === 'error' || share.status === 'inactive') && share.errorMessage && (
          <Alert color={share.status === 'error' ? 'red' : 'gray'} variant="light" p="xs" icon={<IconAlertTriangle size={16} />} data-testid="share-error">
            <Text size="xs" style={{ wordBreak: 'break-word' }}>
              {share.errorCode !== null ? `${share.errorCode}: ` : ''}{share.errorMessage}
            </Text>
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        opened={stopping}
        title={t('audienceShare.stopTitle', { name: share.integrationName })}
        message={(
          <Stack gap="sm">
            <Text size="sm">{t('audienceShare.stopBody')}</Text>
            <Checkbox label={t('audienceShare.keepOnPlatform')} checked={keep} onChange={(e) => setKeep(e.currentTarget.checked)} />
          </Stack>
        )}
        confirmLabel={t('audienceShare.stop')}
        danger
        onClose={() => setStopping(false)}
        onConfirm={async () => {
          await api.call('deleteAudienceShare', { params, query: keep ? { keepOnPlatform: 'true' } : {} });
          notifySuccess(t('audienceShare.stopped'));
          onChanged();
        }}
      />
    </Paper>
  );
}
