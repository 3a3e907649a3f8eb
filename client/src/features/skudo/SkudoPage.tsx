/**
 * /products/skudo: the account's offer marketplace (shared skudo/model.ts says what is what). Four
 * tabs: offers (each with its tracking URLs), campaigns, providers and partners (with their
 * one-time sign-in codes). The screen's route key shows everything; `api:skudo.edit` changes it
 * (otherwise the actions stay visible, disabled, saying why). The tab is kept in `?tab=`.
 */
import { useSearchParams } from 'react-router';
import { Alert, Tabs } from '@mantine/core';
import { IconBuildingStore, IconCalendarEvent, IconTag, IconUsersGroup } from '@tabler/icons-react';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { NoViewBlock } from '../../ui/States.tsx';
import { CampaignsPanel } from './CampaignsPanel.tsx';
import { OffersPanel } from './OffersPanel.tsx';
import { PartnersPanel } from './PartnersPanel.tsx';
import { ProvidersPanel } from './ProvidersPanel.tsx';

const TABS = ['offers', 'campaigns', 'providers', 'partners'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => TABS.includes(value as Tab);

export default function SkudoPage() {
  const { t } = useT();
  const can = usePermissions('account');
  const canView = can('route:/products/skudo');
  const canEdit = can({ and: ['route:/products/skudo', 'api:skudo.edit'] });
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: Tab = isTab(raw) ? raw : 'offers';
  const choose = (value: string | null) => {
    if (!isTab(value)) return;
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (value === 'offers') next.delete('tab');
      else next.set('tab', value);
      return next;
    }, { replace: true });
  };

  const header = <PageHeader title={t('nav.skudo')} description={t('skudo.description')} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('skudo.noView')} />
      </>
    );
  }
  return (
    <>
      {header}
      {!canEdit && (
        <Alert variant="light" color="gray" mb="md" data-testid="skudo-read-only">
          {t('skudo.readOnly')}
        </Alert>
      )}
      <Tabs value={tab} onChange={choose} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="offers" leftSection={<IconTag size={16} />}>{t('skudo.tabs.offers')}</Tabs.Tab>
          <Tabs.Tab value="campaigns" leftSection={<IconCalendarEvent size={16} />}>{t('skudo.tabs.campaigns')}</Tabs.Tab>
          <Tabs.Tab value="providers" leftSection={<IconBuildingStore size={16} />}>{t('skudo.tabs.providers')}</Tabs.Tab>
          <Tabs.Tab value="partners" leftSection={<IconUsersGroup size={16} />}>{t('skudo.tabs.partners')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="offers"><OffersPanel canEdit={canEdit} /></Tabs.Panel>
        <Tabs.Panel value="campaigns"><CampaignsPanel canEdit={canEdit} /></Tabs.Panel>
        <Tabs.Panel value="providers"><ProvidersPanel canEdit={canEdit} /></Tabs.Panel>
        <Tabs.Panel value="partners"><PartnersPanel canEdit={canEdit} /></Tabs.Panel>
      </Tabs>
    </>
  );
}
