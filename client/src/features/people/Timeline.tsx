/**
 * The person's events, newest first, in a virtualised list that asks for older pages as the end
 * comes into view. An event-name filter (built-in events by their label) starts over.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Group, Loader, Paper, Select, Text } from '@mantine/core';
import { IconActivity, IconFilter, IconRefresh } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { PersonEventName } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { errorText } from '../../ui/errorText.ts';
import { eventLabel, formatNumber } from '../../entities/person/format.ts';
import { TimelineRow } from './TimelineRow.tsx';
import { useTimeline } from './useTimeline.ts';

const LIST_HEIGHT = 'max(420px, calc(100dvh - 420px))';
/** Rows left below the view when the next page is asked for. */
const PREFETCH_ROWS = 10;

export function Timeline({ appId, personId, eventNames, zone }: { appId: string; personId: string; eventNames: PersonEventName[]; zone: string }) {
  const { t, lang } = useT();
  const [name, setName] = useState<string | null>(null);
  const timeline = useTimeline(appId, personId, name);
  const options = useMemo(
    () => eventNames.map((e) => ({ value: e.name, label: `${eventLabel(e.name, t)} (${formatNumber(e.events, lang)})` })),
    [eventNames, t, lang],
  );
  const total = name === null ? eventNames.reduce((s, e) => s + e.events, 0) : (eventNames.find((e) => e.name === name)?.events ?? 0);

  return (
    <Paper withBorder>
      <Group justify="space-between" p="md" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Select
          aria-label={t('people.timeline.filter')}
          placeholder={t('people.timeline.allEvents')}
          data={options}
          value={name}
          onChange={setName}
          clearable
          searchable
          leftSection={<IconFilter size={16} />}
          w={300}
          maw="100%"
          nothingFoundMessage={t('common.nothingFound')}
          data-testid="timeline-filter"
        />
        <Text size="sm" c="dimmed">
          {t('people.timeline.count', { count: total })}
        </Text>
      </Group>
      <TimelineBody timeline={timeline} zone={zone} filterLabel={name ? eventLabel(name, t) : null} />
    </Paper>
  );
}

function TimelineBody({ timeline, zone, filterLabel }: { timeline: ReturnType<typeof useTimeline>; zone: string; filterLabel: string | null }) {
  const { t } = useT();
  if (timeline.initial && timeline.error !== undefined) return <ErrorBlock error={timeline.error} onRetry={timeline.retry} />;
  if (timeline.initial) {
    return (
      <Paper p="md" withBorder={false}>
        <ListSkeleton rows={6} />
      </Paper>
    );
  }
  if (timeline.events.length === 0) {
    return (
      <EmptyBlock
        icon={<IconActivity size={28} />}
        title={t('people.timeline.emptyTitle')}
        description={filterLabel ? t('people.timeline.emptyFiltered', { name: filterLabel }) : t('people.timeline.emptyBody')}
      />
    );
  }
  return <EventList timeline={timeline} zone={zone} />;
}

function EventList({ timeline, zone }: { timeline: ReturnType<typeof useTimeline>; zone: string }) {
  const { t } = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const { events, next, loading, error, loadMore } = timeline;
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  // One extra row at the end: "loading older events", the retry, or "start of the history".
  // No React Compiler in this build; the virtualizer re-renders this component on scroll, as designed.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: events.length + 1,
    getScrollElement: () => scroller.current,
    estimateSize: () => 76,
    overscan: 6,
    getItemKey: (index) => events[index]?.id ?? '__footer__',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (next !== null && !loading && error === undefined && lastIndex >= events.length - PREFETCH_ROWS) loadMore();
  }, [lastIndex, events.length, next, loading, error, loadMore]);

  const toggle = (id: string) => setOpen((s) => {
    const copy = new Set(s);
    if (copy.has(id)) copy.delete(id);
    else copy.add(id);
    return copy;
  });

  return (
    <div ref={scroller} style={{ height: LIST_HEIGHT, overflowY: 'auto' }} data-testid="timeline">
      <div role="list" aria-label={t('people.timeline.label')} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const event = events[item.index];
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
            >
              {event ? (
                <TimelineRow event={event} zone={zone} open={open.has(event.id)} onToggle={toggle} />
              ) : (
                <Footer timeline={timeline} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function Footer({ timeline }: { timeline: ReturnType<typeof useTimeline> }) {
  const { t } = useT();
  if (timeline.error !== undefined) {
    return (
      <Group justify="center" gap="sm" p="md" role="alert">
        <Text size="sm" c="red">
          {t('people.timeline.loadMoreFailed')} {errorText(t, timeline.error)}
        </Text>
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={timeline.retry}>
          {t('common.retry')}
        </Button>
      </Group>
    );
  }
  if (timeline.next !== null) {
    return (
      <Group justify="center" gap="xs" p="md" role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('people.timeline.loadingMore')}
        </Text>
      </Group>
    );
  }
  return (
    <Text size="xs" c="dimmed" ta="center" p="md" tt="uppercase" lts={0.4} data-testid="timeline-end">
      {t('people.timeline.end')}
    </Text>
  );
}
