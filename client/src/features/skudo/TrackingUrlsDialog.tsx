/**
 * An offer's tracking URLs: one per partner or channel, each with its address (copy), whether it
 * redirects now, its clicks and last click; add one, deactivate or activate it, delete it.
 */
import { useState } from 'react';
import { Badge, Group, Modal, Paper, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconLink, IconPlayerPause, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { localeFor } from '@gd/shared/language';
import type { SkudoOffer, SkudoPartner, SkudoTrackingUrl } from '@gd/shared/schemas/skudo';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';

const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export function TrackingUrlsDialog({ offer, partners, canEdit, onChanged, onClose }: {
  offer: SkudoOffer; partners: SkudoPartner[]; canEdit: boolean; onChanged: () => void; onClose: () => void;
}) {
  const { t, lang } = useT();
  const [partnerId, setPartnerId] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<SkudoTrackingUrl | null>(null);

  const add = async () => {
    if (!partnerId && label.trim() === '') {
      setFailure(new Error(t('skudo.urls.chooseOne')));
      return;
    }
    setAdding(true);
    setFailure(null);
    try {
      await api.call('createSkudoTrackingUrl', { params: { offerId: offer.id }, body: { partnerId, label: label.trim() } });
      notifySuccess(t('skudo.urls.created'));
      setPartnerId(null);
      setLabel('');
      onChanged();
    } catch (error) {
      setFailure(error);
    } finally {
      setAdding(false);
    }
  };
  const toggle = async (url: SkudoTrackingUrl) => {
    setBusy(url.id);
    try {
      await api.call('updateSkudoTrackingUrl', { params: { trackingUrlId: url.id }, body: { label: url.label, active: !url.active } });
      onChanged();
    } catch (error) {
      notifyError(t, error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal opened onClose={onClose} size={1040} title={<Text fw={600}>{t('skudo.urls.title', { name: offer.title })}</Text>}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">{t('skudo.urls.intro')}</Text>
        <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)">
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <Select
              label={t('skudo.urls.forPartner')}
              placeholder={t('skudo.urls.partnerPlaceholder')}
              clearable
              searchable
              data={partners.filter((p) => p.status === 'active').map((p) => ({ value: p.id, label: p.name }))}
              value={partnerId}
              onChange={setPartnerId}
              style={{ flex: 1 }}
              data-testid="skudo-url-partner"
            />
            <TextInput
              label={t('skudo.urls.forChannel')}
              placeholder={t('skudo.urls.channelPlaceholder')}
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              disabled={partnerId !== null}
              style={{ flex: 1 }}
              maxLength={120}
            />
            <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} loading={adding} onClick={() => void add()} data-testid="skudo-url-add">
              {t('skudo.urls.add')}
            </GatedButton>
          </Group>
        </Paper>
        <FormError error={failure} />
        {offer.urls.length === 0 ? (
          <Paper withBorder>
            <EmptyBlock icon={<IconLink size={28} />} title={t('skudo.urls.emptyTitle')} description={t('skudo.urls.emptyBody')} />
          </Paper>
        ) : (
          <Paper withBorder>
            <Table.ScrollContainer minWidth={900}>
              <Table aria-label={t('skudo.offers.manageUrls')} style={{ whiteSpace: 'nowrap' }}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('skudo.urls.label')}</Table.Th>
                    <Table.Th>{t('skudo.urls.address')}</Table.Th>
                    <Table.Th>{t('skudo.offers.status')}</Table.Th>
                    <Table.Th ta="right">{t('skudo.urls.clicks')}</Table.Th>
                    <Table.Th>{t('skudo.urls.lastClick')}</Table.Th>
                    <Table.Th ta="right">{t('common.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {offer.urls.map((u) => (
                    <Table.Tr key={u.id} data-testid="skudo-url-row">
                      <Table.Td maw={220}>
                        <Text size="sm" fw={600} truncate="end" title={u.label}>{u.label}</Text>
                        <Text size="xs" c="dimmed">{u.partnerId ? t('skudo.urls.forPartner') : t('skudo.urls.channel')}</Text>
                      </Table.Td>
                      <Table.Td><CopyField value={u.url} label={t('skudo.urls.address')} maw={280} size="sm" /></Table.Td>
                      <Table.Td>
                        {u.active ? (
                          <Tooltip label={t('skudo.urls.notLiveHint')} disabled={u.live}>
                            <Badge variant="light" color={u.live ? 'teal' : 'yellow'} tt="none" style={WHOLE}>{u.live ? t('skudo.urls.live') : t('skudo.urls.notLive')}</Badge>
                          </Tooltip>
                        ) : (
                          <Badge variant="light" color="gray" tt="none" style={WHOLE}>{t('skudo.urls.inactive')}</Badge>
                        )}
                      </Table.Td>
                      <Table.Td ta="right"><Text size="sm">{u.clicks.toLocaleString(localeFor(lang))}</Text></Table.Td>
                      <Table.Td><Text size="sm" c={u.lastClickAt ? undefined : 'dimmed'}>{u.lastClickAt ? formatDateTime(u.lastClickAt, lang) : t('skudo.urls.never')}</Text></Table.Td>
                      <Table.Td>
                        <Group gap={2} justify="flex-end" wrap="nowrap">
                          <GatedIcon allowed={canEdit} label={u.active ? t('skudo.urls.deactivate') : t('skudo.urls.activate')} loading={busy === u.id} onClick={() => void toggle(u)} data-testid="skudo-url-toggle">
                            {u.active ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
                          </GatedIcon>
                          <GatedIcon allowed={canEdit} label={t('common.delete')} color="red" onClick={() => setRemoving(u)}>
                            <IconTrash size={16} />
                          </GatedIcon>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </Stack>
      <ConfirmDialog
        opened={removing !== null}
        title={t('skudo.urls.deleteTitle')}
        message={removing ? t('skudo.urls.deleteBody', { url: removing.url }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await api.call('deleteSkudoTrackingUrl', { params: { trackingUrlId: removing.id } });
          notifySuccess(t('skudo.deleted'));
          onChanged();
        }}
      />
    </Modal>
  );
}
