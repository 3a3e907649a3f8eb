/** Name a journey: create, rename or clone (the name must be unique in the app). */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { JourneyCreate } from '@gd/shared/schemas/journeys';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

export function JourneyNameDialog({
  title, hint, submitLabel, initialName = '', onSubmit, onClose,
}: {
  title: string;
  hint?: string;
  submitLabel: string;
  initialName?: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { name: initialName }, validate: schemaValidator(JourneyCreate, t) });
  const submit = form.onSubmit(async ({ name }) => {
    setFailure(null);
    try {
      await onSubmit(name.trim());
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{title}</Text>} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          {hint && (
            <Text size="sm" c="dimmed">
              {hint}
            </Text>
          )}
          <TextInput label={t('journeys.name')} data-autofocus maxLength={120} {...form.getInputProps('name')} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
