/**
 * Header date range control: presets, a custom range on a two-month calendar, and the time
 * group. Applying a range that equals the current one announces nothing; a different one
 * updates the shared store (read by the analytics screens) and is announced to screen readers.
 * `compact` (phones): a smaller button; the dropdown stacks the presets (two columns) over a
 * one-month calendar so it fits a 390 px screen.
 */
import { useEffect, useRef, useState } from 'react';
import { Box, Button, Divider, Group, Popover, SegmentedControl, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendar, IconChevronDown } from '@tabler/icons-react';
import type { DateRange } from '@gd/shared/dateRange';
import { TimeGroup } from '@gd/shared/enums';
import { localeFor } from '@gd/shared/language';
import { useT } from '../i18n/useT.ts';
import { useCurrentApp } from '../session/store.ts';
import { PRESETS, matchPreset, presetRange, todayIn, type Preset } from '../state/dateRangePresets.ts';
import { useDateRange } from '../state/dateRangeStore.ts';

const asDate = (day: string) => new Date(`${day}T12:00:00Z`);
/** The calendar opens on the month before the range's end, so both columns show past days. */
const previousMonth = (day: string) => {
  const d = asDate(day);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 10);
};

export function formatRange(range: Pick<DateRange, 'startDay' | 'endDay'>, locale: string): string {
  const format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return range.startDay === range.endDay ? format.format(asDate(range.startDay)) : format.formatRange(asDate(range.startDay), asDate(range.endDay));
}

export function DateRangeControl({ compact = false }: { compact?: boolean }) {
  const { t, lang } = useT();
  const app = useCurrentApp();
  const range = useDateRange((s) => s.range);
  const setRange = useDateRange((s) => s.setRange);
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<[string | null, string | null]>([range.startDay, range.endDay]);
  const [group, setGroup] = useState<TimeGroup>(range.timeGroup);
  const [announcement, setAnnouncement] = useState('');
  const today = todayIn(app?.timezone);
  const locale = localeFor(lang);
  const summary = formatRange(range, locale);
  const preset = matchPreset(range, today);

  const previous = useRef(range);
  useEffect(() => {
    if (previous.current !== range) setAnnouncement(t('dateRange.changed', { range: formatRange(range, locale), group: t(`dateRange.group.${range.timeGroup}`) }));
    previous.current = range;
  }, [range, locale, t]);

  const open = () => {
    setDraft([range.startDay, range.endDay]);
    setGroup(range.timeGroup);
    setOpened(true);
  };
  const applyPreset = (p: Preset) => {
    setRange(presetRange(p, today, group));
    setOpened(false);
  };
  const applyCustom = () => {
    const [start, end] = draft;
    if (!start) return;
    setRange({ startDay: start, endDay: end ?? start, timeGroup: group });
    setOpened(false);
  };

  const presetButtons = PRESETS.map((p) => (
    <Button key={p} variant={p === preset ? 'light' : 'subtle'} color={p === preset ? undefined : 'gray'} justify="flex-start" size="compact-sm" onClick={() => applyPreset(p)}>
      {t(`dateRange.preset.${p}`)}
    </Button>
  ));
  const presetsTitle = (
    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="xs" py={4}>
      {t('dateRange.presets')}
    </Text>
  );
  const custom = (
    <Stack gap="sm" p={compact ? 'xs' : 'md'}>
      <DatePicker
        type="range"
        defaultDate={compact ? range.endDay : previousMonth(range.endDay)}
        numberOfColumns={compact ? 1 : 2}
        value={draft}
        onChange={setDraft}
        maxDate={today}
        allowSingleDateInRange
        ariaLabels={{ previousMonth: t('dateRange.previousMonth'), nextMonth: t('dateRange.nextMonth') }}
      />
      <Divider />
      <Group justify="space-between" align="flex-end" gap="xs">
        <Box>
          <Text size="xs" fw={600} mb={4} id="date-range-group">
            {t('dateRange.groupBy')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby="date-range-group"
            value={group}
            onChange={(v) => setGroup(TimeGroup.parse(v))}
            data={TimeGroup.options.map((g) => ({ value: g, label: t(`dateRange.group.${g}`) }))}
          />
        </Box>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => setOpened(false)}>
            {t('common.cancel')}
          </Button>
          <Button size="xs" onClick={applyCustom} disabled={!draft[0]}>
            {t('common.apply')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );

  return (
    <>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" trapFocus returnFocus withinPortal>
        <Popover.Target>
          <Button
            variant="default"
            size={compact ? 'compact-sm' : 'sm'}
            h={compact ? 34 : undefined}
            miw={0}
            onClick={() => (opened ? setOpened(false) : open())}
            leftSection={<IconCalendar size={16} />}
            rightSection={compact ? undefined : <IconChevronDown size={14} />}
            styles={{ inner: { minWidth: 0 }, label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
            aria-label={`${t('dateRange.label')}: ${summary}, ${t(`dateRange.group.${range.timeGroup}`)}`}
            aria-haspopup="dialog"
            aria-expanded={opened}
            data-testid="date-range"
          >
            <Text span size="sm" fw={500} truncate>
              {preset ? t(`dateRange.preset.${preset}`) : summary}
            </Text>
            <Text span size="xs" c="dimmed" ml={8} visibleFrom="xl">
              {preset ? summary : t(`dateRange.group.${range.timeGroup}`)}
            </Text>
          </Button>
        </Popover.Target>
        <Popover.Dropdown p={0} role="dialog" aria-label={t('dateRange.label')} maw="calc(100vw - 16px)">
          {compact ? (
            <Stack gap={0}>
              <Box p="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                {presetsTitle}
                <SimpleGrid cols={2} spacing={2} verticalSpacing={2}>
                  {presetButtons}
                </SimpleGrid>
              </Box>
              {custom}
            </Stack>
          ) : (
            <Group align="stretch" gap={0} wrap="nowrap">
              <Stack gap={2} p="xs" w={170} style={{ borderRight: '1px solid var(--mantine-color-gray-2)' }}>
                {presetsTitle}
                {presetButtons}
              </Stack>
              {custom}
            </Group>
          )}
        </Popover.Dropdown>
      </Popover>
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
    </>
  );
}
