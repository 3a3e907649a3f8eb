/** Add S3-compatible object storage credentials for imports (the secret key is write-only). */
import { useState } from 'react';
import { Button, Group, Modal, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { S3IntegrationInput, type S3Integration } from '@gd/shared/schemas/imports';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

const FIELDS = ['name', 'endpoint', 'region', 'bucket', 'accessKeyId', 'secretAccessKey'] as const;

export function StorageDialog({ appId, onClose, onCreated }: { appId: string; onClose: () => void; onCreated: (integration: S3Integration) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { name: '', endpoint: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1', bucket: '', accessKeyId: '', secretAccessKey: '' },
    validate: schemaValidator(S3IntegrationInput, t),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const { integration } = await api.call('createStorageIntegration', { params: { appId }, body: values });
      notifySuccess(t('imports.storage.created'));
      onCreated(integration);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const field = (name: (typeof FIELDS)[number]) => ({ label: t(`imports.storage.fields.${name}`), required: true, ...form.getInputProps(name) });
  return (
    <Modal opened onClose={onClose} title={t('imports.storage.addTitle')} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormError error={failure} />
          <TextInput {...field('name')} data-autofocus placeholder="Data lake" />
          <TextInput {...field('endpoint')} />
          <SimpleGrid cols={2} spacing="sm">
            <TextInput {...field('region')} />
            <TextInput {...field('bucket')} placeholder="my-exports" />
          </SimpleGrid>
          <TextInput {...field('accessKeyId')} autoComplete="off" />
          <PasswordInput {...field('secretAccessKey')} autoComplete="new-password" description={t('imports.storage.secretWriteOnly')} />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={form.submitting}>{t('imports.storage.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
