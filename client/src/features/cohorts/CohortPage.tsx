/**
 * /behavior/cohort: retention. The query lives in the URL (cohortState.ts) next to the shell's range
 * parameters; the range picks the cohorts (whole days, weeks or months overlapping it). Shows the
 * size-weighted retention curve and the triangle (entities/cohort), with a breakdown segment picker;
 * a cell opens "save as audience" for the people in it (ui:audience.create). Opened without a start
 * event it picks the app's most frequent event of the range, as explore does.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconMoodEmpty, IconUsersGroup } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { CohortAnswer } from '@gd/shared/schemas/cohorts';
import { api } from '../../api/client.ts';
import { RetentionCurve, RetentionTable, cohortLabel, periodLabel, segmentLabel, type CellPick } from '../../entities/cohort/RetentionTable.tsx';
import { useCohort } from '../../entities/cohort/useCohort.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { keepRangeParams } from '../../state/dateRangeUrl.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { AddToDashboard } from '../../entities/dashboard/AddToDashboard.tsx';
import { ScheduleReportLink } from '../../entities/report/ScheduleReportLink.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { CohortControls, eventName } from './CohortControls.tsx';
import { cohortQuery, readCohortState, writeCohortState, type CohortState } from '../../entities/cohort/cohortState.ts';

export default function CohortPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.cohort')} descriptionNoApp={t('cohorts.descriptionNoApp')}>{(app) => <Cohorts app={app} />}</AppScreen>;
}

/** The most frequent visible event of the range (how the page opens without a start event). */
function mostFrequent(events: readonly { name: string; events: number; hidden: boolean }[]): string | null {
  let best: { name: string; events: number } | null = null;
  for (const e of events) if (!e.hidden && e.events > 0 && (!best || e.events > best.events || (e.events === best.events && e.name < best.name))) best = e;
  return best?.name ?? null;
}

function Cohorts({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readCohortState(params), [params]);
  const range = useDateRange((s) => s.range);
  const catalogue = useApiQuery('listEventDefinitions', { params: { appId: app.id }, scope: 'app' });
  const query = cohortQuery(state, range);
  const result = useCohort(app.id, query);
  const [kept, setKept] = useState<CohortAnswer | undefined>(undefined);
  if (result.data !== undefined && result.data !== kept) setKept(result.data);
  const shown = result.data ?? (result.state === 'loading' ? kept : undefined);
  const refreshing = useDelayedFlag(result.state === 'loading' && shown !== undefined);

  const update = (change: Partial<CohortState>) => {
    const current = new URLSearchParams(window.location.search);
    setParams(keepRangeParams(writeCohortState({ ...readCohortState(current), ...change }), current), { replace: true });
  };
  const frequent = useApiQuery('listEvents', { params: { appId: app.id }, query: { startDay: range.startDay, endDay: range.endDay, people: false }, scope: 'app', range: true, enabled: state.start === null });
  const opening = state.start === null && frequent.data ? mostFrequent(frequent.data.events) : null;
  useEffect(() => {
    if (!opening) return;
    const current = new URLSearchParams(window.location.search);
    const now = readCohortState(current);
    setParams(keepRangeParams(writeCohortState({ ...now, start: now.start ?? opening }), current), { replace: true });
  }, [opening, setParams]);

  const custom = catalogue.data?.custom ?? [];
  const label = (name: string) => eventName(t, name, custom.find((d) => d.name === name)?.label);

  return (
    <>
      <PageHeader title={t('nav.cohort')} description={t('cohorts.description')} />
      <Stack gap="md">
        <DataState query={catalogue} rows={2}>
          {({ builtIn }) => <CohortControls state={state} onChange={update} custom={custom} builtIn={builtIn} />}
        </DataState>
        {query === null ? (
          state.start === null && frequent.data === undefined ? (
            <DataState query={frequent} rows={6}>{() => null}</DataState>
          ) : (
            <Paper withBorder>
              <EmptyBlock icon={<IconUsersGroup size={28} />} title={t('cohorts.chooseTitle')} description={t('cohorts.chooseBody')} />
            </Paper>
          )
        ) : (
          <DataState query={{ ...result, data: shown, state: shown !== undefined ? 'loaded' : result.state }} rows={8}>
            {(answer) => (
              <CohortResult answer={answer} appId={app.id} timezone={app.timezone} state={state} onSegment={(segment) => update({ segment })}
                startLabel={label(query.start.event)} refreshing={refreshing} />
            )}
          </DataState>
        )}
      </Stack>
    </>
  );
}

function CohortResult({ answer, appId, timezone, state, onSegment, startLabel, refreshing }: {
  answer: CohortAnswer; appId: string; timezone: string; state: CohortState; onSegment: (key: string | null) => void; startLabel: string; refreshing: boolean;
}) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const [pick, setPick] = useState<CellPick | null>(null);
  const segment = answer.segments?.find((s) => s.key === state.segment) ?? null;
  const rows = segment?.rows ?? answer.rows;
  const curve = segment?.curve ?? answer.curve;
  const query = cohortQuery(state, answer.range);
  if (answer.size === 0) {
    return (
      <Paper withBorder>
        <EmptyBlock icon={<IconMoodEmpty size={28} />} title={t('cohorts.emptyTitle')} description={t('cohorts.emptyBody', { event: startLabel })} />
      </Paper>
    );
  }
  const canSave = can('ui:audience.create') && segment === null;
  return (
    <>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs" wrap="wrap" gap="sm">
          <Title order={2} fz="md">{t('cohorts.curve')}</Title>
          <Group gap="sm" wrap="wrap" justify="flex-end">
            {refreshing && <Text size="xs" c="dimmed" role="status">{t('analytics.refreshing')}</Text>}
            {query && <ScheduleReportLink kind="cohort" query={query} />}
            {query && <AddToDashboard widget={{ kind: 'cohort', title: `${t('nav.cohort')}: ${startLabel}`, query }} />}
          </Group>
        </Group>
        <RetentionCurve answer={answer} />
        <Text size="xs" c="dimmed" mt="xs">{t('cohorts.curveHint')}</Text>
      </Paper>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
          <Title order={2} fz="md">{t('cohorts.table')}</Title>
          {answer.segments && (
            <Select
              size="xs" w={240} aria-label={t('cohorts.segment')} allowDeselect={false} value={segment?.key ?? '__all__'}
              data={[{ value: '__all__', label: t('cohorts.allPeople') }, ...answer.segments.map((s) => ({ value: s.key, label: `${segmentLabel(t, s.key)} (${s.size.toLocaleString()})` }))]}
              onChange={(v) => onSegment(v && v !== '__all__' ? v : null)}
            />
          )}
        </Group>
        <RetentionTable answer={answer} rows={rows} curve={curve} onCell={canSave ? setPick : undefined} />
        <Text size="xs" c="dimmed" mt="xs">
          {t('cohorts.incompleteNote', { zone: timezone })} {canSave ? t('cohorts.cellHint') : ''}
        </Text>
      </Paper>
      {pick && query && (
        <NameDialog
          title={t('cohorts.saveTitle')}
          hint={t('cohorts.saveBody', { count: pick.count, cohort: cohortLabel(pick.cohort, answer.period, lang), period: periodLabel(t, answer.period, pick.period) })}
          submitLabel={t('cohorts.save')}
          initialName={t('cohorts.audienceDefault', { cohort: cohortLabel(pick.cohort, answer.period, lang), period: periodLabel(t, answer.period, pick.period) })}
          onClose={() => setPick(null)}
          onSubmit={async (name) => {
            const { audience } = await api.call('saveCohortAudience', { params: { appId }, body: { name, query, cohort: pick.cohort, period: pick.period } });
            setPick(null);
            notifySuccess(t('cohorts.saved', { name: audience.name, count: audience.personCount ?? pick.count }));
          }}
        />
      )}
    </>
  );
}
