/**
 * The events table of /behavior/events: sortable columns, one selected row, and virtualised rows
 * (only the rows in view are in the page), so an app with thousands of event names scrolls
 * smoothly. The header stays in view while the body scrolls.
 */
import { useRef, type KeyboardEvent } from 'react';
import { Badge, Group, Paper, Skeleton, Stack, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useT } from '../../i18n/useT.ts';
import type { EventRow, Sort, SortColumn } from './eventRows.ts';
import { formatMoney } from '../../ui/money.ts';
import { formatVariation } from '../../ui/format.ts';
import { metricFormatter, truncateLabel } from './labels.ts';

const ROW_HEIGHT = 52;
/** About seven rows: the selected event's chart stays in view below. */
const MAX_HEIGHT = 416;

function SortHeader({ column, label, sort, onSort, align = 'right', hint, width }: {
  column: SortColumn; label: string; sort: Sort; onSort: (c: SortColumn) => void; align?: 'left' | 'right'; hint?: string; width: string;
}) {
  const { t } = useT();
  const active = sort.column === column;
  const Icon = !active ? IconSelector : sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
  const button = (
    <UnstyledButton onClick={() => onSort(column)} aria-label={t('eventsScreen.sortBy', { column: label })} style={{ width: '100%' }}>
      <Group gap={4} justify={align === 'right' ? 'flex-end' : 'flex-start'} wrap="nowrap">
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {label}
        </Text>
        <Icon size={14} color={active ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-5)'} />
      </Group>
    </UnstyledButton>
  );
  return (
    <Table.Th aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'} ta={align} w={width}>
      {hint ? <Tooltip label={hint} multiline w={260}>{button}</Tooltip> : button}
    </Table.Th>
  );
}

function Change({ row }: { row: EventRow }) {
  const { t, lang } = useT();
  if (row.change === null) {
    return row.events > 0 ? <Badge variant="light" color="blue">{t('analytics.newValue')}</Badge> : <Text size="sm" c="dimmed">{t('analytics.noValue')}</Text>;
  }
  const color = row.change > 0 ? 'teal' : row.change < 0 ? 'red' : 'gray';
  return <Badge variant="light" color={color}>{formatVariation(row.change, lang)}</Badge>;
}

export function EventsTable({ rows, sort, onSort, selected, onSelect, previousRange }: {
  rows: readonly EventRow[];
  sort: Sort;
  onSort: (column: SortColumn) => void;
  selected: string | null;
  onSelect: (name: string) => void;
  /** The previous period as text, for the variation column's hint. */
  previousRange: string;
}) {
  const { t, lang } = useT();
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer's functions are read during render on purpose
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const count = metricFormatter(lang, 'events');
  const onKey = (name: string) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(name);
    }
  };

  return (
    <Paper withBorder>
      <div ref={scrollRef} style={{ maxHeight: MAX_HEIGHT, overflowY: 'auto' }} data-testid="events-scroll">
        <Table stickyHeader layout="fixed" highlightOnHover aria-label={t('eventsScreen.table')} aria-rowcount={rows.length + 1} miw={720}>
          <Table.Thead>
            <Table.Tr>
              <SortHeader column="display" label={t('analytics.event')} sort={sort} onSort={onSort} align="left" width="40%" />
              <SortHeader column="events" label={t('eventsScreen.events')} sort={sort} onSort={onSort} width="14%" />
              <SortHeader column="people" label={t('eventsScreen.people')} sort={sort} onSort={onSort} width="14%" />
              <SortHeader column="revenue" label={t('eventsScreen.revenue')} sort={sort} onSort={onSort} width="14%" />
              <SortHeader column="change" label={t('eventsScreen.variation')} sort={sort} onSort={onSort} width="18%" hint={t('eventsScreen.variationHint', { range: previousRange })} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              const isSelected = row.name === selected;
              return (
                <Table.Tr
                  key={row.name}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  data-testid="event-row"
                  aria-rowindex={item.index + 2}
                  aria-selected={isSelected}
                  tabIndex={0}
                  onClick={() => onSelect(row.name)}
                  onKeyDown={onKey(row.name)}
                  style={{ cursor: 'pointer' }}
                  bg={isSelected ? 'var(--mantine-color-blue-0)' : undefined}
                >
                  <Table.Td style={{ boxShadow: isSelected ? 'inset 3px 0 0 var(--mantine-color-blue-6)' : undefined }}>
                    <Stack gap={0} miw={0}>
                      <Group gap={6} wrap="nowrap" miw={0}>
                        <Text size="sm" fw={600} truncate title={row.display}>
                          {truncateLabel(row.display)}
                        </Text>
                        {row.builtIn && <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>{t('analytics.builtIn')}</Badge>}
                        {row.hidden && <Badge size="xs" variant="outline" color="gray" style={{ flexShrink: 0 }}>{t('analytics.hiddenBadge')}</Badge>}
                      </Group>
                      {row.display !== row.name && (
                        <Text size="xs" c="dimmed" ff="monospace" truncate title={row.name}>
                          {row.name}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{count(row.events)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{row.people === null ? <Skeleton h={12} w={40} ml="auto" aria-label={t('common.loading')} /> : count(row.people)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{row.revenue ? formatMoney(lang, row.revenue, row.currency) : <Text span size="sm" c="dimmed">{t('analytics.noValue')}</Text>}</Table.Td>
                  <Table.Td ta="right"><Change row={row} /></Table.Td>
                </Table.Tr>
              );
            })}
            {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
          </Table.Tbody>
        </Table>
      </div>
    </Paper>
  );
}
