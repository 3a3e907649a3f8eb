/**
 * /acquisition/skadnetwork: Apple's SKAdNetwork postbacks of the current app. Four tabs (the tab in
 * the URL, `?tab=`): decoded figures per campaign and window, the postbacks received (filterable
 * by window, fidelity and verification), the conversion-value schema editor and the settings
 * (App Store id, postback addresses, source identifiers mapped to campaigns). Reading needs the
 * route; changing the schema and the settings needs ui:apptracker.edit.
 */
import { useSearchParams } from 'react-router';
import { Tabs } from '@mantine/core';
import { IconChartBar, IconList, IconSettings, IconTable } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { SkanFiguresPanel } from './SkanFiguresPanel.tsx';
import { SkanPostbacksPanel } from './SkanPostbacksPanel.tsx';
import { SkanSchemaPanel } from './SkanSchemaPanel.tsx';
import { SkanSettingsPanel } from './SkanSettingsPanel.tsx';

const TABS = ['figures', 'postbacks', 'schema', 'settings'] as const;
type Tab = (typeof TABS)[number];

export default function SkanPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.skadnetwork')} descriptionNoApp={t('skan.descriptionNoApp')}>{(app) => <Skan app={app} />}</AppScreen>;
}

function Skan({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'figures';
  const choose = (value: string | null) => {
    const next = new URLSearchParams(window.location.search);
    if (value && value !== 'figures') next.set('tab', value);
    else next.delete('tab');
    setParams(next, { replace: true });
  };
  return (
    <>
      <PageHeader title={t('nav.skadnetwork')} description={t('skan.description', { app: app.name })} />
      <Tabs value={tab} onChange={choose} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="figures" leftSection={<IconChartBar size={16} />}>{t('skan.tabs.figures')}</Tabs.Tab>
          <Tabs.Tab value="postbacks" leftSection={<IconList size={16} />}>{t('skan.tabs.postbacks')}</Tabs.Tab>
          <Tabs.Tab value="schema" leftSection={<IconTable size={16} />}>{t('skan.tabs.schema')}</Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} />}>{t('skan.tabs.settings')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="figures"><SkanFiguresPanel app={app} /></Tabs.Panel>
        <Tabs.Panel value="postbacks"><SkanPostbacksPanel app={app} /></Tabs.Panel>
        <Tabs.Panel value="schema"><SkanSchemaPanel app={app} /></Tabs.Panel>
        <Tabs.Panel value="settings"><SkanSettingsPanel app={app} /></Tabs.Panel>
      </Tabs>
    </>
  );
}
