/**
 * The "Push notifications" card of /user/app: the app's APNs key and FCM service account
 * (endpoints/pushCredentials.ts). Each provider shows whether it is configured, with the settings
 * that are not secret and when they last changed; people who may edit the app (`ui:app.edit`)
 * set, replace and delete them; everyone who reads the page sees them read-only. Keys are never
 * shown: the API does not answer them.
 */
import { useState, type ReactNode } from 'react';
import { Badge, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBrandAndroid, IconBrandApple, IconCircleCheck, IconCircleDashed, IconKey, IconTrash } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { PushCredential, PushProvider } from '@gd/shared/schemas/pushCredentials';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { ApnsDialog, FcmDialog } from './PushCredentialsDialogs.tsx';
import { PushRateLimit } from './PushRateLimit.tsx';
import { WebPushPanel } from './WebPushPanel.tsx';

const PROVIDERS: readonly PushProvider[] = ['apns', 'fcm'];
const ICONS: Record<PushProvider, ReactNode> = { apns: <IconBrandApple size={20} />, fcm: <IconBrandAndroid size={20} /> };

export function PushCredentialsCard({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canView = can('route:/user/app');
  const editable = can('ui:app.edit');
  const query = useApiQuery('listPushCredentials', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'delete'; provider: PushProvider } | null>(null);
  if (!canView) return null;

  return (
    <Card data-testid="push-credentials">
      <Title order={2} fz="lg">
        {t('pushCredentials.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md" maw={760}>
        {t('pushCredentials.description')}
      </Text>
      <DataState query={query} rows={2}>
        {({ credentials }) => (
          <>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              {PROVIDERS.map((provider) => (
                <ProviderPanel
                  key={provider}
                  provider={provider}
                  credential={credentials.find((c) => c.provider === provider)}
                  editable={editable}
                  onEdit={() => setDialog({ kind: 'edit', provider })}
                  onDelete={() => setDialog({ kind: 'delete', provider })}
                  rate={(credential) => <PushRateLimit key={`${credential.provider}:${credential.ratePerSecond ?? ''}`} appId={app.id} credential={credential} editable={editable} onSaved={query.refetch} />}
                />
              ))}
            </SimpleGrid>
            <WebPushPanel app={app} editable={editable} />
            {dialog?.kind === 'edit' && dialog.provider === 'apns' && (
              <ApnsDialog
                app={app}
                current={credentials.find((c): c is Extract<PushCredential, { provider: 'apns' }> => c.provider === 'apns')}
                onClose={() => setDialog(null)}
                onSaved={() => saved(query.refetch)}
              />
            )}
            {dialog?.kind === 'edit' && dialog.provider === 'fcm' && (
              <FcmDialog app={app} replacing={credentials.some((c) => c.provider === 'fcm')} onClose={() => setDialog(null)} onSaved={() => saved(query.refetch)} />
            )}
          </>
        )}
      </DataState>
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('pushCredentials.deleteTitle')}
        message={dialog ? t(`pushCredentials.deleteBody.${dialog.provider}`, { app: app.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deletePushCredentials', { params: { appId: app.id, provider: dialog.provider } });
          notifySuccess(t('pushCredentials.deleted'));
          query.refetch();
        }}
      />
    </Card>
  );

  function saved(refetch: () => void) {
    notifySuccess(t('pushCredentials.saved'));
    setDialog(null);
    refetch();
  }
}

/** One provider: configured (its settings, when they changed) or not, and its actions. */
function ProviderPanel({ provider, credential, editable, onEdit, onDelete, rate }: {
  provider: PushProvider; credential: PushCredential | undefined; editable: boolean; onEdit: () => void; onDelete: () => void;
  rate: (credential: PushCredential) => ReactNode;
}) {
  const { t, lang } = useT();
  return (
    <Paper withBorder p="md" radius="md" data-testid={`push-${provider}`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap">
            {ICONS[provider]}
            <div>
              <Text fw={600} size="sm">{t(`pushCredentials.provider.${provider}`)}</Text>
              <Text size="xs" c="dimmed">{t(`pushCredentials.platform.${provider}`)}</Text>
            </div>
          </Group>
          <Badge
            variant="light"
            color={credential ? 'teal' : 'gray'}
            tt="none"
            leftSection={credential ? <IconCircleCheck size={12} /> : <IconCircleDashed size={12} />}
            data-testid="push-status"
            // Keeps its whole word when the panel is narrow (1280 px, Spanish): the title wraps instead.
            style={{ flexShrink: 0, minWidth: 'max-content' }}
          >
            {credential ? t('pushCredentials.configured') : t('pushCredentials.notConfigured')}
          </Badge>
        </Group>
        {credential ? <Settings credential={credential} /> : <Text size="sm" c="dimmed">{t(`pushCredentials.notConfiguredBody.${provider}`)}</Text>}
        {credential && rate(credential)}
        <Group justify="space-between" mt="auto" wrap="nowrap">
          <Text size="xs" c="dimmed">{credential ? t('pushCredentials.updated', { date: formatDateTime(credential.updatedAt, lang) }) : ''}</Text>
          <Group gap="xs" wrap="nowrap">
            {credential && (
              <GatedButton allowed={editable} size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
                {t('pushCredentials.delete')}
              </GatedButton>
            )}
            <GatedButton allowed={editable} size="compact-sm" variant={credential ? 'default' : 'filled'} leftSection={<IconKey size={14} />} onClick={onEdit} data-testid={`push-${provider}-edit`}>
              {credential ? (provider === 'apns' ? t('pushCredentials.edit') : t('pushCredentials.replace')) : t('pushCredentials.set')}
            </GatedButton>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

function Settings({ credential }: { credential: PushCredential }) {
  const { t } = useT();
  const rows: [string, string, boolean][] = credential.provider === 'apns'
    ? [
        [t('pushCredentials.fields.keyId'), credential.settings.keyId, true],
        [t('pushCredentials.fields.teamId'), credential.settings.teamId, true],
        [t('pushCredentials.fields.bundleId'), credential.settings.bundleId, true],
        [t('pushCredentials.fields.environment'), t(`pushCredentials.environment.${credential.settings.environment}`), false],
      ]
    : [
        [t('pushCredentials.fields.projectId'), credential.settings.projectId, true],
        [t('pushCredentials.fields.clientEmail'), credential.settings.clientEmail, true],
      ];
  return (
    <Stack gap={4}>
      {rows.map(([label, value, mono]) => (
        <Group key={label} gap="sm" wrap="nowrap">
          <Text size="sm" c="dimmed" w={120} style={{ flexShrink: 0 }}>{label}</Text>
          <Text size="sm" className={mono ? 'gd-mono' : undefined} truncate="end" title={value}>{value}</Text>
        </Group>
      ))}
      {credential.settings.endpoint && (
        <Text size="xs" c="orange">{t('pushCredentials.customEndpoint', { endpoint: credential.settings.endpoint })}</Text>
      )}
    </Stack>
  );
}
