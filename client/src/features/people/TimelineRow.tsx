/** One event of the timeline: time, name (label of built-in events), key properties; details on demand. */
import { memo } from 'react';
import { Badge, Box, Code, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { builtInEventKey } from '@gd/shared/behaviour/events';
import type { TimelineEvent } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { FactList } from './FactList.tsx';
import { eventLabel, formatAt, formatMoney, propertyText } from '../../entities/person/format.ts';

/** Properties shown inline; the rest are behind "Show details". */
const INLINE_PROPERTIES = 4;
/** Width of the time column (fits "22 de nov de 2026" on one line). */
const TIME_COLUMN = 136;

export const TimelineRow = memo(function TimelineRow({ event, zone, open, onToggle }: { event: TimelineEvent; zone: string; open: boolean; onToggle: (id: string) => void }) {
  const { t, lang } = useT();
  const label = eventLabel(event.name, t);
  const builtIn = builtInEventKey(event.name) !== null;
  const props = Object.entries(event.properties);
  const inline = props.slice(0, INLINE_PROPERTIES);
  const origin = [event.source && `${t('people.timeline.source')}: ${event.source}`, event.campaign && `${t('people.timeline.campaign')}: ${event.campaign}`].filter(Boolean).join(' · ');
  const Chevron = open ? IconChevronDown : IconChevronRight;
  return (
    <Box style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} data-testid="timeline-event">
      <UnstyledButton onClick={() => onToggle(event.id)} aria-expanded={open} w="100%" px="md" py={10} className="gd-timeline-row" title={open ? t('people.timeline.hideDetails') : t('people.timeline.details')}>
        <Group gap="md" wrap="nowrap" align="flex-start">
          <Stack gap={0} w={TIME_COLUMN} style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
            <Text size="sm" fw={600} ff="monospace">
              {formatAt(event.time, zone, lang, 'time')}
            </Text>
            <Text size="xs" c="dimmed">
              {formatAt(event.time, zone, lang, 'date')}
            </Text>
          </Stack>
          <Stack gap={4} miw={0} style={{ flex: 1 }}>
            <Group gap={8} wrap="nowrap" miw={0}>
              <Chevron size={14} style={{ flexShrink: 0, color: 'var(--mantine-color-dimmed)' }} aria-hidden />
              <Text size="sm" fw={600} truncate="end" data-testid="timeline-event-name">
                {label}
              </Text>
              {label !== event.name && (
                <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={builtIn ? t('people.timeline.builtIn') : undefined}>
                  {event.name}
                </Text>
              )}
              {event.revenue !== null && (
                <Badge size="sm" variant="light" color="teal" tt="none" ml="auto" style={{ flexShrink: 0 }}>
                  {formatMoney(event.revenue, event.currency, lang)}
                </Badge>
              )}
            </Group>
            {inline.length > 0 && (
              <Text size="xs" c="dimmed" truncate="end" pl={22}>
                {inline.map(([k, v]) => `${k}: ${propertyText(v)}`).join(' · ')}
                {props.length > INLINE_PROPERTIES ? ` · +${props.length - INLINE_PROPERTIES}` : ''}
              </Text>
            )}
            {origin && (
              <Text size="xs" c="dimmed" truncate="end" pl={22}>
                {origin}
              </Text>
            )}
          </Stack>
        </Group>
      </UnstyledButton>
      {open && <Details event={event} zone={zone} />}
    </Box>
  );
});

function Details({ event, zone }: { event: TimelineEvent; zone: string }) {
  const { t, lang } = useT();
  return (
    <Box px="md" pb="md" pl={TIME_COLUMN + 16 + 16 + 22}>
      <Stack gap="sm">
        <FactList
          facts={[
            { label: t('people.timeline.receivedAt'), value: formatAt(event.receivedAt, zone, lang, 'dateTimeSeconds') },
            { label: t('people.timeline.eventId'), value: event.id, mono: true },
            { label: t('people.timeline.session'), value: event.sessionId, mono: true },
            { label: t('people.timeline.device'), value: [event.os, event.appVersion && `${t('people.field.appVersion')} ${event.appVersion}`, event.country].filter(Boolean).join(' · ') },
          ]}
        />
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" lts={0.4}>
          {t('people.timeline.properties')}
        </Text>
        {Object.keys(event.properties).length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('people.timeline.noProperties')}
          </Text>
        ) : (
          <Code block style={{ maxHeight: 240, overflow: 'auto' }}>
            {JSON.stringify(event.properties, null, 2)}
          </Code>
        )}
      </Stack>
    </Box>
  );
}
