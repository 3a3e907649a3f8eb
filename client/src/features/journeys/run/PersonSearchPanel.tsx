/**
 * "Find a person" in a journey (journeyPersonSearch): by customer id, e-mail or person id, every
 * entry of theirs (all versions, newest first) with where they are, what they wait for and each
 * step passed (entities/journey/EntryTrace.tsx). A passage marks its step on the canvas.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserQuestion } from '@tabler/icons-react';
import type { Journey } from '@gd/shared/journey/model';
import type { JourneyPersonMatch } from '@gd/shared/schemas/journeyRun';
import { EntryTrace } from '../../../entities/journey/EntryTrace.tsx';
import { useT } from '../../../i18n/useT.ts';
import { useCurrentApp, useSession } from '../../../session/store.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { ListSkeleton } from '../../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../../ui/States.tsx';
import { pathLabelText, stepLabel } from '../canvas/labels.ts';
import { pathLabel } from '../canvas/toFlow.ts';

export interface PersonSearchPanelProps {
  journeyId: string;
  journey: Journey;
  focus: string | null;
  onFocus: (stepId: string | null) => void;
}

export function PersonSearchPanel({ journeyId, journey, focus, onFocus }: PersonSearchPanelProps) {
  const { t } = useT();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const query = useApiQuery('journeyPersonSearch', { params: { appId, journeyId }, query: { q }, scope: 'app', enabled: q !== '' });
  const search = () => {
    const next = typed.trim();
    if (next === q) query.refetch();
    setQ(next);
    onFocus(null);
  };

  let results = null;
  if (q !== '') {
    if (query.state === 'error' && !query.data) results = <ErrorBlock error={query.error} onRetry={query.refetch} />;
    else if (!query.data) results = <ListSkeleton rows={3} />;
    else if (query.data.people.length === 0) {
      results = (
        <Paper withBorder radius="md" data-testid="person-search-empty">
          <EmptyBlock icon={<IconUserQuestion size={26} />} title={t('journeyRun.search.emptyTitle')} description={t('journeyRun.search.emptyBody')} />
        </Paper>
      );
    } else {
      results = (
        <Stack gap="lg">
          {query.data.people.map((p) => (
            <PersonEntries key={p.personId} person={p} journey={journey} focus={focus} onFocus={(stepId) => onFocus(focus === stepId ? null : stepId)} />
          ))}
        </Stack>
      );
    }
  }

  return (
    <Stack gap="md" data-testid="person-search">
      <Text size="sm" c="dimmed">
        {t('journeyRun.search.description')}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <Text component="label" htmlFor="journey-person-search" size="sm" fw={500} display="block" mb={4}>
          {t('journeyRun.search.label')}
        </Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            id="journey-person-search"
            placeholder={t('journeyRun.search.placeholder')}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            style={{ flex: 1 }}
            maxLength={320}
            data-testid="person-search-input"
          />
          <Button type="submit" leftSection={<IconSearch size={16} />} disabled={typed.trim() === ''} loading={q !== '' && query.state === 'loading'} data-testid="person-search-submit">
            {t('journeyRun.search.search')}
          </Button>
        </Group>
      </form>
      {q === '' && (
        <Text size="xs" c="dimmed">
          {t('journeyRun.search.hint')}
        </Text>
      )}
      {results}
    </Stack>
  );
}

function PersonEntries({ person, journey, focus, onFocus }: { person: JourneyPersonMatch; journey: Journey; focus: string | null; onFocus: (stepId: string) => void }) {
  const { t } = useT();
  const app = useCurrentApp();
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const stepName = (stepId: string) => {
    const step = byId.get(stepId);
    return step ? stepLabel(t, step) : null;
  };
  const pathName = (stepId: string, pathId: string) => {
    const step = byId.get(stepId);
    if (!step || !('paths' in step)) return null;
    const index = step.paths.findIndex((p) => p.id === pathId);
    return index < 0 ? null : pathLabelText(t, pathLabel(step, index)) || null;
  };
  const title = person.email ?? person.customerId ?? t('journeyRun.search.personNumber', { id: person.personId });
  // Under the title: the customer id when the title is the e-mail, then the person's number.
  const secondary = [person.email && person.customerId ? person.customerId : null, t('journeyRun.search.personNumber', { id: person.personId })].filter((x) => x !== null);
  return (
    <Stack gap="xs" data-testid="person-match" data-person-id={person.personId}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={0} miw={0}>
          <Text fw={700} size="sm" truncate="end" title={title}>
            {title}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {secondary.join(' · ')}
            {' · '}
            {t('journeyRun.search.entries', { count: person.entries.length })}
          </Text>
        </Stack>
        <Anchor component={Link} to={`/behavior/people?person=${person.personId}&tab=journeys`} size="xs" style={{ flexShrink: 0 }} target="_blank" rel="noopener">
          {t('journeyRun.search.openProfile')}
        </Anchor>
      </Group>
      {person.entries.map((entry) => (
        <EntryTrace key={entry.entryId} entry={entry} zone={app?.timezone} stepName={stepName} pathName={pathName} onShowStep={onFocus} shownStepId={focus} />
      ))}
    </Stack>
  );
}
