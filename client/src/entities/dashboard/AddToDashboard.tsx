/**
 * "Add to dashboard": a button and a dialog that put the query a screen shows on a dashboard of
 * the current app, an existing one or a new one named here, as a widget appended to the
 * dashboard's document (appendWidget.ts; the team sees it appear live). The query is stored
 * without its range: the dashboard's window supplies it (dashboard/model.ts `withoutRange`).
 * Hidden without `ui:dashboards.edit` (own or all) or `ui:dashboards.new`; dashboards the person
 * may not arrange are not offered.
 */
import { useState } from 'react';
import { Anchor, Button, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLayoutDashboard } from '@tabler/icons-react';
import { MAX_WIDGETS, NewWidget, WIDGET_TITLE_MAX, withoutRange } from '@gd/shared/dashboard/model';
import { NAME_MAX } from '@gd/shared/schemas/common';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { memory, useSession } from '../../session/store.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { splitFailure } from '../../ui/forms.ts';
import { AppendFailed, appendWidget } from './appendWidget.ts';

const NEW = '__new__';

export interface AddToDashboardProps {
  widget: { kind: 'explore' | 'funnel' | 'cohort' | 'kpi'; title: string; query: unknown };
}

export function AddToDashboard({ widget }: AddToDashboardProps) {
  const { t } = useT();
  const can = usePermissions('app');
  const [open, setOpen] = useState(false);
  const allowed = can({ or: ['ui:dashboards.edit', 'ui:dashboards.edit:owner', 'ui:dashboards.new'] });
  if (!allowed) return null;
  return (
    <>
      <Button size="xs" variant="default" leftSection={<IconLayoutDashboard size={14} />} onClick={() => setOpen(true)} data-testid="add-to-dashboard">
        {t('dashboards.add.button')}
      </Button>
      {open && <AddDialog widget={widget} onClose={() => setOpen(false)} />}
    </>
  );
}

function AddDialog({ widget, onClose }: AddToDashboardProps & { onClose: () => void }) {
  const { t } = useT();
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const userId = useSession((s) => s.meta?.user.id) ?? '';
  const list = useApiQuery('listDashboards', { params: { appId }, scope: 'app', enabled: appId !== '' });
  const writable = (list.data?.dashboards ?? []).filter((d) => can('ui:dashboards.edit', { ownerId: d.createdBy }));
  const mayCreate = can('ui:dashboards.new');
  const remembered = memory.get('dashboardId');
  // The remembered dashboard, else the latest one, else a new one: known once the list is here.
  const initial = list.data ? (writable.find((d) => d.id === remembered)?.id ?? writable[0]?.id ?? (mayCreate ? NEW : null)) : null;
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { dashboard: '', name: '', title: widget.title.slice(0, WIDGET_TITLE_MAX) },
    validate: {
      dashboard: (v) => (v ? null : t('dashboards.add.pick')),
      name: (v, values) => (values.dashboard === NEW && v.trim() === '' ? t('validation.required') : null),
      title: (v) => (v.trim() === '' ? t('validation.required') : null),
    },
  });
  // The list arrives after the first render: pick a default once it is there.
  if (form.values.dashboard === '' && initial) form.setFieldValue('dashboard', initial);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const parsed = NewWidget.safeParse({ kind: widget.kind, title: values.title.trim(), query: withoutRange(widget.query) });
    if (!parsed.success) {
      setFailure(parsed.error);
      return;
    }
    try {
      let target = writable.find((d) => d.id === values.dashboard);
      if (values.dashboard === NEW) {
        target = (await api.call('createDashboard', { params: { appId }, body: { name: values.name.trim() } })).dashboard;
        list.refetch();
      }
      if (!target) return;
      await appendWidget(userId, target.docName, parsed.data);
      notifySuccess(t('dashboards.add.added', { name: target.name }));
      memory.set('dashboardId', target.id);
      onClose();
    } catch (error) {
      if (error instanceof AppendFailed) {
        setFailure(new Error(error.reason === 'full' ? t('dashboards.full', { max: MAX_WIDGETS }) : t('dashboards.add.offline')));
        return;
      }
      const { fieldErrors, formError } = splitFailure(error, t, ['name']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  const options = [
    ...writable.map((d) => ({ value: d.id, label: d.name })),
    ...(mayCreate ? [{ value: NEW, label: t('dashboards.add.newOne') }] : []),
  ];
  return (
    <FormModal title={t('dashboards.add.title')} failure={failure} submitLabel={t('dashboards.add.button')} submitting={form.submitting} submitTestId="add-to-dashboard-submit" onSubmit={submit} onClose={onClose}>
      <Stack gap="sm">
        <TextInput label={t('dashboards.widget.title')} maxLength={WIDGET_TITLE_MAX} {...form.getInputProps('title')} />
        <Select
          label={t('dashboards.add.dashboard')}
          placeholder={t('dashboards.add.pick')}
          data={options}
          allowDeselect={false}
          data-testid="add-to-dashboard-pick"
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('dashboard')}
        />
        {form.values.dashboard === NEW && (
          <TextInput label={t('dashboards.add.newName')} data-autofocus maxLength={NAME_MAX} data-testid="add-to-dashboard-name" {...form.getInputProps('name')} />
        )}
        {writable.length === 0 && list.data && mayCreate && (
          <Anchor component="span" size="xs" c="dimmed">{t('dashboards.add.noDashboards')}</Anchor>
        )}
      </Stack>
    </FormModal>
  );
}
