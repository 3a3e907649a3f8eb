/** Who the person is at a glance: identity, badges and the key numbers. */
import { Avatar, Badge, Box, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { personName } from '@gd/shared/people/name';
import { useT } from '../../i18n/useT.ts';
import { formatAt, formatMoney, formatNumber, fromNow, personInitials, personTitle } from '../../entities/person/format.ts';
import type { PersonDetailAnswer } from './types.ts';

function KeyFact({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4} truncate="end">
        {label}
      </Text>
      <Text size="md" fw={650} truncate="end" title={hint}>
        {value}
      </Text>
    </Stack>
  );
}

export function ProfileHeader({ detail, zone }: { detail: PersonDetailAnswer; zone: string }) {
  const { t, lang } = useT();
  const { person, summary } = detail;
  const title = personTitle(person, t);
  const known = Boolean(personName(person.attributes) || person.customerId || person.email);
  const place = [person.city, person.state, person.country].filter(Boolean).join(', ');
  // What the title does not already say: the customer id when a name titles the profile, the e-mail, the person number.
  const subtitle = [
    person.customerId && person.customerId !== title ? t('people.profile.customerId', { id: person.customerId }) : null,
    person.email && person.email !== title ? person.email : null,
    t('people.search.personNumber', { id: person.id }),
  ].filter(Boolean).join(' · ');
  const none = t('people.profile.notSet');
  return (
    <Paper withBorder p="lg">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <Avatar size={52} radius="xl" color={known ? 'brand' : 'gray'} variant="light">
          {personInitials(person)}
        </Avatar>
        <Stack gap={4} miw={0} style={{ flex: 1 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2} fz={22} style={{ overflowWrap: 'anywhere' }} data-testid="person-title">
              {title}
            </Title>
            {person.os && (
              <Badge variant="light" color="gray" tt="none">
                {[person.os, person.osVersion].filter(Boolean).join(' ')}
              </Badge>
            )}
            {person.uninstallAt && (
              <Badge variant="light" color="red" tt="none">
                {t('people.profile.uninstalled')}
              </Badge>
            )}
            {person.inactive && (
              <Badge variant="light" color="orange" tt="none">
                {t('people.profile.inactive')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {subtitle}
          </Text>
          {place && (
            <Group gap={4} c="dimmed">
              <IconMapPin size={14} aria-hidden />
              <Text size="sm">{place}</Text>
            </Group>
          )}
        </Stack>
      </Group>
      <Box mt="lg" pt="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <SimpleGrid type="container" cols={{ base: 2, '480px': 3, '760px': 6 }} spacing="md" verticalSpacing="md">
          <KeyFact label={t('people.profile.facts.firstSeen')} value={formatAt(summary.firstSeenAt, zone, lang, 'date') || none} hint={formatAt(summary.firstSeenAt, zone, lang, 'dateTimeSeconds')} />
          <KeyFact label={t('people.profile.facts.lastSeen')} value={summary.lastSeenAt ? fromNow(summary.lastSeenAt, lang) : none} hint={formatAt(summary.lastSeenAt, zone, lang, 'dateTimeSeconds')} />
          <KeyFact label={t('people.profile.facts.events')} value={formatNumber(summary.events, lang)} />
          <KeyFact label={t('people.profile.facts.sessions')} value={formatNumber(summary.sessions, lang)} />
          <KeyFact label={t('people.profile.facts.revenue')} value={formatMoney(person.revenue, person.revenueCurrency, lang)} />
          <KeyFact label={t('people.profile.facts.conversions')} value={formatNumber(person.conversions, lang)} />
        </SimpleGrid>
      </Box>
    </Paper>
  );
}
