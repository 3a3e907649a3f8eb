/**
 * What can be done with an audience, as the role allows (owner variants on audiences the user
 * created): refresh now, settings, deactivate or reactivate, clone, the share entries (SPEC.md's
 * social, search-ads and trade-desk keys: each opens the share dialog for that kind of platform,
 * share/ShareDialog.tsx) and delete. One menu, used by the list rows and the detail header.
 */
import { useState } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import {
  IconAdjustments, IconBrandMeta, IconCopy, IconDots, IconPlayerPause, IconPlayerPlay, IconRefresh, IconSearch, IconShare3, IconTrash,
} from '@tabler/icons-react';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import type { PermissionKey } from '@gd/shared/permissions/keys';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { AudienceSettingsDialog } from './AudienceSettingsDialog.tsx';
import { ShareDialog } from './share/ShareDialog.tsx';

export interface AudienceAbilities {
  edit: boolean;
  delete: boolean;
  clone: boolean;
}

export function useAudienceAbilities(audience: Pick<AudienceSummary, 'createdBy'>): AudienceAbilities {
  const can = usePermissions('app');
  const ctx = { ownerId: audience.createdBy };
  return {
    edit: can('ui:audience.edit', ctx),
    delete: can('ui:audience.delete', ctx),
    clone: can('ui:audience.create') && can('ui:audience.clone', ctx),
  };
}

/** Refresh now (the server recounts in one transaction); the answer is the refreshed audience. */
export async function refreshAudience(t: ReturnType<typeof useT>['t'], audience: AudienceSummary): Promise<AudienceSummary | null> {
  try {
    const { audience: next } = await api.call('refreshAudience', { params: { appId: audience.appId, audienceId: audience.id } });
    if (next.status === 'error') notifyError(t, new Error(t('audiences.refreshFailed', { reason: next.errorMessage ?? next.errorName ?? '' })));
    else notifySuccess(t('audiences.refreshed', { count: next.personCount ?? 0 }));
    return next;
  } catch (error) {
    notifyError(t, error);
    return null;
  }
}

const SHARES: { key: PermissionKey; label: 'social' | 'searchAds' | 'tradeDesk'; icon: typeof IconShare3 }[] = [
  { key: 'ui:audience.shareSocial', label: 'social', icon: IconBrandMeta },
  { key: 'ui:audience.shareSearchAds', label: 'searchAds', icon: IconSearch },
  { key: 'ui:audience.shareTradeDesk', label: 'tradeDesk', icon: IconShare3 },
];

type Dialog = 'settings' | 'clone' | 'delete' | { share: 'social' | 'searchAds' | 'tradeDesk' } | null;

export function AudienceActions({ audience, onChanged, onDeleted, onCloned, withRefresh = true }: {
  audience: AudienceSummary;
  onChanged: () => void;
  onDeleted: () => void;
  onCloned?: (clone: AudienceSummary) => void;
  /** The detail header has its own refresh button. */
  withRefresh?: boolean;
}) {
  const { t } = useT();
  const can = usePermissions('app');
  const abilities = useAudienceAbilities(audience);
  const [dialog, setDialog] = useState<Dialog>(null);
  const params = { appId: audience.appId, audienceId: audience.id };
  const inactive = audience.status === 'inactive';
  const busy = audience.status === 'in_progress';

  const setActive = async (active: boolean) => {
    try {
      await api.call('updateAudience', { params, body: { active } });
      notifySuccess(t(active ? 'audiences.reactivated' : 'audiences.deactivated'));
    } catch (error) {
      notifyError(t, error);
    }
    onChanged();
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal shadow="md" width={290}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('audiences.actions', { name: audience.name })} title={t('common.actions')} data-testid="audience-actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
          {withRefresh && (
            <Menu.Item
              leftSection={<IconRefresh size={16} />}
              disabled={!abilities.edit || inactive || busy}
              onClick={() => void refreshAudience(t, audience).then(onChanged)}
            >
              {t('audiences.refresh')}
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconAdjustments size={16} />} disabled={!abilities.edit} onClick={() => setDialog('settings')}>
            {t('audiences.edit')}
          </Menu.Item>
          {inactive ? (
            <Menu.Item leftSection={<IconPlayerPlay size={16} />} disabled={!abilities.edit} onClick={() => void setActive(true)} data-testid="reactivate-audience">
              {t('audiences.reactivate')}
            </Menu.Item>
          ) : (
            <Menu.Item leftSection={<IconPlayerPause size={16} />} disabled={!abilities.edit || busy} onClick={() => void setActive(false)} data-testid="deactivate-audience">
              {t('audiences.deactivate')}
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconCopy size={16} />} disabled={!abilities.clone} onClick={() => setDialog('clone')}>
            {t('audiences.clone')}
          </Menu.Item>
          <Menu.Divider />
          {SHARES.map((s) => (
            <Menu.Item
              key={s.key}
              leftSection={<s.icon size={16} />}
              disabled={!can(s.key)}
              title={can(s.key) ? undefined : t('permissions.denied')}
              onClick={() => setDialog({ share: s.label })}
              data-testid="share-entry"
              data-entry={s.label}
            >
              {t(`audiences.share.${s.label}`)}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconTrash size={16} />} color="red" disabled={!abilities.delete} onClick={() => setDialog('delete')}>
            {t('audiences.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      {dialog === 'settings' && (
        <AudienceSettingsDialog
          audience={audience}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(t('audiences.saved'));
            setDialog(null);
            onChanged();
          }}
        />
      )}
      {typeof dialog === 'object' && dialog !== null && (
        <ShareDialog
          audience={audience}
          entry={dialog.share}
          onClose={() => setDialog(null)}
          onShared={() => {
            setDialog(null);
            onChanged();
          }}
        />
      )}
      {dialog === 'clone' && (
        <NameDialog
          title={t('audiences.cloneTitle', { name: audience.name })}
          hint={t('audiences.cloneHint')}
          submitLabel={t('audiences.clone')}
          initialName={t('audiences.cloneName', { name: audience.name }).slice(0, 120)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { audience: clone } = await api.call('cloneAudience', { params, body: { name } });
            notifySuccess(t('audiences.cloned', { name: clone.name }));
            setDialog(null);
            onChanged();
            onCloned?.(clone);
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={t('audiences.deleteTitle')}
        message={t('audiences.deleteBody', { name: audience.name })}
        confirmLabel={t('audiences.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          await api.call('deleteAudience', { params });
          notifySuccess(t('audiences.deleted'));
          onDeleted();
        }}
      />
    </>
  );
}
