/**
 * /behavior/people (route:/behavior/people, app-scoped): find a person, then read their profile
 * and timeline. The URL keeps the search (`q`, replaced while typing), the selected person
 * (`person`, pushed, so back returns to the previous one) and the profile tab (`tab`).
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Grid } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { MetaApp } from '@gd/shared/schemas/account';
import { PersonId } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { PersonView, SelectPersonPrompt } from './PersonView.tsx';
import { SearchPanel } from './SearchPanel.tsx';
import { PROFILE_TABS, type ProfileTab } from './tabs.ts';
import { usePeopleSearch } from './usePeopleSearch.ts';

export default function PeoplePage() {
  const { t } = useT();
  return <AppScreen title={t('nav.people')} descriptionNoApp={t('people.descriptionNoApp')}>{(app) => <People app={app} />}</AppScreen>;
}

function People({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const search = usePeopleSearch(app.id, text);
  const personId = params.get('person');
  const rawTab = params.get('tab');
  const tab: ProfileTab = PROFILE_TABS.find((x) => x === rawTab) ?? 'overview';
  const twoColumns = useMediaQuery('(min-width: 75em)');

  // Each change starts from the address as it is now: the router's own copy can be a render old
  // when a debounced search and a click land together, and would drop the selected person.
  const patch = useCallback((changes: Record<string, string | null>, replace: boolean) => {
    setParams(() => {
      const next = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    }, { replace });
  }, [setParams]);

  // The search being asked goes to the URL without adding history entries.
  useEffect(() => {
    if ((new URLSearchParams(window.location.search).get('q') ?? '') !== search.query) patch({ q: search.query || null }, true);
  }, [search.query, patch]);

  const select = useCallback((id: string) => patch({ person: id, tab: null }, false), [patch]);
  const changeTab = useCallback((value: ProfileTab) => patch({ tab: value === 'overview' ? null : value }, true), [patch]);

  return (
    <>
      <PageHeader title={t('nav.people')} description={t('people.description', { app: app.name })} />
      <Grid gap="lg" align="flex-start">
        {/* The search stays in view while a long profile scrolls (from the two-column layout up). */}
        <Grid.Col span={{ base: 12, lg: 4 }} style={twoColumns ? { position: 'sticky', top: 76 } : undefined}>
          <SearchPanel text={text} onText={setText} search={search} selectedId={personId} onSelect={select} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }} miw={0}>
          {personId ? (
            <PersonView
              key={personId}
              app={app}
              personId={personId}
              valid={PersonId.safeParse(personId).success}
              tab={tab}
              onTab={changeTab}
            />
          ) : (
            <SelectPersonPrompt />
          )}
        </Grid.Col>
      </Grid>
    </>
  );
}
