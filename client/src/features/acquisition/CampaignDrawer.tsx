/**
 * A campaign's page, as a drawer over the list: its settings, its figures over the range (the
 * campaign metrics of SPEC §3) and the calls made to its provider's postback URL.
 */
import type { ReactNode } from 'react';
import { Badge, Drawer, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import type { CampaignFigures } from '@gd/shared/acquisition/metrics';
import type { Campaign } from '@gd/shared/schemas/acquisition';
import { localeFor } from '@gd/shared/language';
import { CampaignPostbacks } from '../../entities/campaign/CampaignPostbacks.tsx';
import { useT } from '../../i18n/useT.ts';
import { moneyFormatter } from '../../ui/money.ts';
import { figureText } from './campaignForm.ts';
import { useCostText } from './CampaignTable.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{label}</Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Stack>
  );
}

export function CampaignDrawer({ appId, campaign, figures, onClose }: { appId: string; campaign: Campaign; figures: CampaignFigures | undefined; onClose: () => void }) {
  const { t, lang } = useT();
  const locale = localeFor(lang);
  const dash = t('acquisition.none');
  const money = moneyFormatter(lang, campaign.currency);
  const costText = useCostText();
  const destinations = [campaign.destinations.ios?.store, campaign.destinations.android?.store, campaign.destinations.desktop?.web].filter(Boolean).join(' · ');
  const tiles: [string, string][] = figures ? [
    [t('acquisition.metrics.clicks'), figureText(figures.clicks, 'count', locale, dash)],
    [t('acquisition.metrics.installs'), figureText(figures.installs, 'count', locale, dash)],
    [t('acquisition.metrics.itr'), figureText(figures.itr, 'percent', locale, dash)],
    [t('acquisition.metrics.cost'), money(figures.cost)],
    [t('acquisition.metrics.cpi'), figures.cpi === null ? dash : money(figures.cpi)],
    [t('acquisition.metrics.revenue'), money(figures.revenue)],
    [t('acquisition.metrics.roi'), figureText(figures.roi, 'percent', locale, dash)],
  ] : [];
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={<Title order={3}>{campaign.name}</Title>}>
      <Tabs defaultValue="details">
        <Tabs.List mb="md">
          <Tabs.Tab value="details">{t('acquisition.apptracker.details')}</Tabs.Tab>
          <Tabs.Tab value="postbacks">{t('acquisition.apptracker.postbacks')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details">
          <Stack gap="lg">
            <Group gap="xs">
              <Badge variant="light" tt="none">{t(`acquisition.status.${campaign.status}`)}</Badge>
              <Badge variant="outline" color="gray" tt="none">{t(`acquisition.pricing.${campaign.pricingModel}`)}</Badge>
              {campaign.createdByName && <Text size="xs" c="dimmed">{t('acquisition.apptracker.createdBy', { name: campaign.createdByName })}</Text>}
            </Group>
            {figures && (
              <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
                {tiles.map(([label, value]) => (
                  <Paper key={label} withBorder p="sm">
                    <Text size="xs" c="dimmed">{label}</Text>
                    <Text fw={700} size="lg" className="gd-num">{value}</Text>
                  </Paper>
                ))}
              </SimpleGrid>
            )}
            <SimpleGrid cols={2} spacing="md">
              <Field label={t('acquisition.apptracker.fields.source')}>{`${campaign.sourceName} (${t(`acquisition.sourceType.${campaign.sourceType}`)})`}</Field>
              <Field label={t('acquisition.apptracker.fields.provider')}>{campaign.accountProviderName ?? t('acquisition.apptracker.noProvider')}</Field>
              <Field label={t('acquisition.apptracker.fields.channel')}>{campaign.channelName ?? dash}</Field>
              <Field label={t('acquisition.apptracker.fields.pricing')}>{costText(campaign)}</Field>
              <Field label={t('acquisition.apptracker.fields.startDay')}>{campaign.startDay ?? dash}</Field>
              <Field label={t('acquisition.apptracker.fields.endDay')}>{campaign.endDay ?? t('acquisition.apptracker.noPeriod')}</Field>
              {campaign.costEvent && <Field label={t('acquisition.apptracker.fields.costEvent')}>{campaign.costEvent}</Field>}
              <Field label={t('acquisition.apptracker.activeLinks')}>{String(campaign.activeLinks)}</Field>
              <Field label={t('acquisition.apptracker.fields.deepLink')}>{campaign.deepLink ?? dash}</Field>
              <Field label={t('acquisition.apptracker.fields.destinations')}>{destinations || dash}</Field>
            </SimpleGrid>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="postbacks">
          <CampaignPostbacks appId={appId} campaignId={campaign.id} />
        </Tabs.Panel>
      </Tabs>
    </Drawer>
  );
}
