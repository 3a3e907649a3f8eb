/**
 * Set or replace an app's APNs key or FCM service account (PushCredentialsCard.tsx). The key or
 * the service-account file is pasted or chosen from disk; it is sent once and never shown again.
 * Values, checks and bodies are pushCredentialsForm.ts.
 */
import { useState } from 'react';
import { Button, FileButton, Group, Input, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileUpload } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { ApnsEnvironment } from '@gd/shared/schemas/pushCredentials';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import {
  APNS_FIELDS, FCM_FIELDS, apnsBody, apnsKeyNeeded, fcmBody, initialApnsValues, pushFailure, validateApns, validateFcm,
  type ApnsCredential, type ApnsFormValues, type FcmFormValues,
} from './pushCredentialsForm.ts';

export function ApnsDialog({ app, current, onClose, onSaved }: { app: MetaApp; current: ApnsCredential | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<ApnsFormValues>({ initialValues: initialApnsValues(current, app.bundleId), validate: (values) => validateApns(values, t, current) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('putApnsCredentials', { params: { appId: app.id }, body: apnsBody(values) });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = pushFailure(error, t, APNS_FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const keepable = !!current && !apnsKeyNeeded(form.values, current);
  return (
    <FormModal
      title={t('pushCredentials.apnsTitle')}
      intro={t('pushCredentials.apnsIntro')}
      failure={failure}
      submitLabel={t('common.save')}
      submitting={form.submitting}
      submitTestId="push-apns-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <Group align="flex-start" gap="sm" grow>
        <TextInput label={t('pushCredentials.fields.keyId')} description={t('pushCredentials.keyIdHint')} placeholder="ABC123DEFG" required maxLength={10} classNames={{ input: 'gd-mono' }} data-autofocus {...form.getInputProps('keyId')} />
        <TextInput label={t('pushCredentials.fields.teamId')} description={t('pushCredentials.teamIdHint')} placeholder="DEF123GHIJ" required maxLength={10} classNames={{ input: 'gd-mono' }} {...form.getInputProps('teamId')} />
      </Group>
      <TextInput label={t('pushCredentials.fields.bundleId')} placeholder="com.example.app" required classNames={{ input: 'gd-mono' }} {...form.getInputProps('bundleId')} />
      <Stack gap={6}>
        <Text size="sm" fw={500} id="push-environment-label">{t('pushCredentials.fields.environment')}</Text>
        <SegmentedControl
          aria-labelledby="push-environment-label"
          fullWidth
          data={ApnsEnvironment.options.map((env) => ({ value: env, label: t(`pushCredentials.environment.${env}`) }))}
          value={form.values.environment}
          onChange={(value) => form.setFieldValue('environment', ApnsEnvironment.parse(value))}
        />
        <Text size="xs" c="dimmed">{t(`pushCredentials.environmentHint.${form.values.environment}`)}</Text>
      </Stack>
      <KeyField
        label={t('pushCredentials.fields.privateKeyPem')}
        hint={keepable ? t('pushCredentials.keyKeepHint') : t('pushCredentials.keyHint')}
        placeholder={t('pushCredentials.keyPlaceholder')}
        accept=".p8,.pem,application/x-pem-file,text/plain"
        required={!keepable}
        rows={5}
        inputProps={form.getInputProps('privateKeyPem')}
        onText={(text) => form.setFieldValue('privateKeyPem', text)}
        onUnreadable={() => form.setFieldError('privateKeyPem', t('pushCredentials.fileUnreadable'))}
      />
    </FormModal>
  );
}

export function FcmDialog({ app, replacing, onClose, onSaved }: { app: MetaApp; replacing: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<FcmFormValues>({ initialValues: { serviceAccount: '' }, validate: (values) => validateFcm(values, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('putFcmCredentials', { params: { appId: app.id }, body: fcmBody(values) });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = pushFailure(error, t, FCM_FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal
      title={t('pushCredentials.fcmTitle')}
      intro={t('pushCredentials.fcmIntro')}
      failure={failure}
      submitLabel={replacing ? t('pushCredentials.replace') : t('common.save')}
      submitting={form.submitting}
      submitTestId="push-fcm-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <KeyField
        label={t('pushCredentials.fields.serviceAccount')}
        hint={t('pushCredentials.serviceAccountHint')}
        placeholder={t('pushCredentials.serviceAccountPlaceholder')}
        accept=".json,application/json"
        required
        rows={8}
        inputProps={form.getInputProps('serviceAccount')}
        onText={(text) => form.setFieldValue('serviceAccount', text)}
        onUnreadable={() => form.setFieldError('serviceAccount', t('pushCredentials.fileUnreadable'))}
      />
    </FormModal>
  );
}

/** A secret pasted into a textarea or read from a chosen file (kept in the form only, never stored in the browser). */
function KeyField({ label, hint, placeholder, accept, required, rows, inputProps, onText, onUnreadable }: {
  label: string; hint: string; placeholder: string; accept: string; required: boolean; rows: number;
  inputProps: ReturnType<ReturnType<typeof useForm>['getInputProps']>;
  onText: (text: string) => void; onUnreadable: () => void;
}) {
  const { t } = useT();
  const onFile = (file: File | null) => {
    if (!file) return;
    file.text().then(onText, onUnreadable);
  };
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Input.Label required={required}>{label}</Input.Label>
        <FileButton onChange={onFile} accept={accept}>
          {(button) => <Button {...button} size="compact-sm" variant="light" leftSection={<IconFileUpload size={14} />}>{t('pushCredentials.chooseFile')}</Button>}
        </FileButton>
      </Group>
      <Textarea
        aria-label={label}
        description={hint}
        placeholder={placeholder}
        rows={rows}
        autoComplete="off"
        spellCheck={false}
        classNames={{ input: 'gd-mono' }}
        styles={{ input: { fontSize: 12 } }}
        {...inputProps}
      />
    </Stack>
  );
}
