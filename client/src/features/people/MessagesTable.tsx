/** Messages the person received, per channel, campaign and message, with interaction counts. */
import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import type { PersonMessage } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatAt, formatNumber } from '../../entities/person/format.ts';

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
  const counts = (m: PersonMessage) =>
    ([['impressions', m.impressions], ['opens', m.opens], ['clicks', m.clicks], ['dismissed', m.dismissed]] as const).filter(([, value]) => value > 0);
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label={t('people.messages.label')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('people.messages.message')}</Table.Th>
              <Table.Th>{t('people.messages.interactions')}</Table.Th>
              <Table.Th>{t('people.messages.last')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {messages.map((m) => (
              <Table.Tr key={`${m.channel}|${m.campaignId ?? ''}|${m.messageId ?? ''}`} data-testid="person-message">
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Badge size="sm" variant="light" color={CHANNEL_COLOR[m.channel]} tt="none" style={{ flexShrink: 0 }}>
                      {t(`people.messages.channels.${m.channel}`)}
                    </Badge>
                    <Stack gap={0} miw={0}>
                      <Text size="sm" ff="monospace" truncate="end" maw={240} title={m.messageId ?? undefined}>
                        {m.messageId ?? t('people.profile.notSet')}
                      </Text>
                      <Text size="xs" c="dimmed" truncate="end" maw={240} title={m.campaignId ?? undefined}>
                        {t('people.messages.campaign')}: {m.campaignId ?? t('people.profile.notSet')}
                      </Text>
                    </Stack>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    {counts(m).map(([kind, value]) => (
                      <Badge key={kind} size="sm" variant="default" tt="none" fw={500}>
                        {t(`people.messages.${kind}`)}: {formatNumber(value, lang)}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
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
