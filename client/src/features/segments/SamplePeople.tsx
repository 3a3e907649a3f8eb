/**
 * A sample of matching people (the estimate's, or an audience's members): who they are (their name
 * from the API, else customer id, e-mail, else anonymous with their number; a named person's
 * customer id or e-mail under it), an avatar with the name's initials as in the people list,
 * country and when last seen, each opening the person's profile on /behavior/people. `compact`
 * lists them in two lines each (a narrow panel); otherwise a table.
 */
import { Link } from 'react-router';
import { Anchor, Avatar, Group, Stack, Table, Text } from '@mantine/core';
import type { SamplePerson } from '@gd/shared/schemas/segments';
import { useT } from '../../i18n/useT.ts';
import { useCurrentApp } from '../../session/store.ts';
import { formatAt, fromNow, personInitials } from '../../entities/person/format.ts';

export function SamplePeople({ people, label, testId, compact = false }: { people: readonly SamplePerson[]; label: string; testId: string; compact?: boolean }) {
  const { t, lang } = useT();
  const zone = useCurrentApp()?.timezone;
  const nameOf = (p: SamplePerson) => p.name ?? p.customerId ?? p.email ?? t('segments.estimate.anonymous', { id: p.id });
  const seen = (p: SamplePerson) => (p.lastSeenAt ? fromNow(p.lastSeenAt, lang) : '—');
  const link = (p: SamplePerson) => {
    // Under a name, the id it stands for (customer id, else e-mail).
    const under = p.name ? p.customerId ?? p.email : null;
    return (
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Avatar size={26} radius="xl" color={p.name || p.customerId ? 'brand' : 'gray'} variant="light" aria-hidden>
          {personInitials(p)}
        </Avatar>
        <Stack gap={0} miw={0}>
          <Anchor component={Link} to={`/behavior/people?person=${p.id}`} size="sm" title={nameOf(p)} lineClamp={1} style={{ wordBreak: 'break-all' }} data-testid="sample-person-name">
            {nameOf(p)}
          </Anchor>
          {under && (
            <Text size="xs" c="dimmed" truncate="end" title={under}>
              {under}
            </Text>
          )}
        </Stack>
      </Group>
    );
  };

  if (compact) {
    return (
      <Stack gap={0} role="list" aria-label={label} data-testid={testId}>
        {people.map((p) => (
          <Group key={p.id} role="listitem" justify="space-between" wrap="nowrap" gap="sm" py={6} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }} data-testid="sample-person">
            <Stack gap={0} miw={0}>
              {link(p)}
            </Stack>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap', flexShrink: 0 }} title={formatAt(p.lastSeenAt, zone, lang)}>
              {[p.country, seen(p)].filter(Boolean).join(' · ')}
            </Text>
          </Group>
        ))}
      </Stack>
    );
  }

  return (
    <Table aria-label={label} verticalSpacing={6} fz="sm" data-testid={testId} style={{ tableLayout: 'fixed' }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('segments.estimate.col.person')}</Table.Th>
          <Table.Th w={90}>{t('segments.estimate.col.country')}</Table.Th>
          <Table.Th w={150}>{t('segments.estimate.col.lastSeen')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {people.map((p) => (
          <Table.Tr key={p.id} data-testid="sample-person">
            <Table.Td>{link(p)}</Table.Td>
            <Table.Td>{p.country ?? '—'}</Table.Td>
            <Table.Td>
              <Text size="sm" title={formatAt(p.lastSeenAt, zone, lang)} style={{ whiteSpace: 'nowrap' }}>
                {seen(p)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
