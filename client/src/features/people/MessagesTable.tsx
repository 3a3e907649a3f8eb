/** Messages the person received, per channel, campaign and message, with interaction counts. */
import { Badge, Paper, Table, Text } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import type { PersonMessage } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatAt, formatNumber } from './format.ts';

const CHANNEL_COLOR: Record<PersonMessage['channel'], string> = { push: 'brand', inapp: 'grape', email: 'teal', native: 'orange' };

export function MessagesTable({ messages, zone }: { messages: PersonMessage[]; zone: string }) {
  const { t, lang } = useT();
  if (messages.length === 0) {
    return (
      <Paper withBorder>
        <EmptyBlock icon={<IconMessage size={28} />} title={t('people.messages.emptyTitle')} description={t('people.messages.emptyBody')} />
      </Paper>
    );
  }
  const n = (value: number) => (
    <Text size="sm" c={value === 0 ? 'dimmed' : undefined}>
      {formatNumber(value, lang)}
    </Text>
  );
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={760}>
        <Table aria-label={t('people.messages.label')} style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('people.messages.channel')}</Table.Th>
              <Table.Th>{t('people.messages.campaign')}</Table.Th>
              <Table.Th>{t('people.messages.message')}</Table.Th>
              <Table.Th ta="right">{t('people.messages.impressions')}</Table.Th>
              <Table.Th ta="right">{t('people.messages.opens')}</Table.Th>
              <Table.Th ta="right">{t('people.messages.clicks')}</Table.Th>
              <Table.Th ta="right">{t('people.messages.dismissed')}</Table.Th>
              <Table.Th>{t('people.messages.last')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {messages.map((m) => (
              <Table.Tr key={`${m.channel}|${m.campaignId ?? ''}|${m.messageId ?? ''}`} data-testid="person-message">
                <Table.Td>
                  <Badge size="sm" variant="light" color={CHANNEL_COLOR[m.channel]} tt="none">
                    {t(`people.messages.channels.${m.channel}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {m.campaignId ?? t('people.profile.notSet')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {m.messageId ?? t('people.profile.notSet')}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{n(m.impressions)}</Table.Td>
                <Table.Td ta="right">{n(m.opens)}</Table.Td>
                <Table.Td ta="right">{n(m.clicks)}</Table.Td>
                <Table.Td ta="right">{n(m.dismissed)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{formatAt(m.lastAt, zone, lang, 'dateTime')}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
