/** Create a dashboard or change one's name and window type; the API's refusal (a name in use) shows on the field. */
import { useState } from 'react';
import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DashboardCreate, type DashboardSummary } from '@gd/shared/schemas/dashboards';
import { NAME_MAX } from '@gd/shared/schemas/common';
import type { DashboardWindow } from '@gd/shared/dashboard/model';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

const WINDOWS: DashboardWindow[] = ['day', 'week', 'month'];

export function DashboardDialog({ dashboard, onSubmit, onClose }: {
  dashboard?: DashboardSummary;
  onSubmit: (values: { name: string; window: DashboardWindow }) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { name: dashboard?.name ?? '', window: dashboard?.window ?? 'week' }, validate: schemaValidator(DashboardCreate, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({ name: values.name.trim(), window: values.window });
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'window']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal title={dashboard ? t('dashboards.editTitle') : t('dashboards.newTitle')} failure={failure} submitLabel={dashboard ? t('common.save') : t('dashboards.new')} submitting={form.submitting} submitTestId="dashboard-submit" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('fields.name')} data-autofocus maxLength={NAME_MAX} data-testid="dashboard-name" {...form.getInputProps('name')} />
      <Stack gap={4}>
        <Text size="sm" fw={500}>{t('dashboards.windowLabel')}</Text>
        <SegmentedControl fullWidth data={WINDOWS.map((w) => ({ value: w, label: t(`dashboards.window.${w}`) }))} {...form.getInputProps('window')} />
        <Text size="xs" c="dimmed">{t(`dashboards.windowHint.${form.values.window}`)}</Text>
      </Stack>
    </FormModal>
  );
}
