/**
 * One widget of a dashboard: a card whose title bar is the drag handle (when the person may
 * arrange the dashboard), its title truncated at 50 characters with the full title in a tooltip,
 * a menu to rename or remove it, and its body by kind: an explore chart (entities/explore), a KPI
 * (total and variation against the same stretch of the previous window), a funnel
 * (entities/funnel/FunnelChart) or a retention table (entities/cohort/RetentionTable). A body shows
 * its loading indicator only after 100 ms (SPEC §9, ui/useDelayedFlag.ts), its error with a retry,
 * and "no data" when the window has none. `data-drawn` marks a widget whose data is drawn (the
 * dashboard benchmark waits for it).
 */
import type { ReactNode } from 'react';
import { ActionIcon, Badge, Box, Center, Group, Loader, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconDots, IconGripVertical, IconPencil, IconTrash } from '@tabler/icons-react';
import type { Widget, WindowRanges } from '@gd/shared/dashboard/model';
import { variation } from '@gd/shared/dashboard/model';
import type { CohortQueryInput } from '@gd/shared/schemas/cohorts';
import type { FunnelQueryInput } from '@gd/shared/schemas/funnels';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import type { QueryResult } from '../../state/useApiQuery.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ErrorBlock } from '../../ui/States.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { ExploreWidget } from '../../entities/explore/ExploreWidget.tsx';
import { eventName, metricFormat, truncateLabel } from '../../entities/explore/exploreLabels.ts';
import { FunnelChart } from '../../entities/funnel/FunnelChart.tsx';
import { useFunnel } from '../../entities/funnel/useFunnel.ts';
import { RetentionTable } from '../../entities/cohort/RetentionTable.tsx';
import { useCohort } from '../../entities/cohort/useCohort.ts';
import { exploreRequest, kpiRequests, postRequest } from './widgetQueries.ts';

export const DRAG_HANDLE = 'gd-widget-handle';

export interface WidgetCardProps {
  widget: Widget;
  appId: string;
  ranges: WindowRanges;
  canEdit: boolean;
  onRename: () => void;
  onRemove: () => void;
}

export function WidgetCard({ widget, appId, ranges, canEdit, onRename, onRemove }: WidgetCardProps) {
  const { t } = useT();
  const title = truncateLabel(widget.title);
  return (
    <Paper withBorder radius="md" h="100%" data-testid="dashboard-widget" data-widget-id={widget.id} data-kind={widget.kind} style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
      <Group
        justify="space-between" wrap="nowrap" gap={4} px="sm" py={6}
        className={canEdit ? DRAG_HANDLE : undefined}
        style={{ cursor: canEdit ? 'grab' : undefined, borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      >
        <Group gap={4} wrap="nowrap" miw={0}>
          {canEdit && <IconGripVertical size={14} color="var(--mantine-color-gray-5)" aria-hidden style={{ flexShrink: 0 }} />}
          <Tooltip label={widget.title} disabled={widget.title.length <= 50} withArrow multiline maw={360}>
            <Text size="sm" fw={600} truncate data-testid="widget-title">{title}</Text>
          </Tooltip>
          <Badge size="xs" variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>{t(`dashboards.widget.kinds.${widget.kind}`)}</Badge>
        </Group>
        {canEdit && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('dashboards.widget.menu')} onMouseDown={(e) => e.stopPropagation()}>
                <IconDots size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={14} />} onClick={onRename}>{t('dashboards.widget.rename')}</Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onRemove}>{t('dashboards.widget.remove')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Box p="xs" style={{ flex: 1, minHeight: 0, overflow: 'hidden' }}>
        <WidgetBody widget={widget} appId={appId} ranges={ranges} />
      </Box>
    </Paper>
  );
}

function WidgetBody({ widget, appId, ranges }: { widget: Widget; appId: string; ranges: WindowRanges }) {
  switch (widget.kind) {
    case 'explore': return <ExploreBody query={widget.query} appId={appId} ranges={ranges} />;
    case 'kpi': return <KpiBody query={widget.query} appId={appId} ranges={ranges} />;
    case 'funnel': return <FunnelBody query={widget.query} appId={appId} ranges={ranges} />;
    case 'cohort': return <CohortBody query={widget.query} appId={appId} ranges={ranges} />;
    default: {
      const never: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(never)}`);
    }
  }
}

/** Loading (after the debounce), error, or the content once there is data. */
function Loaded<T>({ query, children }: { query: Pick<QueryResult<T>, 'data' | 'state' | 'error' | 'refetch'>; children: (data: T) => ReactNode }) {
  const waiting = useDelayedFlag(query.data === undefined && query.state === 'loading');
  if (query.data !== undefined && query.state !== 'error') return <Box h="100%" data-drawn="true">{children(query.data)}</Box>;
  if (query.state === 'error') return <Box h="100%" style={{ overflow: 'auto' }}><ErrorBlock error={query.error} onRetry={query.refetch} /></Box>;
  return <Center h="100%">{waiting && <Loader size="sm" aria-label="loading" />}</Center>;
}

function Invalid({ reason }: { reason: string }) {
  const { t } = useT();
  return <Center h="100%" data-drawn="true"><Text size="sm" c="dimmed" ta="center">{t('dashboards.widget.invalid', { reason })}</Text></Center>;
}

function NoData() {
  const { t } = useT();
  return <Center h="100%"><Text size="sm" c="dimmed">{t('dashboards.widget.noData')}</Text></Center>;
}

function ExploreBody({ query, appId, ranges }: { query: unknown; appId: string; ranges: WindowRanges }) {
  const request = exploreRequest(query, ranges);
  const result = useApiQuery('explore', { params: { appId }, query: request.ok ? request.query : {}, scope: 'app', range: true, enabled: request.ok });
  if (!request.ok) return <Invalid reason={request.reason} />;
  return <Loaded query={result}>{(answer) => (answer.series.every((s) => s.total === 0) ? <NoData /> : <ExploreWidget answer={answer} />)}</Loaded>;
}

function KpiBody({ query, appId, ranges }: { query: unknown; appId: string; ranges: WindowRanges }) {
  const { t, lang } = useT();
  const request = kpiRequests(query, ranges);
  const current = useApiQuery('explore', { params: { appId }, query: request.ok ? request.current : {}, scope: 'app', range: true, enabled: request.ok });
  const previous = useApiQuery('explore', { params: { appId }, query: request.ok ? request.previous : {}, scope: 'app', range: true, enabled: request.ok });
  if (!request.ok) return <Invalid reason={request.reason} />;
  const both = {
    data: current.data && previous.data ? { now: current.data, before: previous.data } : undefined,
    state: current.state === 'error' || previous.state === 'error' ? 'error' as const : current.state === 'loading' || previous.state === 'loading' ? 'loading' as const : 'loaded' as const,
    error: current.error ?? previous.error,
    refetch: () => { current.refetch(); previous.refetch(); },
  };
  return (
    <Loaded query={both}>
      {({ now, before }) => {
        const total = now.series[0]?.total ?? 0;
        const prior = before.series[0]?.total ?? 0;
        const change = variation(total, prior);
        const format = metricFormat(lang, now.metric, now.currency);
        const pct = new Intl.NumberFormat(localeFor(lang), { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
        const up = change !== null && change > 0;
        const down = change !== null && change < 0;
        return (
          <Stack gap={2} justify="center" h="100%" px={4} data-testid="kpi">
            <Text size="xs" c="dimmed" truncate>{truncateLabel(`${eventName(t, now.event)} · ${t(`explore.metrics.${now.metric}`)}`)}</Text>
            <Text fz={28} fw={700} lh={1.1} data-testid="kpi-total">{format(total)}</Text>
            <Group gap={4} wrap="nowrap">
              {change === null ? (
                <Text size="xs" c="dimmed">{t('dashboards.widget.noPrevious')}</Text>
              ) : (
                <>
                  {up && <IconArrowUpRight size={14} color="var(--mantine-color-teal-7)" aria-hidden />}
                  {down && <IconArrowDownRight size={14} color="var(--mantine-color-red-7)" aria-hidden />}
                  <Text size="xs" fw={600} c={up ? 'teal.7' : down ? 'red.7' : 'dimmed'} data-testid="kpi-variation">{pct.format(change)}</Text>
                  <Text size="xs" c="dimmed" truncate>{t('dashboards.widget.vsPrevious')}</Text>
                </>
              )}
            </Group>
            <Text size="xs" c="dimmed">{t('dashboards.widget.previous', { value: format(prior) })}</Text>
          </Stack>
        );
      }}
    </Loaded>
  );
}

function FunnelBody({ query, appId, ranges }: { query: unknown; appId: string; ranges: WindowRanges }) {
  const request = postRequest('funnel', query, ranges);
  const result = useFunnel(appId, request.ok ? (request.body as FunnelQueryInput) : null);
  if (!request.ok) return <Invalid reason={request.reason} />;
  return <Loaded query={result}>{(answer) => <Box h="100%" style={{ overflow: 'auto' }}><FunnelChart answer={answer} compact /></Box>}</Loaded>;
}

function CohortBody({ query, appId, ranges }: { query: unknown; appId: string; ranges: WindowRanges }) {
  const request = postRequest('cohort', query, ranges);
  const result = useCohort(appId, request.ok ? (request.body as CohortQueryInput) : null);
  if (!request.ok) return <Invalid reason={request.reason} />;
  return (
    <Loaded query={result}>
      {(answer) => (answer.rows.length === 0 ? <NoData /> : (
        <Box h="100%" style={{ overflow: 'auto' }}><RetentionTable answer={answer} rows={answer.rows} curve={answer.curve} compact /></Box>
      ))}
    </Loaded>
  );
}
