/**
 * /acquisition/apptracker-provider-view: one provider's campaigns and figures over the shell's
 * range. A member of an account provider sees only their own (the API enforces it); everyone else
 * picks a provider. Read-only: totals over the provider's campaigns, then the campaigns.
 */
import { useState } from 'react';
import { Alert, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBuildingStore, IconInfoCircle } from '@tabler/icons-react';
import type { CampaignFigures } from '@gd/shared/acquisition/metrics';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Campaign } from '@gd/shared/schemas/acquisition';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { moneyFormatter } from '../../ui/money.ts';
import { CampaignDrawer } from './CampaignDrawer.tsx';
import { CampaignTable } from './CampaignTable.tsx';
import { figureText } from './campaignForm.ts';

export default function ProviderViewPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.apptrackerProviderView')} descriptionNoApp={t('acquisition.providerView.descriptionNoApp')}>{(app) => <ProviderView app={app} />}</AppScreen>;
}

/** Totals over the campaigns: counts add up; cost and revenue in one currency when they share it. */
function Totals({ campaigns, figures }: { campaigns: Campaign[]; figures: Record<string, CampaignFigures> }) {
  const { t, lang } = useT();
  const locale = localeFor(lang);
  const dash = t('acquisition.none');
  const sum = (k: 'clicks' | 'installs' | 'cost' | 'revenue') => campaigns.reduce((n, c) => n + (figures[c.id]?.[k] ?? 0), 0);
  const currencies = new Set(campaigns.map((c) => c.currency));
  const money = moneyFormatter(lang, currencies.size === 1 ? [...currencies][0] : null);
  const cost = sum('cost');
  const revenue = sum('revenue');
  const tiles: [string, string][] = [
    [t('acquisition.metrics.clicks'), figureText(sum('clicks'), 'count', locale, dash)],
    [t('acquisition.metrics.installs'), figureText(sum('installs'), 'count', locale, dash)],
    [t('acquisition.metrics.cost'), money(cost)],
    [t('acquisition.metrics.revenue'), money(revenue)],
    [t('acquisition.metrics.roi'), figureText(cost === 0 ? null : (revenue - cost) / cost, 'percent', locale, dash)],
  ];
  return (
    <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm" mb="md" aria-label={t('acquisition.providerView.totals')}>
      {tiles.map(([label, value]) => (
        <Paper key={label} withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{label}</Text>
          <Text fw={700} fz={22} className="gd-num">{value}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function ProviderView({ app }: { app: MetaApp }) {
  const { t } = useT();
  const range = useDateRange((s) => s.range);
  const params = { appId: app.id };
  const view = useApiQuery('providerView', { params, scope: 'app' });
  const [picked, setPicked] = useState<string | null>(null);
  const [open, setOpen] = useState<Campaign | null>(null);
  const memberOf = view.data?.view.memberOf ?? null;
  const providerId = memberOf?.id ?? picked ?? view.data?.view.providers[0]?.id ?? null;
  const campaigns = useApiQuery('campaigns', {
    params, scope: 'app', range: true, enabled: providerId !== null,
    query: { scope: 'all', owner: 'all', accountProviderId: providerId ?? undefined, startDay: range.startDay, endDay: range.endDay },
  });
  return (
    <>
      <PageHeader title={t('nav.apptrackerProviderView')} description={t('acquisition.providerView.description', { app: app.name })} />
      <DataState query={view}>
        {({ view: v }) => (
          <Stack gap="md">
            {memberOf ? (
              <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />} data-testid="provider-member">{t('acquisition.providerView.member', { name: memberOf.name })}</Alert>
            ) : v.providers.length === 0 ? null : (
              <Select
                label={t('acquisition.providerView.pick')}
                placeholder={t('acquisition.providerView.pickPlaceholder')}
                data={v.providers.map((p) => ({ value: p.id, label: `${p.name} · ${t(`acquisition.providerKind.${p.kind}`)}` }))}
                value={providerId}
                onChange={setPicked}
                allowDeselect={false}
                searchable
                maw={360}
                data-testid="provider-pick"
              />
            )}
            {providerId === null ? (
              <Paper withBorder>
                <EmptyBlock icon={<IconBuildingStore size={28} />} title={t('acquisition.providerView.pickFirst')} description={t('acquisition.providerView.noProviders')} />
              </Paper>
            ) : (
              <DataState query={campaigns}>
                {({ campaigns: list, figures }) => (
                  <>
                    {list.length > 0 && <Totals campaigns={list} figures={figures} />}
                    <CampaignTable
                      campaigns={list}
                      figures={figures}
                      onOpen={setOpen}
                      empty={<EmptyBlock icon={<IconBuildingStore size={28} />} title={t('acquisition.providerView.emptyTitle')} description={t('acquisition.providerView.emptyBody')} />}
                    />
                  </>
                )}
              </DataState>
            )}
          </Stack>
        )}
      </DataState>
      {open && <CampaignDrawer appId={app.id} campaign={open} figures={campaigns.data?.figures[open.id]} onClose={() => setOpen(null)} />}
    </>
  );
}
