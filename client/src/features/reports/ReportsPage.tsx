/**
 * /main/reports: the current app's scheduled reports (endpoints/reports.ts) with their schedule,
 * delivery, next run (in the app's time zone) and last run (status, rows, download); a report's
 * runs in a dialog. The route key shows them; `api:reports.edit` creates, edits, deletes and runs
 * now. While a run is processing the list refreshes every few seconds (usePolling), so "Run now"
 * turns into ready, warning or error without a reload.
 */
import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Group, Modal, Table, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconFileAnalytics, IconHistory, IconMail, IconPlayerPlay, IconPlus, IconServer } from '@tabler/icons-react';
import { endpointRoutes, fillPath } from '@gd/shared/endpointRoutes';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Report, ReportRun } from '@gd/shared/schemas/reports';
import { localeFor } from '@gd/shared/language';
import { api, apiBaseUrl } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { usePolling } from '../../state/usePolling.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { ReportDialog } from './ReportDialog.tsx';
import { formatSize, scheduleText, valuesFromUrl, type ReportFormValues } from './reportForm.ts';

type Dialog = { kind: 'add'; preset?: Partial<ReportFormValues> } | { kind: 'edit' | 'delete' | 'runs'; report: Report } | null;
const STATUS_COLOR = { ready: 'teal', processing: 'blue', warning: 'orange', error: 'red' } as const;
const NOWRAP = { whiteSpace: 'nowrap' } as const;
/** A badge keeps its whole word however narrow the cell. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

const downloadUrl = (appId: string, run: ReportRun) =>
  `${apiBaseUrl()}${fillPath(endpointRoutes.downloadReportRun.path, { appId, reportId: run.reportId, runId: run.id })}`;

/** A date and time in the app's time zone; `short` leaves the year out (the next run is always near). */
function zoned(iso: string, timeZone: string, lang: 'en' | 'es' | 'to', short = false): string {
  const options: Intl.DateTimeFormatOptions = short
    ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }
    : { dateStyle: 'medium', timeStyle: 'short', timeZone };
  return new Intl.DateTimeFormat(localeFor(lang), options).format(new Date(iso));
}

export default function ReportsPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.reports')} descriptionNoApp={t('reports.descriptionNoApp')}>
      {(app) => <Reports app={app} />}
    </AppScreen>
  );
}

function RunStatus({ run }: { run: ReportRun }) {
  const { t } = useT();
  const note = run.status === 'processing' && run.lastError ? t('reports.retrying', { reason: run.lastError }) : (run.errorMessage ?? run.warning);
  const retrying = run.status === 'processing' && run.lastError !== null;
  const badge = (
    <Badge variant="light" color={retrying ? 'orange' : STATUS_COLOR[run.status]} tt="none" style={WHOLE} data-testid="run-status">
      {retrying ? t('reports.retryingBadge') : t(`reports.status.${run.status}`)}
    </Badge>
  );
  return note ? <Tooltip label={note} multiline maw={360} withArrow>{badge}</Tooltip> : badge;
}

function DownloadLink({ appId, run, compact }: { appId: string; run: ReportRun; compact?: boolean }) {
  const { t } = useT();
  if (run.status === 'processing' || run.byteSize === null) return null;
  if (compact) {
    return (
      <Tooltip label={`${t('reports.download')} ${run.fileName ?? ''}`} withArrow>
        <ActionIcon component="a" href={downloadUrl(appId, run)} download={run.fileName ?? undefined} variant="subtle" size={26} aria-label={t('reports.download')} data-testid="run-download">
          <IconDownload size={16} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Anchor href={downloadUrl(appId, run)} download={run.fileName ?? undefined} size="sm" data-testid="run-download">
      <Group gap={4} wrap="nowrap"><IconDownload size={14} />{t('reports.download')}</Group>
    </Anchor>
  );
}

function Reports({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('route:/main/reports');
  const canEdit = can('api:reports.edit');
  const reports = useApiQuery('listReports', { params: { appId: app.id }, scope: 'app', enabled: canView });
  // Another screen may hand over a kind and query (?kind=funnel&query=...): the new-report dialog opens with them.
  const [dialog, setDialog] = useState<Dialog>(() => {
    const preset = valuesFromUrl(window.location.search);
    return preset.kind && canEdit ? { kind: 'add', preset } : null;
  });
  const [running, setRunning] = useState<string | null>(null);
  const busy = (reports.data?.reports ?? []).some((r) => r.lastRun?.status === 'processing');
  usePolling(reports.refetch, busy ? 2000 : null);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="new-report">
      {t('reports.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.reports')} description={t('reports.description')} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('reports.noView')} />
      </>
    );
  }

  const runNow = async (report: Report) => {
    setRunning(report.id);
    try {
      await api.call('runReportNow', { params: { appId: app.id, reportId: report.id } });
      notifySuccess(t('reports.runQueued', { name: report.name }));
      reports.refetch();
    } catch (error) {
      notifyError(t, error);
    } finally {
      setRunning(null);
    }
  };

  return (
    <>
      {header}
      <DataState query={reports}>
        {({ reports: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconFileAnalytics size={28} />} title={t('reports.emptyTitle')} description={t('reports.emptyBody')} action={addButton} />}
            label={t('nav.reports')}
            minWidth={900}
            head={
              <>
                <Table.Th>{t('reports.col.name')}</Table.Th>
                <Table.Th>{t('reports.col.schedule')}</Table.Th>
                {/* The delivery only where there is room (laptops keep every other column in view). */}
                <Table.Th visibleFrom="xl">{t('reports.col.target')}</Table.Th>
                <Table.Th>{t('reports.col.nextRun')}</Table.Th>
                <Table.Th>{t('reports.col.lastRun')}</Table.Th>
                <Table.Th ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((report) => (
              <Table.Tr key={report.id} data-testid="report-row" data-report-id={report.id}>
                <Table.Td maw={230}>
                  <Text size="sm" fw={600} truncate="end" title={report.name}>{report.name}</Text>
                  <Text size="xs" c="dimmed" truncate="end">{t(`reports.kind.${report.kind}`)} · {t(`reports.range.${report.range}`)} · {report.format.toUpperCase()}</Text>
                </Table.Td>
                <Table.Td w={190} style={{ whiteSpace: 'normal' }}>
                  <Text size="sm">{scheduleText(report.schedule, t)}</Text>
                </Table.Td>
                <Table.Td maw={190} visibleFrom="xl">
                  <Group gap={6} wrap="nowrap" data-testid="report-target">
                    {report.target.type === 'email' ? <IconMail size={16} style={{ flexShrink: 0 }} /> : <IconServer size={16} style={{ flexShrink: 0 }} />}
                    <Text size="sm" truncate="end" title={report.target.type === 'email' ? report.target.recipients.join(', ') : `${report.target.host}:${report.target.port}${report.target.path}`}>
                      {report.target.type === 'email'
                        ? `${report.target.recipients[0] ?? ''}${report.target.recipients.length > 1 ? ` +${report.target.recipients.length - 1}` : ''}`
                        : t('reports.targetText.sftp', { host: report.target.host })}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td style={NOWRAP}>
                  {report.nextRunAt
                    ? <Text size="sm" title={t('reports.inZone', { zone: report.timezone })} data-testid="report-next-run">{zoned(report.nextRunAt, report.timezone, lang, true)}</Text>
                    : <Badge variant="light" color="gray" tt="none" style={WHOLE}>{t('reports.paused')}</Badge>}
                </Table.Td>
                <Table.Td style={NOWRAP}>
                  {report.lastRun
                    ? (
                        <Group gap="xs" wrap="nowrap">
                          <RunStatus run={report.lastRun} />
                          {report.lastRun.rowCount !== null && report.lastRun.status !== 'processing' && (
                            <Text size="xs" c="dimmed" data-testid="run-rows">{t('reports.rowCount', { rows: report.lastRun.rowCount.toLocaleString(localeFor(lang)) })}</Text>
                          )}
                          <DownloadLink appId={app.id} run={report.lastRun} compact />
                        </Group>
                      )
                    : <Text size="sm" c="dimmed">{t('reports.never')}</Text>}
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    before={
                      <>
                        <GatedIcon allowed={canEdit} label={t('reports.runNow')} variant="default" size={26} mr={4} loading={running === report.id} onClick={() => void runNow(report)} data-testid="report-run-now">
                          <IconPlayerPlay size={14} />
                        </GatedIcon>
                        <GatedIcon allowed label={t('reports.runs')} onClick={() => setDialog({ kind: 'runs', report })} data-testid="report-runs">
                          <IconHistory size={16} />
                        </GatedIcon>
                      </>
                    }
                    edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', report }) }}
                    remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', report }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ReportDialog
          appId={app.id}
          timeZone={app.timezone}
          report={dialog.kind === 'edit' ? dialog.report : undefined}
          preset={dialog.kind === 'add' ? dialog.preset : undefined}
          canSeeProviders={can({ and: ['route:/manage/mail-providers', 'ui:mailProviders.view'] })}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            notifySuccess(dialog.kind === 'add' ? t('reports.created', { name: saved.name }) : t('common.saved'));
            setDialog(null);
            reports.refetch();
          }}
        />
      )}
      {dialog?.kind === 'runs' && <RunsDialog appId={app.id} report={dialog.report} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('reports.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('reports.deleteBody', { name: dialog.report.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteReport', { params: { appId: app.id, reportId: dialog.report.id } });
          notifySuccess(t('reports.deleted', { name: dialog.report.name }));
          reports.refetch();
        }}
      />
    </>
  );
}

/** A report's runs, newest first: when, which days, status, rows, size and the file. */
function RunsDialog({ appId, report, onClose }: { appId: string; report: Report; onClose: () => void }) {
  const { t, lang } = useT();
  const runs = useApiQuery('listReportRuns', { params: { appId, reportId: report.id }, scope: 'app' });
  usePolling(runs.refetch, (runs.data?.runs ?? []).some((r) => r.status === 'processing') ? 2000 : null);
  return (
    <Modal opened onClose={onClose} size="xl" title={<Text fw={600}>{t('reports.runsTitle', { name: report.name })}</Text>}>
      <DataState query={runs}>
        {({ runs: list }) => (list.length === 0
          ? <Text size="sm" c="dimmed" py="md" ta="center">{t('reports.runsEmpty')}</Text>
          : (
              <Table.ScrollContainer minWidth={720}>
                <Table verticalSpacing="xs" data-testid="report-runs-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('reports.col.created')}</Table.Th>
                      <Table.Th>{t('reports.col.trigger')}</Table.Th>
                      <Table.Th>{t('reports.col.days')}</Table.Th>
                      <Table.Th>{t('reports.col.status')}</Table.Th>
                      <Table.Th ta="right">{t('reports.col.rows')}</Table.Th>
                      <Table.Th ta="right">{t('reports.col.size')}</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((run) => (
                      <Table.Tr key={run.id} data-testid="run-row">
                        <Table.Td style={NOWRAP}><Text size="sm">{zoned(run.createdAt, report.timezone, lang)}</Text></Table.Td>
                        <Table.Td><Text size="sm">{t(`reports.trigger.${run.trigger}`)}</Text></Table.Td>
                        <Table.Td style={NOWRAP}><Text size="sm">{run.startDay === run.endDay ? run.startDay : `${run.startDay} – ${run.endDay}`}</Text></Table.Td>
                        <Table.Td><RunStatus run={run} /></Table.Td>
                        <Table.Td ta="right"><Text size="sm">{run.rowCount?.toLocaleString(localeFor(lang)) ?? ''}</Text></Table.Td>
                        <Table.Td ta="right" style={NOWRAP}><Text size="sm">{formatSize(run.byteSize)}</Text></Table.Td>
                        <Table.Td><DownloadLink appId={appId} run={run} /></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            ))}
      </DataState>
    </Modal>
  );
}
