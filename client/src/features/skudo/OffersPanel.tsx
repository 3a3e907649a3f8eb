/**
 * The offers tab: each offer with its provider, campaign, payout, status, tracking URLs (active of
 * all) and clicks; the tracking URLs open in their own dialog. Deleting an offer with active URLs
 * is refused (20001) with the catalogue's words in the dialog.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Table, Text } from '@mantine/core';
import { IconLink, IconPlus, IconTag } from '@tabler/icons-react';
import { localeFor } from '@gd/shared/language';
import type { SkudoOffer } from '@gd/shared/schemas/skudo';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { OfferDialog } from './OfferDialog.tsx';
import { PanelActions } from './PanelActions.tsx';
import { TrackingUrlsDialog } from './TrackingUrlsDialog.tsx';
import { payoutParts, statusColour } from './payout.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete' | 'urls'; offerId: string } | null;
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export function OffersPanel({ canEdit }: { canEdit: boolean }) {
  const { t, lang } = useT();
  const offers = useApiQuery('skudoOffers');
  const providers = useApiQuery('skudoProviders');
  const campaigns = useApiQuery('skudoCampaigns');
  const partners = useApiQuery('skudoPartners');
  const [dialog, setDialog] = useState<Dialog>(null);
  const noProvider = providers.data !== undefined && providers.data.providers.length === 0;
  const addButton = (
    <GatedButton allowed={canEdit && !noProvider} reason={noProvider ? t('skudo.offers.needProvider') : undefined} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="skudo-add-offer">
      {t('skudo.offers.add')}
    </GatedButton>
  );
  const refresh = () => {
    offers.refetch();
    providers.refetch();
    campaigns.refetch();
    partners.refetch();
  };
  const find = (list: SkudoOffer[], id: string) => list.find((o) => o.id === id);

  return (
    <DataState query={offers}>
      {({ offers: list }) => {
        const open = dialog && dialog.kind !== 'add' ? find(list, dialog.offerId) : undefined;
        return (
          <>
            {list.length > 0 && <PanelActions>{addButton}</PanelActions>}
            {list.length === 0 && noProvider && canEdit && (
              <Alert variant="light" color="indigo" mb="md">{t('skudo.offers.needProvider')}</Alert>
            )}
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconTag size={28} />} title={t('skudo.offers.emptyTitle')} description={t('skudo.offers.emptyBody')} action={addButton} />}
              label={t('skudo.tabs.offers')}
              minWidth={980}
              head={
                <>
                  <Table.Th>{t('skudo.offers.offer')}</Table.Th>
                  <Table.Th>{t('skudo.offers.campaign')}</Table.Th>
                  <Table.Th>{t('skudo.offers.payout')}</Table.Th>
                  <Table.Th>{t('skudo.offers.status')}</Table.Th>
                  <Table.Th>{t('skudo.offers.urls')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.offers.clicks')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((o) => {
                const active = o.urls.filter((u) => u.active).length;
                const payout = payoutParts(t, lang, o);
                return (
                  <Table.Tr key={o.id} data-testid="skudo-offer-row">
                    <Table.Td maw={280}>
                      <Text size="sm" fw={600} truncate="end" title={o.title}>{o.title}</Text>
                      <Text size="xs" c="dimmed" truncate="end">{o.providerName}</Text>
                    </Table.Td>
                    <Table.Td maw={180}><Text size="sm" truncate="end" c={o.campaignName ? undefined : 'dimmed'}>{o.campaignName ?? t('skudo.offers.noCampaign')}</Text></Table.Td>
                    <Table.Td>
                      <Text size="sm">{payout.amount}</Text>
                      <Text size="xs" c="dimmed">{payout.model}</Text>
                    </Table.Td>
                    <Table.Td><Badge variant="light" color={statusColour(o.status)} tt="none" style={WHOLE}>{t(`skudo.status.${o.status}`)}</Badge></Table.Td>
                    <Table.Td>
                      <Button variant="subtle" size="compact-sm" leftSection={<IconLink size={14} />} onClick={() => setDialog({ kind: 'urls', offerId: o.id })} data-testid="skudo-offer-urls">
                        {t('skudo.offers.urlsCount', { active, total: o.urls.length })}
                      </Button>
                    </Table.Td>
                    <Table.Td ta="right"><Text size="sm">{o.clicks.toLocaleString(localeFor(lang))}</Text></Table.Td>
                    <Table.Td>
                      <EditDeleteIcons
                        edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', offerId: o.id }) }}
                        remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', offerId: o.id }) }}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </ListTable>
            {(dialog?.kind === 'add' || (dialog?.kind === 'edit' && open)) && (
              <OfferDialog
                offer={dialog.kind === 'edit' ? open : undefined}
                providers={providers.data?.providers ?? []}
                campaigns={campaigns.data?.campaigns ?? []}
                onClose={() => setDialog(null)}
                onSaved={() => {
                  notifySuccess(dialog.kind === 'add' ? t('skudo.offers.created') : t('common.saved'));
                  setDialog(null);
                  refresh();
                }}
              />
            )}
            {dialog?.kind === 'urls' && open && (
              <TrackingUrlsDialog offer={open} partners={partners.data?.partners ?? []} canEdit={canEdit} onChanged={refresh} onClose={() => setDialog(null)} />
            )}
            <ConfirmDialog
              opened={dialog?.kind === 'delete' && !!open}
              title={t('skudo.offers.deleteTitle')}
              message={open ? t('skudo.offers.deleteBody', { name: open.title }) : ''}
              confirmLabel={t('common.delete')}
              danger
              onClose={() => setDialog(null)}
              onConfirm={async () => {
                if (dialog?.kind !== 'delete') return;
                await api.call('deleteSkudoOffer', { params: { offerId: dialog.offerId } });
                notifySuccess(t('skudo.deleted'));
                refresh();
              }}
            />
          </>
        );
      }}
    </DataState>
  );
}

