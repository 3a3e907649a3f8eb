/**
 * The person's journeys (personJourneys): each entry, newest first, with its journey, where the
 * person is or how it ended, and every step passed (entities/journey/EntryTrace.tsx, the same as
 * the journey editor's "Find a person").
 */
import { Link } from 'react-router';
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { EntryTrace } from '../../entities/journey/EntryTrace.tsx';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { EmptyBlock } from '../../ui/States.tsx';

export function JourneysTab({ appId, personId, zone }: { appId: string; personId: string; zone: string }) {
  const { t } = useT();
  const query = useApiQuery('personJourneys', { params: { appId, personId }, scope: 'app' });
  return (
    <DataState query={query} rows={4}>
      {({ entries }) =>
        entries.length === 0 ? (
          <Paper withBorder data-testid="person-journeys-empty">
            <EmptyBlock icon={<IconRoute size={28} />} title={t('journeyRun.personTab.emptyTitle')} description={t('journeyRun.personTab.emptyBody')} />
          </Paper>
        ) : (
          <Stack gap="sm" data-testid="person-journeys">
            {entries.map((entry) => (
              <EntryTrace
                key={entry.entryId}
                entry={entry}
                zone={zone}
                title={
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text fw={700} size="sm" truncate="end" title={entry.journeyName}>
                      {entry.journeyName}
                    </Text>
                    <Anchor component={Link} to={`/communication/journeys?id=${entry.journeyId}`} size="xs" style={{ flexShrink: 0 }}>
                      {t('journeyRun.personTab.openJourney')}
                    </Anchor>
                  </Group>
                }
              />
            ))}
          </Stack>
        )
      }
    </DataState>
  );
}
