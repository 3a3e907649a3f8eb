/**
 * /manage/import-task: the app's import tasks (status badges, a live progress bar polled while
 * one runs, the failure's name and line), create, edit, run again and delete them with
 * ui:importTask.create/edit/delete, and the audience exports with their statuses below.
 */
import { useState } from 'react';
import { Table } from '@mantine/core';
import { IconDatabaseImport, IconPlus } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { ImportTask } from '@gd/shared/schemas/imports';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { ExportsTable } from './ExportsTable.tsx';
import { usePolling } from '../../state/usePolling.ts';
import { ImportDialog } from './ImportDialog.tsx';
import { ImportRow } from './ImportRow.tsx';
import { taskProgress } from './progress.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; task: ImportTask } | null;

export default function ImportTasksPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.importTask')} descriptionNoApp={t('imports.descriptionNoApp')}>{(app) => <ImportTasks app={app} />}</AppScreen>;
}

function ImportTasks({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canView = can('route:/manage/import-task');
  const abilities = { create: can('ui:importTask.create'), edit: can('ui:importTask.edit'), delete: can('ui:importTask.delete') };
  const tasks = useApiQuery('listImportTasks', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const audiences = useApiQuery('listAudiences', { params: { appId: app.id }, scope: 'app', enabled: canView && can('ui:audience.view') });
  const [dialog, setDialog] = useState<Dialog>(null);
  // Poll while a task is queued or running (not while one only waits for its file).
  usePolling(tasks.refetch, tasks.data?.tasks.some((task) => ['queued', 'reading', 'resolving', 'retrying'].includes(taskProgress(task).phase)) ? 1_000 : null, tasks.state === 'loading');

  const addButton = (
    <GatedButton allowed={abilities.create} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="import-add">
      {t('imports.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.importTask')} description={t('imports.description', { app: app.name })} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('imports.noView')} />
      </>
    );
  }

  const retry = async (task: ImportTask) => {
    try {
      await api.call('retryImportTask', { params: { appId: app.id, taskId: task.id } });
      notifySuccess(t('imports.retried'));
      tasks.refetch();
    } catch (error) {
      notifyError(t, error);
    }
  };

  return (
    <>
      {header}
      <DataState query={tasks}>
        {({ tasks: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconDatabaseImport size={28} />} title={t('imports.emptyTitle')} description={t('imports.emptyBody')} action={addButton} />}
            label={t('imports.listLabel')}
            minWidth={900}
            head={
              <>
                <Table.Th>{t('imports.columns.name')}</Table.Th>
                <Table.Th>{t('imports.columns.status')}</Table.Th>
                <Table.Th>{t('imports.columns.progress')}</Table.Th>
                <Table.Th>{t('imports.columns.created')}</Table.Th>
                <Table.Th w={120} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((task) => (
              <ImportRow
                key={task.id}
                task={task}
                can={abilities}
                onRetry={() => void retry(task)}
                onEdit={() => setDialog({ kind: 'edit', task })}
                onDelete={() => setDialog({ kind: 'delete', task })}
              />
            ))}
          </ListTable>
        )}
      </DataState>
      <ExportsTable appId={app.id} />
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ImportDialog
          appId={app.id}
          task={dialog.kind === 'edit' ? dialog.task : undefined}
          audiences={audiences.data?.audiences ?? []}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('imports.created') : t('common.saved'));
            setDialog(null);
            tasks.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('imports.deleteTitle')}
        message={dialog?.kind === 'delete' ? t(dialog.task.status === 'in_progress' ? 'imports.deleteRunning' : 'imports.deleteBody', { name: dialog.task.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteImportTask', { params: { appId: app.id, taskId: dialog.task.id } });
          notifySuccess(t('imports.deleted'));
          setDialog(null);
          tasks.refetch();
        }}
      />
    </>
  );
}
