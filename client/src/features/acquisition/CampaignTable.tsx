/**
 * The campaigns as a table: name (opens its details), source and type, provider, channel, pricing
 * with its cost, status, and the figures of the range (clicks, installs, cost, revenue, ROI).
 * Shared by the apptracker and the provider view; `actions` renders a row's actions (or none).
 */
import type { ReactNode } from 'react';
import { Anchor, Badge, Box, Group, Stack, Table, Text } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import type { CampaignFigures } from '@gd/shared/acquisition/metrics';
import type { Campaign } from '@gd/shared/schemas/acquisition';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { moneyFormatter } from '../../ui/money.ts';
import { figureText } from './campaignForm.ts';

const STATUS_COLOR = { active: 'teal', paused: 'yellow', archived: 'gray' } as const;

export function useCostText() {
  const { t, lang } = useT();
  return (c: Campaign) => {
    const value = moneyFormatter(lang, c.currency)(c.costValue);
    return c.pricingModel === 'fixed' ? t('acquisition.apptracker.costFixed', { value }) : t('acquisition.apptracker.cost', { value, unit: t(`acquisition.apptracker.unit.${c.pricingModel}`) });
  };
}

export function CampaignTable({ campaigns, figures, onOpen, actions, empty, categories }: {
  campaigns: Campaign[];
  figures: Record<string, CampaignFigures>;
  onOpen: (c: Campaign) => void;
  actions?: ((c: Campaign) => ReactNode) | undefined;
  empty?: ReactNode;
  /** A campaign's categories (badges), under its status and channel. */
  categories?: ((c: Campaign) => ReactNode) | undefined;
}) {
  const { t, lang } = useT();
  const locale = localeFor(lang);
  const dash = t('acquisition.none');
  const costText = useCostText();
  return (
    <ListTable
      isEmpty={campaigns.length === 0}
      empty={empty ?? <EmptyBlock icon={<IconSpeakerphone size={28} />} title={t('acquisition.apptracker.emptyTitle')} description={t('acquisition.apptracker.emptyBody')} />}
      label={t('acquisition.apptracker.tableLabel')}
      minWidth={900}
      head={
        <>
          <Table.Th>{t('acquisition.apptracker.fields.name')}</Table.Th>
          <Table.Th>{t('acquisition.apptracker.fields.sourceProvider')}</Table.Th>
          <Table.Th>{t('acquisition.apptracker.fields.pricing')}</Table.Th>
          <Table.Th ta="right">{t('acquisition.metrics.clicks')}</Table.Th>
          <Table.Th ta="right">{t('acquisition.metrics.installs')}</Table.Th>
          <Table.Th ta="right">{t('acquisition.metrics.cost')}</Table.Th>
          <Table.Th ta="right">{t('acquisition.metrics.revenue')}</Table.Th>
          <Table.Th ta="right">{t('acquisition.metrics.roi')}</Table.Th>
          {actions && <Table.Th w={120} ta="right">{t('common.actions')}</Table.Th>}
        </>
      }
    >
      {campaigns.map((c) => {
        const f = figures[c.id];
        const money = moneyFormatter(lang, c.currency);
        return (
          <Table.Tr key={c.id} data-testid="campaign-row">
            <Table.Td miw={170} maw={280}>
              <Anchor component="button" type="button" fw={600} size="sm" ta="left" truncate="end" display="block" w="100%" title={c.name} onClick={() => onOpen(c)}>
                {c.name}
              </Anchor>
              <Group gap={6} wrap="nowrap" mt={2}>
                <Badge size="xs" variant="light" color={STATUS_COLOR[c.status]} tt="none" style={{ flexShrink: 0 }}>{t(`acquisition.status.${c.status}`)}</Badge>
                <Text size="xs" c="dimmed" truncate="end">{c.channelName ?? t('acquisition.apptracker.noChannel')}</Text>
              </Group>
              {categories && <Box mt={4}>{categories(c)}</Box>}
            </Table.Td>
            <Table.Td>
              <Stack gap={0}>
                <Text size="sm">{c.sourceName}</Text>
                <Text size="xs" c="dimmed">{`${t(`acquisition.sourceType.${c.sourceType}`)} · ${c.accountProviderName ?? t('acquisition.apptracker.noProvider')}`}</Text>
              </Stack>
            </Table.Td>
            <Table.Td>
              <Stack gap={0}>
                <Text size="sm" fw={500}>{t(`acquisition.pricing.${c.pricingModel}`)}</Text>
                <Text size="xs" c="dimmed">{costText(c)}</Text>
              </Stack>
            </Table.Td>
            <Table.Td ta="right" className="gd-num">{figureText(f?.clicks, 'count', locale, dash)}</Table.Td>
            <Table.Td ta="right" className="gd-num">{figureText(f?.installs, 'count', locale, dash)}</Table.Td>
            <Table.Td ta="right" className="gd-num">{f ? money(f.cost) : dash}</Table.Td>
            <Table.Td ta="right" className="gd-num">{f ? money(f.revenue) : dash}</Table.Td>
            <Table.Td ta="right" className="gd-num">
              <Text size="sm" c={f?.roi == null ? 'dimmed' : f.roi >= 0 ? 'teal.8' : 'red.7'}>{figureText(f?.roi, 'percent', locale, dash)}</Text>
            </Table.Td>
            {actions && <Table.Td>{actions(c)}</Table.Td>}
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
