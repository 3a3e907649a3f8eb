/** The selected event of /behavior/events: its trend (events and people per time group) and its top properties. */
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Grid, Group, Paper, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { IconChartLine, IconListDetails } from '@tabler/icons-react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DateRange } from '@gd/shared/dateRange';
import type { EventProperty } from '@gd/shared/schemas/behaviour';
import { useT } from '../../i18n/useT.ts';
import { DataState } from '../../ui/DataState.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { AXIS_COLOR, GRID_COLOR, TOOLTIP_STYLE, bucketTick, compactNumber, seriesColor } from './chartStyle.ts';
import { metricFormatter, seriesLabel, truncateLabel } from './labels.ts';
import { Refreshing } from './Refreshing.tsx';
import { useAppRangeQuery } from './useAnalytics.ts';

function TrendChart({ buckets, events, people }: { buckets: string[]; events: number[]; people: number[] }) {
  const { t, lang } = useT();
  const data = buckets.map((bucket, i) => ({ bucket, events: events[i] ?? 0, people: people[i] ?? 0 }));
  const format = metricFormatter(lang, 'events');
  return (
    <ResponsiveContainer width="100%" height={280}>
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID_COLOR} vertical={false} />
        <XAxis dataKey="bucket" tickFormatter={(b: string) => bucketTick(b, lang)} stroke={AXIS_COLOR} fontSize={12} tickLine={false} minTickGap={16} />
        <YAxis tickFormatter={compactNumber(lang)} stroke={AXIS_COLOR} fontSize={12} tickLine={false} axisLine={false} width={48} allowDecimals={false} />
        <Tooltip formatter={(value) => format(Number(value))} {...TOOLTIP_STYLE} />
        <Legend iconType="plainline" wrapperStyle={{ fontSize: 13 }} />
        <Line type="monotone" dataKey="events" name={t('eventsScreen.events')} stroke={seriesColor(0, null)} strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line type="monotone" dataKey="people" name={t('eventsScreen.people')} stroke={seriesColor(1, null)} strokeWidth={2} dot={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}

function PropertyValues({ property, sampled }: { property: EventProperty; sampled: number }) {
  const { t, lang } = useT();
  const format = metricFormatter(lang, 'events');
  return (
    <Stack gap="xs" aria-label={t('eventsScreen.valuesOf', { property: property.name })} role="list">
      {property.values.map((v) => {
        const label = seriesLabel(t, v.value, v.value);
        return (
          <div key={v.value} role="listitem">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" truncate title={label}>
                {truncateLabel(label)}
              </Text>
              <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}>
                {format(v.count)}
              </Text>
            </Group>
            <Progress value={sampled ? (v.count / sampled) * 100 : 0} size="sm" mt={4} aria-hidden />
          </div>
        );
      })}
      <Text size="xs" c="dimmed">
        {t('eventsScreen.distinct', { count: format(property.distinct) })}
      </Text>
    </Stack>
  );
}

function TopProperties({ properties, sampled }: { properties: EventProperty[]; sampled: number }) {
  const { t, lang } = useT();
  const [chosen, setChosen] = useState<string | null>(null);
  if (properties.length === 0) return <EmptyBlock icon={<IconListDetails size={24} />} title={t('eventsScreen.noProperties')} />;
  const property = properties.find((p) => p.name === chosen) ?? properties[0];
  if (!property) return null;
  return (
    <Stack gap="sm">
      <Select
        label={t('eventsScreen.property')}
        data={properties.map((p) => ({ value: p.name, label: truncateLabel(p.name) }))}
        value={property.name}
        onChange={setChosen}
        allowDeselect={false}
        searchable
      />
      <PropertyValues property={property} sampled={sampled} />
      <Text size="xs" c="dimmed">
        {t('eventsScreen.sampled', { count: metricFormatter(lang, 'events')(sampled) })}
      </Text>
    </Stack>
  );
}

export function EventDetail({ appId, name, label, range }: { appId: string; name: string; label: string; range: DateRange }) {
  const { t } = useT();
  const trend = useAppRangeQuery('eventTrend', appId, { name, startDay: range.startDay, endDay: range.endDay, timeGroup: range.timeGroup });
  const properties = useAppRangeQuery('eventProperties', appId, { name, startDay: range.startDay, endDay: range.endDay });
  return (
    <Grid gap="md" data-testid="event-detail">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Paper withBorder p="md" h="100%">
          <Group justify="space-between" mb="sm" wrap="nowrap">
            <Title order={2} fz="md" lineClamp={1} title={label}>
              {t('eventsScreen.trendOf', { event: truncateLabel(label) })}
            </Title>
            <Group gap="sm" wrap="nowrap">
              <Refreshing active={trend.state === 'loading' && trend.data !== undefined} />
              <Button component={Link} to={`/behavior/explore?event=${encodeURIComponent(name)}`} size="xs" variant="light" leftSection={<IconChartLine size={14} />}>
                {t('eventsScreen.exploreIt')}
              </Button>
            </Group>
          </Group>
          <DataState query={trend} rows={5}>
            {(data) => <TrendChart buckets={data.buckets} events={data.events} people={data.people} />}
          </DataState>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Paper withBorder p="md" h="100%">
          <Title order={2} fz="md" mb="sm">
            {t('eventsScreen.properties')}
          </Title>
          <DataState query={properties} rows={5}>
            {(data) => <TopProperties key={name} properties={data.properties} sampled={data.sampled} />}
          </DataState>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
