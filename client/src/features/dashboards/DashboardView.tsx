/**
 * One dashboard (/main/dashboards?dashboard=<id>): its row (name, window type) from the API and
 * its layout from the co-edited document, opened through the sync layer (browser copy first, so
 * it opens offline), with who else is here, the sync status, undo of this person's moves, the
 * window switch (changes the row: everyone's window changes) and "Add widget". Read-only when the
 * document token says so (a colleague's dashboard without `ui:dashboards.edit`), or for a
 * document from a newer app version. Opening a dashboard remembers it for the browser session.
 * The document opens at once, in parallel with the row (its name follows from the ids).
 */
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Badge, Center, Group, Loader, Paper, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCloudOff, IconEye, IconLayoutDashboard, IconPlus } from '@tabler/icons-react';
import { MAX_WIDGETS, windowRanges, type DashboardWindow, type Widget } from '@gd/shared/dashboard/model';
import { docName as buildDocName } from '@gd/shared/docs/names';
import { ErrorCode } from '@gd/shared/errors';
import { localeFor } from '@gd/shared/language';
import type { MetaApp } from '@gd/shared/schemas/account';
import { ApiError, isNetworkError } from '../../api/errors.ts';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { memory, useMeta } from '../../session/store.ts';
import { todayIn } from '../../state/dateRangePresets.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { formatRange } from '../../shell/DateRangeControl.tsx';
import { CollabStatus } from '../../sync/CollabStatus.tsx';
import { useCollabDoc } from '../../sync/useCollabDoc.ts';
import { usePresence } from '../../sync/usePresence.ts';
import { useUndo } from '../../sync/useUndo.ts';
import { GatedButton } from '../../ui/Gated.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AddWidgetDialog } from './AddWidgetDialog.tsx';
import { DashboardGrid } from './DashboardGrid.tsx';
import { DASHBOARD_UNDO_ROOTS, useDashboardDoc } from './useDashboardDoc.ts';

const LIST_HREF = '?view=list';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function DashboardView({ app, dashboardId }: { app: MetaApp; dashboardId: string }) {
  const { t } = useT();
  const meta = useMeta();
  const summary = useApiQuery('getDashboard', { params: { appId: app.id, dashboardId }, scope: 'app' });
  const unreachable = summary.state === 'error' && isNetworkError(summary.error);
  const dashboard = summary.data?.dashboard;
  usePageTitle(dashboard?.name ?? t('nav.dashboards'));
  // The document's name follows from the ids: it opens (browser copy, then the sync server) while
  // the row loads, not after (the board below shares this session).
  const idOk = UUID.test(dashboardId);
  useCollabDoc(idOk ? buildDocName(meta.account.id, app.id, 'dashboard', dashboardId) : null);

  useEffect(() => {
    if (dashboard) memory.set('dashboardId', dashboard.id);
  }, [dashboard]);

  if (summary.state === 'error' && !unreachable) {
    const missing = summary.error instanceof ApiError && summary.error.code === ErrorCode.NO_PERMISSION;
    if (missing && memory.get('dashboardId') === dashboardId) memory.set('dashboardId', null);
    return <Back><ErrorBlock error={missing ? new ApiError(ErrorCode.NO_PERMISSION, t('dashboards.notFound')) : summary.error} onRetry={missing ? undefined : summary.refetch} /></Back>;
  }
  const name = dashboard?.docName ?? (unreachable && idOk ? buildDocName(meta.account.id, app.id, 'dashboard', dashboardId) : null);
  if (!name) return <Opening />;
  return <Board key={name} app={app} docName={name} dashboard={dashboard} refetch={summary.refetch} />;
}

function Back({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  return (
    <Stack gap="md">
      <Group><ActionIcon component={Link} to={LIST_HREF} variant="subtle" color="gray" aria-label={t('dashboards.all')}><IconArrowLeft size={18} /></ActionIcon><Text size="sm">{t('dashboards.all')}</Text></Group>
      <Paper withBorder p="lg">{children}</Paper>
    </Stack>
  );
}

function Opening() {
  const { t } = useT();
  return (
    <Center py={96}>
      <Stack align="center" gap="xs" role="status"><Loader /><Text size="sm" c="dimmed">{t('dashboards.opening')}</Text></Stack>
    </Center>
  );
}

type Summary = NonNullable<ReturnType<typeof useApiQuery<'getDashboard'>>['data']>['dashboard'];

function Board({ app, docName, dashboard, refetch }: { app: MetaApp; docName: string; dashboard: Summary | undefined; refetch: () => void }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const collab = useCollabDoc(docName);
  const canWrite = collab.canWrite;
  const board = useDashboardDoc(collab.doc, canWrite);
  const { peers } = usePresence(collab.awareness, collab.access === 'write');
  const undo = useUndo(collab.doc, DASHBOARD_UNDO_ROOTS, canWrite);
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'rename'; widget: Widget } | null>(null);
  const window: DashboardWindow = dashboard?.window ?? 'week';
  const today = todayIn(app.timezone);
  const ranges = useMemo(() => windowRanges(window, today), [window, today]);
  const mayEditRow = dashboard !== undefined && can('ui:dashboards.edit', { ownerId: dashboard.createdBy });

  const changeWindow = async (next: DashboardWindow) => {
    if (!dashboard || next === window) return;
    try {
      await api.call('updateDashboard', { params: { appId: app.id, dashboardId: dashboard.id }, body: { window: next } });
      refetch();
    } catch (error) {
      notifyError(t, error);
    }
  };

  if (collab.error) {
    const message = t('dashboards.refused', { reason: collab.error.kind === 'rejected_again' ? 'rejected' : collab.error.reason });
    return <Back><ErrorBlock error={new ApiError(ErrorCode.GENERIC, message)} onRetry={collab.retry} /></Back>;
  }
  if (!collab.ready) {
    if (collab.status !== 'offline') return <Opening />;
    return (
      <Back>
        <Stack align="center" gap="xs" data-testid="no-offline-copy">
          <IconCloudOff size={32} color="var(--mantine-color-orange-6)" aria-hidden />
          <Text ta="center">{t('dashboards.noOfflineCopy')}</Text>
        </Stack>
      </Back>
    );
  }

  const locale = localeFor(lang);
  const full = board.widgets.length >= MAX_WIDGETS;
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" px="md" py="xs">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 320px' }}>
            <Tooltip label={t('dashboards.all')} withArrow>
              <ActionIcon component={Link} to={LIST_HREF} variant="subtle" color="gray" size="lg" aria-label={t('dashboards.all')}><IconArrowLeft size={18} /></ActionIcon>
            </Tooltip>
            <Stack gap={0} miw={0} style={{ flex: 1 }}>
              <Group gap={6} wrap="nowrap" miw={0}>
                <Title order={1} fz={20} lineClamp={1} data-testid="dashboard-name" title={dashboard?.name}>{dashboard?.name ?? '…'}</Title>
                {!canWrite && (
                  <Tooltip label={t('dashboards.readOnlyHint')} withArrow>
                    <Badge color="gray" variant="outline" tt="none" radius="sm" leftSection={<IconEye size={12} />} tabIndex={0} data-testid="read-only" style={{ flexShrink: 0 }}>{t('dashboards.readOnly')}</Badge>
                  </Tooltip>
                )}
              </Group>
              <Text size="xs" c="dimmed" data-testid="dashboard-range">
                {t('dashboards.rangeNote', { range: formatRange(ranges.current, locale), previous: formatRange(ranges.previous, locale) })}
              </Text>
            </Stack>
          </Group>
          <Group gap="sm" wrap="wrap">
            <Tooltip label={t(`dashboards.windowHint.${window}`)} withArrow>
              <SegmentedControl
                size="xs"
                aria-label={t('dashboards.windowLabel')}
                value={window}
                disabled={!mayEditRow}
                onChange={(v) => void changeWindow(v)}
                data={(['day', 'week', 'month'] as const).map((w) => ({ value: w, label: t(`dashboards.window.${w}`) }))}
                data-testid="dashboard-window"
              />
            </Tooltip>
            <CollabStatus
              peers={peers} status={collab.status} unsynced={collab.unsynced} readOnly={!canWrite} undo={undo}
              labels={{ undo: t('dashboards.undo'), undoHint: t('dashboards.undoHint'), redo: t('dashboards.redo'), redoHint: t('dashboards.redoHint') }}
            />
            <GatedButton allowed={canWrite && !full} reason={full ? t('dashboards.full', { max: MAX_WIDGETS }) : undefined} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="add-widget">
              {t('dashboards.addWidget')}
            </GatedButton>
          </Group>
        </Group>
      </Paper>

      {board.widgets.length === 0 ? (
        <Paper withBorder>
          <EmptyBlock icon={<IconLayoutDashboard size={28} />} title={t('dashboards.widgetsEmptyTitle')} description={t('dashboards.widgetsEmptyBody')} />
        </Paper>
      ) : (
        <DashboardGrid
          widgets={board.widgets}
          appId={app.id}
          ranges={ranges}
          canEdit={canWrite}
          onMove={board.move}
          onRename={(widget) => setDialog({ kind: 'rename', widget })}
          onRemove={(widget) => { board.remove(widget.id); notifySuccess(t('dashboards.widget.removed')); }}
        />
      )}

      {dialog?.kind === 'add' && (
        <AddWidgetDialog appId={app.id} range={ranges.current} onClose={() => setDialog(null)} onAdd={(widget) => { board.add(widget); setDialog(null); }} />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('dashboards.widget.renameTitle')}
          submitLabel={t('common.save')}
          initialName={dialog.widget.title}
          onClose={() => setDialog(null)}
          onSubmit={(title) => { board.rename(dialog.widget.id, title); setDialog(null); return Promise.resolve(); }}
        />
      )}
    </Stack>
  );
}
