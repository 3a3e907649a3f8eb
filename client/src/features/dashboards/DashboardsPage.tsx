/**
 * /main/dashboards: the app's dashboards, or one of them (`?dashboard=<id>`). The latest dashboard
 * opened is remembered for the browser session (SPEC §2, session/memory.ts: forgotten when the
 * build changes or another user signs in): opening /main/dashboards goes straight to it when it
 * still exists in the current app. "All dashboards" (`?view=list`) shows the list without going
 * back to it.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { IconPlus } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { memory } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { NoViewBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { DashboardDialog } from './DashboardDialog.tsx';
import { DashboardList, dashboardHref } from './DashboardList.tsx';
import { DashboardView } from './DashboardView.tsx';

export default function DashboardsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.dashboards')} descriptionNoApp={t('dashboards.descriptionNoApp')}>{(app) => <Dashboards key={app.id} app={app} />}</AppScreen>;
}

function Dashboards({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const dashboardId = params.get('dashboard');
  const listOnly = params.get('view') === 'list';
  const mayView = can('ui:dashboards.view');
  const list = useApiQuery('listDashboards', { params: { appId: app.id }, scope: 'app', enabled: mayView && dashboardId === null });
  const [creating, setCreating] = useState(false);

  // Back to the latest dashboard of this session, when it is still one of this app's.
  const remembered = memory.get('dashboardId');
  const goBack = dashboardId === null && !listOnly && remembered !== null && list.data?.dashboards.some((d) => d.id === remembered) === true;
  useEffect(() => {
    if (goBack && remembered) void navigate(dashboardHref(remembered), { replace: true });
  }, [goBack, remembered, navigate]);

  if (!mayView) {
    return (
      <>
        <PageHeader title={t('nav.dashboards')} />
        <NoViewBlock description={t('dashboards.noView')} />
      </>
    );
  }
  if (dashboardId) return <DashboardView app={app} dashboardId={dashboardId} />;

  const newAction = (
    <GatedButton allowed={can('ui:dashboards.new')} leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-dashboard">
      {t('dashboards.new')}
    </GatedButton>
  );
  return (
    <>
      <PageHeader title={t('nav.dashboards')} description={t('dashboards.description', { app: app.name })} actions={newAction} />
      {!goBack && <DashboardList appId={app.id} list={list} newAction={newAction} />}
      {creating && (
        <DashboardDialog
          onClose={() => setCreating(false)}
          onSubmit={async (values) => {
            const { dashboard } = await api.call('createDashboard', { params: { appId: app.id }, body: values });
            notifySuccess(t('dashboards.created'));
            setCreating(false);
            list.refetch();
            void navigate(dashboardHref(dashboard.id));
          }}
        />
      )}
    </>
  );
}
