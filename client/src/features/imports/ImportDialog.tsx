/**
 * Create or edit an import task: name, target audience (new, or an existing non-segment one), the
 * source type and its fields (SourceFields). A CSV file is uploaded after the task is created,
 * with its progress shown; the task waits for it (awaitUpload) and runs once it has arrived.
 */
import { useMemo, useState } from 'react';
import { Button, Checkbox, Group, Input, Modal, Progress, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { addDays } from '@gd/shared/dateRange';
import { ImportSourceInput, ImportTaskType, type ImportTask, type S3Integration } from '@gd/shared/schemas/imports';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { hasKey } from '../../i18n/i18n.ts';
import type { TKey } from '../../i18n/keys.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { FORM_FIELDS, emptyValues, fieldOf, sourceOf, takesFile, valuesOf, type FormValues } from './formModel.ts';
import { SourceFields } from './SourceFields.tsx';
import { StorageDialog } from './StorageDialog.tsx';
import { uploadImportFile } from './uploadFile.ts';

const Checked = z.object({ name: z.string().trim().min(1).max(120), source: ImportSourceInput });

export interface ImportDialogProps {
  appId: string;
  /** Editing this task; creating when absent. */
  task?: ImportTask | undefined;
  audiences: readonly AudienceSummary[];
  onClose: () => void;
  onSaved: (task: ImportTask, uploaded: boolean) => void;
}

export function ImportDialog({ appId, task, audiences, onClose, onSaved }: ImportDialogProps) {
  const { t } = useT();
  const can = usePermissions('app');
  const today = new Date().toISOString().slice(0, 10);
  const [file, setFile] = useState<File | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [storageOpen, setStorageOpen] = useState(false);
  const [addedStorage, setAddedStorage] = useState<S3Integration[]>([]);
  const form = useForm<FormValues>({
    initialValues: task ? valuesOf(task, today, addDays(today, -6)) : emptyValues(today, addDays(today, -6)),
    validate: (values) => {
      const raw = schemaValidator<FormValues>(Checked, t, { 'source.ftpHostKeyFingerprint': 'imports.hostKey.invalid' }, (v) => ({ name: v.name, source: sourceOf(v.source) }))(values);
      const errors: Record<string, string> = {};
      for (const [path, message] of Object.entries(raw)) errors[fieldOf(path)] ??= message;
      if (!task && values.target === 'existing' && !values.audienceId) errors.audienceId = t('validation.required');
      if (takesFile(values.source.type) && !file && !values.source.csvFileURL.trim() && !task?.hasUpload) errors['source.csvFileURL'] = t('imports.file.choose');
      return errors;
    },
  });
  const type = form.values.source.type;
  const integrations = useApiQuery('listStorageIntegrations', { params: { appId }, scope: 'app', enabled: type === 's3' });
  const segments = useApiQuery('listSegments', { params: { appId }, scope: 'app', enabled: type === 'segment' && can('ui:audience.view') });
  const platforms = useApiQuery('integrations', { params: { appId }, query: { kind: 'experience_platform' }, scope: 'app', enabled: type === 'adobe' && can('route:/manage/integrations') });
  const storage = useMemo(() => [...(integrations.data?.integrations ?? []), ...addedStorage.filter((a) => !integrations.data?.integrations.some((i) => i.id === a.id))], [integrations.data, addedStorage]);
  // Import into audiences that are not computed from a segment (a segment import may refill any).
  const targets = audiences.filter((a) => a.status !== 'inactive' && (type === 'segment' || a.sourceType !== 'segment'));

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const source = sourceOf(values.source);
    try {
      let saved: ImportTask;
      if (task) {
        saved = (await api.call('updateImportTask', { params: { appId, taskId: task.id }, body: { name: values.name, source } })).task;
      } else {
        saved = (await api.call('createImportTask', {
          params: { appId },
          body: { name: values.name, isTest: values.isTest, source, awaitUpload: !!file, ...(values.target === 'existing' ? { audienceId: values.audienceId } : {}) },
        })).task;
      }
      if (file && takesFile(values.source.type)) {
        setUploading(0);
        try {
          saved = (await uploadImportFile(appId, saved.id, file, setUploading)).task;
        } catch (error) {
          // The task exists: close and let the list show it waiting for its file.
          onSaved(saved, false);
          throw error;
        } finally {
          setUploading(null);
        }
      }
      onSaved(saved, !!file);
    } catch (error) {
      const mapped = error instanceof ApiError ? new ApiError(error.code, error.message, error.details.map((d) => ({ ...d, path: fieldOf(d.path) }))) : error;
      const { fieldErrors, formError } = splitFailure(mapped, t, FORM_FIELDS, (code) => (hasKey(`imports.issue.${code}`) ? t(`imports.issue.${code}` as TKey) : undefined));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <Modal opened onClose={onClose} title={task ? t('imports.editTitle') : t('imports.addTitle')} size="lg" closeOnClickOutside={uploading === null}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('imports.fields.name')} required data-autofocus {...form.getInputProps('name')} />
          {!task && (
            <Stack gap={6}>
              <Input.Label>{t('imports.target.label')}</Input.Label>
              <SegmentedControl
                fullWidth
                data={[{ value: 'new', label: t('imports.target.new') }, { value: 'existing', label: t('imports.target.existing') }]}
                {...form.getInputProps('target')}
              />
              {form.values.target === 'new' ? (
                <Group justify="space-between" gap="sm">
                  <Text size="xs" c="dimmed">{t('imports.target.newHint')}</Text>
                  <Checkbox size="xs" label={t('imports.target.isTest')} {...form.getInputProps('isTest', { type: 'checkbox' })} />
                </Group>
              ) : (
                <Select
                  aria-label={t('imports.target.pick')}
                  placeholder={t('imports.target.pick')}
                  searchable
                  data={targets.map((a) => ({ value: a.id, label: a.name }))}
                  {...form.getInputProps('audienceId')}
                />
              )}
            </Stack>
          )}
          <Select
            label={t('imports.fields.type')}
            allowDeselect={false}
            disabled={!!task}
            data={ImportTaskType.options.map((v) => ({ value: v, label: t(`imports.type.${v}`) }))}
            description={t(`imports.typeHint.${type}`)}
            {...form.getInputProps('source.type')}
          />
          <SourceFields
            form={form}
            file={file}
            onFile={setFile}
            hasUpload={task?.hasUpload ?? false}
            hasPassword={task?.hasPassword ?? false}
            integrations={storage}
            onAddStorage={() => setStorageOpen(true)}
            segments={segments.data?.segments ?? []}
            experiencePlatforms={platforms.data?.integrations ?? []}
          />
          {uploading !== null && (
            <Stack gap={4}>
              <Text size="xs" c="dimmed">{t('imports.file.uploading', { percent: uploading })}</Text>
              <Progress value={uploading} animated aria-label={t('imports.file.uploading', { percent: uploading })} />
            </Stack>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={uploading !== null}>{t('common.cancel')}</Button>
            <Button type="submit" loading={form.submitting}>{task ? t('common.save') : t('imports.add')}</Button>
          </Group>
        </Stack>
      </form>
      {storageOpen && (
        <StorageDialog
          appId={appId}
          onClose={() => setStorageOpen(false)}
          onCreated={(integration) => {
            setAddedStorage((list) => [...list, integration]);
            form.setFieldValue('source.s3IntegrationId', integration.id);
            setStorageOpen(false);
            integrations.refetch();
          }}
        />
      )}
    </Modal>
  );
}
