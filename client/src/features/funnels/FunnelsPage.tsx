/**
 * /behavior/funnels: build a funnel (FunnelBuilder), see its answer over the shell's date range
 * (FunnelResult), and open the people who converted or dropped at a step (DrillDown) to save them
 * as an audience. The funnel lives in the URL (funnelState.ts) next to the shell's range
 * parameters, so it can be linked and reloaded; answers are cached per app and query
 * (entities/funnel/useFunnel.ts) and the last one stays on screen while a change loads.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChartFunnel } from '@tabler/icons-react';
import { builtInEventKey } from '@gd/shared/behaviour/events';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useFunnel } from '../../entities/funnel/useFunnel.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { keepRangeParams } from '../../state/dateRangeUrl.ts';
import { DataState } from '../../ui/DataState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { AddToDashboard } from '../../entities/dashboard/AddToDashboard.tsx';
import { ScheduleReportLink } from '../../entities/report/ScheduleReportLink.tsx';
import { DrillDown } from './DrillDown.tsx';
import { FunnelBuilder } from './FunnelBuilder.tsx';
import { FunnelResult, type DrillTarget } from './FunnelResult.tsx';
import { funnelQuery, readFunnelState, writeFunnelState, type FunnelState } from '../../entities/funnel/funnelState.ts';

export default function FunnelsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.funnels')} descriptionNoApp={t('funnels.descriptionNoApp')}>{(app) => <Funnels app={app} />}</AppScreen>;
}

function Funnels({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readFunnelState(params), [params]);
  const range = useDateRange((s) => s.range);
  const catalogue = useApiQuery('listEventDefinitions', { params: { appId: app.id }, scope: 'app' });
  const query = funnelQuery(state, range);
  const result = useFunnel(app.id, query);
  const [drill, setDrill] = useState<{ target: DrillTarget; query: NonNullable<typeof query> } | null>(null);
  const refreshing = useDelayedFlag(result.state === 'loading' && result.data !== undefined);
  // From the address as it is now (the shell writes the range into it too).
  const update = (change: (current: FunnelState) => FunnelState) => {
    const current = new URLSearchParams(window.location.search);
    setParams(keepRangeParams(writeFunnelState(change(readFunnelState(current))), current), { replace: true });
  };
  const custom = catalogue.data?.custom ?? [];
  const labelOf = (event: string) => {
    const key = builtInEventKey(event);
    if (key) return t(`builtInEvent.${key}`);
    return custom.find((d) => d.name === event)?.label?.trim() || event;
  };

  return (
    <>
      <PageHeader title={t('nav.funnels')} description={t('funnels.description')} />
      <Stack gap="md">
        <DataState query={catalogue} rows={3}>
          {({ builtIn }) => <FunnelBuilder state={state} onChange={update} custom={custom} builtIn={builtIn} />}
        </DataState>
        {query === null ? (
          <Paper withBorder>
            <EmptyBlock icon={<IconChartFunnel size={28} />} title={t('funnels.chooseTitle')} description={t('funnels.chooseBody')} />
          </Paper>
        ) : (
          <DataState query={result} rows={6}>
            {(answer) => (
              <Stack gap="xs">
                <Group justify="space-between" wrap="wrap" gap="sm">
                  <Title order={2} fz="md" lineClamp={1}>
                    {answer.steps.map(labelOf).join(' → ')}
                  </Title>
                  <Group gap="sm" wrap="wrap" justify="flex-end">
                    {refreshing && (
                      <Group gap={6} role="status" aria-live="polite" wrap="nowrap">
                        <Loader size={14} />
                        <Text size="xs" c="dimmed">
                          {t('funnels.updating')}
                        </Text>
                      </Group>
                    )}
                    <ScheduleReportLink kind="funnel" query={query} />
                    <AddToDashboard widget={{ kind: 'funnel', title: answer.steps.map(labelOf).join(' → '), query }} />
                  </Group>
                </Group>
                <FunnelResult answer={answer} labels={answer.steps.map(labelOf)} timezone={app.timezone} onDrill={(target) => setDrill({ target, query })} />
              </Stack>
            )}
          </DataState>
        )}
      </Stack>
      {drill && <DrillDown appId={app.id} query={drill.query} target={drill.target} labels={drill.query.steps.map((s) => labelOf(s.event))} onClose={() => setDrill(null)} />}
    </>
  );
}
