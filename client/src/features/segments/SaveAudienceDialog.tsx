/**
 * "Save as audience": name, test flag and refresh period of a new audience that follows the
 * segment (POST /audiences with source segment). The server counts it at once; a refusal shows
 * in the dialog (a name in use on the name field; conditions that do not evaluate above).
 */
import { useState } from 'react';
import { Checkbox, Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NAME_MAX } from '@gd/shared/schemas/common';
import { AUDIENCE_REFRESH_MINUTES } from '@gd/shared/segment/audience';
import { AudienceCreate, type AudienceSummary } from '@gd/shared/schemas/segments';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { splitFailure } from '../../ui/forms.ts';

/** Refresh periods offered, in minutes (within AUDIENCE_REFRESH_MINUTES). */
export const REFRESH_CHOICES = [
  { minutes: 15, key: 'm15' },
  { minutes: 60, key: 'h1' },
  { minutes: 360, key: 'h6' },
  { minutes: 1440, key: 'd1' },
  { minutes: 10080, key: 'w1' },
] as const;

export function useRefreshChoices(current?: number) {
  const { t } = useT();
  const choices = REFRESH_CHOICES.filter((c) => c.minutes >= AUDIENCE_REFRESH_MINUTES.min && c.minutes <= AUDIENCE_REFRESH_MINUTES.max).map((c) => ({
    value: String(c.minutes),
    label: t(`audiences.refreshEvery.${c.key}`),
  }));
  if (current !== undefined && !choices.some((c) => c.value === String(current))) choices.push({ value: String(current), label: t('audiences.refreshEvery.custom', { minutes: current }) });
  return choices;
}

export function refreshLabel(t: ReturnType<typeof useT>['t'], minutes: number): string {
  const choice = REFRESH_CHOICES.find((c) => c.minutes === minutes);
  return choice ? t(`audiences.refreshEvery.${choice.key}`) : t('audiences.refreshEvery.custom', { minutes });
}

export interface AudienceFormValues {
  name: string;
  isTest: boolean;
  refreshEveryMinutes: number;
}

/** Name, refresh period and test flag of an audience: the dialog of "save as audience" and of an audience's settings. */
export function AudienceFormDialog({ title, intro, submitLabel, initial, onSubmit, onClose }: {
  title: string;
  intro?: string;
  submitLabel: string;
  initial: AudienceFormValues;
  /** Throws the API's refusal; a name in use shows on the name field. */
  onSubmit: (values: AudienceFormValues) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const choices = useRefreshChoices(initial.refreshEveryMinutes);
  const form = useForm({
    initialValues: { name: initial.name, isTest: initial.isTest, refreshEveryMinutes: String(initial.refreshEveryMinutes) },
    validate: { name: (v) => (v.trim() === '' ? t('validation.required') : null) },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({ name: values.name.trim(), isTest: values.isTest, refreshEveryMinutes: Number(values.refreshEveryMinutes) });
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal title={title} intro={intro} failure={failure} submitLabel={submitLabel} submitting={form.submitting} submitTestId="audience-form-submit" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('segments.save.name')} data-autofocus maxLength={NAME_MAX} {...form.getInputProps('name')} data-testid="audience-name" />
      <Select label={t('segments.save.refreshEvery')} data={choices} allowDeselect={false} {...form.getInputProps('refreshEveryMinutes')} />
      <Checkbox label={t('segments.save.isTest')} description={t('segments.save.isTestHint')} {...form.getInputProps('isTest', { type: 'checkbox' })} />
    </FormModal>
  );
}

export function SaveAudienceDialog({ appId, segmentId, initialName, onClose, onSaved }: {
  appId: string;
  segmentId: string;
  initialName: string;
  onClose: () => void;
  onSaved: (audience: AudienceSummary) => void;
}) {
  const { t } = useT();
  return (
    <AudienceFormDialog
      title={t('segments.save.title')}
      intro={t('segments.save.body')}
      submitLabel={t('segments.save.submit')}
      initial={{ name: initialName, isTest: false, refreshEveryMinutes: AUDIENCE_REFRESH_MINUTES.default }}
      onClose={onClose}
      onSubmit={async (values) => {
        const body = AudienceCreate.parse({ ...values, source: { from: 'segment', segmentId } });
        const { audience } = await api.call('createAudience', { params: { appId }, body });
        onSaved(audience);
      }}
    />
  );
}
