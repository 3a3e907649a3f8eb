/**
 * One search result: who (their name from the API, else customer id, e-mail or "Anonymous"), how
 * they were found, where, and when last seen. The avatar shows the name's initials (else the
 * e-mail's, else the person icon); the second line says what the title does not.
 */
import { memo } from 'react';
import { Avatar, Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { PersonSummary } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { fromNow, personInitials, personRowText } from '../../entities/person/format.ts';

export const PERSON_ROW_HEIGHT = 68;

/** Matches worth pointing out: the ones not visible in the row itself. */
const SHOWN_MATCHES = new Set(['personId', 'deviceKey', 'idfa', 'idfv', 'gaid', 'oaid', 'pushToken']);

export const PersonRow = memo(function PersonRow({ person, index, selected, onSelect }: { person: PersonSummary; index: number; selected: boolean; onSelect: (id: string) => void }) {
  const { t, lang } = useT();
  const { title, secondary, secondaryIsId } = personRowText(person, t);
  const known = Boolean(person.name || person.customerId || person.email);
  const facts = [person.os, person.country].filter(Boolean).join(' · ');
  return (
    <UnstyledButton
      onClick={() => onSelect(person.id)}
      aria-current={selected ? 'true' : undefined}
      data-testid="person-row"
      data-row-index={index}
      h={PERSON_ROW_HEIGHT}
      w="100%"
      px="md"
      className="gd-person-row"
      style={{
        display: 'flex', alignItems: 'center', gap: 12,
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: selected ? 'var(--mantine-color-brand-light)' : undefined,
        boxShadow: selected ? 'inset 3px 0 0 var(--mantine-color-brand-6)' : undefined,
      }}
    >
      <Avatar size={36} radius="xl" color={person.name || person.customerId ? 'brand' : 'gray'} variant="light">
        {personInitials(person)}
      </Avatar>
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Group justify="space-between" gap={8} wrap="nowrap">
          <Text size="sm" fw={600} truncate="end" c={known ? undefined : 'dimmed'} data-testid="person-row-title">
            {title}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {person.lastSeenAt ? fromNow(person.lastSeenAt, lang) : t('people.search.neverSeen')}
          </Text>
        </Group>
        <Group justify="space-between" gap={8} wrap="nowrap">
          <Text size="xs" c="dimmed" truncate="end" ff={secondaryIsId ? 'monospace' : undefined}>
            {secondary}
          </Text>
          {SHOWN_MATCHES.has(person.match) ? (
            <Badge size="xs" variant="light" color="teal" tt="none" style={{ flexShrink: 0 }}>
              {t(`people.search.match.${person.match}`)}
            </Badge>
          ) : (
            facts && (
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }} truncate="end" maw={140}>
                {facts}
              </Text>
            )
          )}
        </Group>
      </Stack>
    </UnstyledButton>
  );
});
