/**
 * Settings: the App Store id Apple's postbacks name (unique on the platform), the addresses to
 * give Apple (the developer copy's `.well-known` address, set in the app's Info.plist
 * NSAdvertisingAttributionReportEndpoint as the domain, and the API's), and which campaign each ad
 * network's source identifier (campaign id before SKAN 4) stands for.
 */
import { useState } from 'react';
import { Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { SkanSettings, SkanSettingsInput } from '@gd/shared/schemas/skan';
import { CampaignSelect } from '../../entities/campaign/CampaignSelect.tsx';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { notifySuccess } from '../../ui/notify.ts';

interface Row { key: number; adNetworkId: string; sourceIdentifier: string; campaignId: string | null }

export function SkanSettingsPanel({ app }: { app: MetaApp }) {
  const settings = useApiQuery('skanSettings', { params: { appId: app.id }, scope: 'app' });
  return <DataState query={settings} rows={4}>{({ settings: s }) => <Form key={s.updatedAt ?? 'new'} app={app} settings={s} onSaved={settings.refetch} />}</DataState>;
}

function Form({ app, settings, onSaved }: { app: MetaApp; settings: SkanSettings; onSaved: () => void }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canEdit = can('ui:apptracker.edit');
  const [storeId, setStoreId] = useState(settings.appStoreId ?? '');
  const [rows, setRows] = useState<Row[]>(() => settings.mappings.map((m, key) => ({ key, ...m })));
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const set = (key: number, patch: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const body: SkanSettingsInput = {
        appStoreId: storeId.trim() === '' ? null : storeId.trim(),
        mappings: rows.map((r) => ({ adNetworkId: r.adNetworkId, sourceIdentifier: r.sourceIdentifier, campaignId: r.campaignId ?? '' })),
      };
      await api.call('updateSkanSettings', { params: { appId: app.id }, body });
      notifySuccess(t('common.saved'));
      onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <TextInput
            label={t('skan.appStoreId')} description={t('skan.appStoreIdHint')} placeholder="1234567890" w={320}
            value={storeId} disabled={!canEdit} onChange={(e) => setStoreId(e.currentTarget.value)} data-testid="skan-app-store-id"
          />
          <GatedButton allowed={canEdit} loading={saving} onClick={() => void save()} data-testid="skan-settings-save">{t('common.save')}</GatedButton>
        </Group>
        <Title order={3} size="h6" mt="md" mb={4}>{t('skan.addresses')}</Title>
        <Text size="xs" c="dimmed" mb="xs">{t('skan.addressesHint')}</Text>
        <Stack gap={6}>
          {settings.endpoints.map((url) => <CopyField key={url} value={url} label={t('skan.addresses')} />)}
        </Stack>
      </Paper>
      <FormError error={error} />
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <div>
            <Title order={3} size="h5">{t('skan.mappingsTitle')}</Title>
            <Text size="xs" c="dimmed">{t('skan.mappingsHint')}</Text>
          </div>
          <Button
            variant="light" size="xs" leftSection={<IconPlus size={14} />} disabled={!canEdit} data-testid="skan-add-mapping"
            onClick={() => setRows((all) => [...all, { key: Math.max(-1, ...all.map((r) => r.key)) + 1, adNetworkId: all.at(-1)?.adNetworkId ?? '', sourceIdentifier: '', campaignId: null }])}
          >
            {t('skan.addMapping')}
          </Button>
        </Group>
        {rows.length === 0 ? <Text size="sm" c="dimmed" py="sm">{t('skan.noMappings')}</Text> : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing={6}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('skan.adNetworkId')}</Table.Th>
                  <Table.Th w={150}>{t('skan.sourceIdentifier')}</Table.Th>
                  <Table.Th>{t('skan.campaign')}</Table.Th>
                  <Table.Th w={50} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.key} data-testid="skan-mapping-row">
                    <Table.Td><TextInput size="xs" aria-label={t('skan.adNetworkId')} placeholder="example123.skadnetwork" value={r.adNetworkId} disabled={!canEdit} onChange={(e) => set(r.key, { adNetworkId: e.currentTarget.value })} /></Table.Td>
                    <Table.Td><TextInput size="xs" aria-label={t('skan.sourceIdentifier')} placeholder="5239" value={r.sourceIdentifier} disabled={!canEdit} onChange={(e) => set(r.key, { sourceIdentifier: e.currentTarget.value })} /></Table.Td>
                    <Table.Td><CampaignSelect appId={app.id} label="" value={r.campaignId} disabled={!canEdit} onChange={(campaignId) => set(r.key, { campaignId })} data-testid="skan-mapping-campaign" /></Table.Td>
                    <Table.Td>
                      <GatedIcon allowed={canEdit} label={t('common.delete')} variant="subtle" color="gray" onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}>
                        <IconTrash size={16} />
                      </GatedIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
