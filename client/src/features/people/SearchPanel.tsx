/** The search box and its results (virtualised), or the people seen most recently. */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Box, Button, Group, Loader, Paper, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserSearch, IconUsers } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { PEOPLE_LIMITS } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { PersonRow, PERSON_ROW_HEIGHT } from './PersonRow.tsx';
import type { PeopleSearch } from './usePeopleSearch.ts';

/** The panel fills the window below the page header and scrolls its list on its own. */
const PANEL_HEIGHT = 'max(460px, calc(100dvh - 210px))';

export function SearchPanel({ text, onText, search, selectedId, onSelect }: {
  text: string;
  onText: (text: string) => void;
  search: PeopleSearch;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useT();
  const busy = useDelayedFlag(search.loading);
  // Enter opens the best match, once the search for what was typed has answered.
  const openFirst = useRef(false);
  const first = search.loading ? undefined : search.people?.[0];
  useEffect(() => {
    if (!openFirst.current || search.loading) return;
    openFirst.current = false;
    if (first) onSelect(first.id);
  }, [search.loading, first, onSelect]);
  const enter = () => {
    if (first) onSelect(first.id);
    else openFirst.current = search.loading;
  };
  const people = search.people;
  const recent = search.answered === '';

  let heading: string;
  if (recent) heading = t('people.search.recent');
  else if (people && people.length >= PEOPLE_LIMITS.searchResults) heading = t('people.search.capped', { count: PEOPLE_LIMITS.searchResults });
  else heading = t('people.search.count', { count: people?.length ?? 0 });

  return (
    <Paper withBorder h={PANEL_HEIGHT} style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }} data-people-panel>
      <Box p="md" pb="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <TextInput
          value={text}
          onChange={(e) => onText(e.currentTarget.value)}
          label={t('people.search.label')}
          placeholder={t('people.search.placeholder')}
          leftSection={<IconSearch size={16} />}
          rightSection={busy ? <Loader size={16} aria-label={t('common.loading')} /> : null}
          type="search"
          autoComplete="off"
          spellCheck={false}
          data-testid="people-search"
          onKeyDown={(e) => {
            // The down arrow moves into the results.
            if (e.key === 'Enter') enter();
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              e.currentTarget.closest('[data-people-panel]')?.querySelector<HTMLElement>('[data-row-index="0"]')?.focus();
            }
          }}
          description={t('people.search.hint')}
          maxLength={PEOPLE_LIMITS.maxQueryLength}
          inputWrapperOrder={['label', 'input', 'description']}
          styles={{ description: { marginTop: 6 } }}
        />
      </Box>
      {people !== undefined && people.length > 0 && (
        <Group justify="space-between" px="md" py={8} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" lts={0.4} aria-live="polite">
            {heading}
          </Text>
        </Group>
      )}
      <Box style={{ flex: 1, minHeight: 0, opacity: search.loading && people ? 0.6 : 1, transition: 'opacity 120ms' }}>
        <Results search={search} selectedId={selectedId} onSelect={onSelect} />
      </Box>
    </Paper>
  );
}

function Results({ search, selectedId, onSelect }: { search: PeopleSearch; selectedId: string | null; onSelect: (id: string) => void }) {
  const { t } = useT();
  const { people } = search;
  if (search.error !== undefined) return <ErrorBlock error={search.error} onRetry={search.retry} />;
  if (people === undefined) {
    return (
      <Box p="md">
        <ListSkeleton rows={6} />
      </Box>
    );
  }
  if (people.length === 0 && search.answered === '') {
    return (
      <Box px="md">
      <EmptyBlock
        icon={<IconUsers size={28} />}
        title={t('people.search.emptyTitle')}
        description={t('people.search.emptyBody')}
        action={
          <Button component={Link} to="/user/setup" variant="light">
            {t('people.search.setupLink')}
          </Button>
        }
      />
      </Box>
    );
  }
  if (people.length === 0) {
    return (
      <Box px="md">
        <EmptyBlock icon={<IconUserSearch size={28} />} title={t('people.search.noMatchTitle', { query: search.answered })} description={t('people.search.noMatchBody')} />
      </Box>
    );
  }
  return <VirtualList people={people} selectedId={selectedId} onSelect={onSelect} />;
}

function VirtualList({ people, selectedId, onSelect }: { people: NonNullable<PeopleSearch['people']>; selectedId: string | null; onSelect: (id: string) => void }) {
  const { t } = useT();
  const scroller = useRef<HTMLDivElement>(null);
  // No React Compiler in this build; the virtualizer re-renders this component on scroll, as designed.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: people.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => PERSON_ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => people[index]?.id ?? index,
  });
  /** Up and down arrows move between results, scrolling the one reached into view first. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const current = Number((e.target as HTMLElement).closest('[data-row-index]')?.getAttribute('data-row-index') ?? -1);
    const next = Math.min(people.length - 1, Math.max(0, current + (e.key === 'ArrowDown' ? 1 : -1)));
    if (next === current) return;
    e.preventDefault();
    virtualizer.scrollToIndex(next);
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-row-index="${next}"]`)?.focus());
  };
  return (
    <div ref={scroller} style={{ height: '100%', overflowY: 'auto' }} onKeyDown={onKeyDown}>
      <div role="list" aria-label={t('people.search.results')} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const person = people[item.index];
          if (!person) return null;
          return (
            <div key={item.key} role="listitem" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}>
              <PersonRow person={person} index={item.index} selected={person.id === selectedId} onSelect={onSelect} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
