/**
 * Name something: create, rename or clone a journey, segment or audience. The name is checked with
 * the shared rule (NamedInput) before the call; the API's refusal (a name in use) shows on the field.
 */
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NAME_MAX, NamedInput } from '@gd/shared/schemas/common';
import { useT } from '../i18n/useT.ts';
import { FormModal } from './FormModal.tsx';
import { schemaValidator, splitFailure } from './forms.ts';

export function NameDialog({
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
  const form = useForm({ initialValues: { name: initialName }, validate: schemaValidator(NamedInput, t) });
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
    <FormModal title={title} intro={hint} failure={failure} submitLabel={submitLabel} submitting={form.submitting} onSubmit={submit} onClose={onClose}>
      <TextInput label={t('fields.name')} data-autofocus maxLength={NAME_MAX} {...form.getInputProps('name')} />
    </FormModal>
  );
}
