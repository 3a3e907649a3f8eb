/** An audience's settings: name, test flag and refresh period (PUT /audiences/:id). */
import { useState } from 'react';
import { Button, Checkbox, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { splitFailure } from '../../ui/forms.ts';
import { useRefreshChoices } from '../segments/SaveAudienceDialog.tsx';

export function AudienceSettingsDialog({ audience, onClose, onSaved }: { audience: AudienceSummary; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const choices = useRefreshChoices(audience.refreshEveryMinutes);
  const form = useForm({
    initialValues: { name: audience.name, isTest: audience.isTest, refreshEveryMinutes: String(audience.refreshEveryMinutes) },
    validate: { name: (v) => (v.trim() === '' ? t('validation.required') : null) },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('updateAudience', {
        params: { appId: audience.appId, audienceId: audience.id },
        body: { name: values.name.trim(), isTest: values.isTest, refreshEveryMinutes: Number(values.refreshEveryMinutes) },
      });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{t('audiences.editTitle')}</Text>} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('audiences.name')} data-autofocus maxLength={120} {...form.getInputProps('name')} />
          <Select label={t('audiences.refreshEvery.label')} data={choices} allowDeselect={false} {...form.getInputProps('refreshEveryMinutes')} />
          <Checkbox label={t('segments.save.isTest')} description={t('segments.save.isTestHint')} {...form.getInputProps('isTest', { type: 'checkbox' })} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
