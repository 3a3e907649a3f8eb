/**
 * Create or edit a communication parameter. The name is typed without its prefix, which stands in
 * front of the field; the values appear only for a choice of values.
 */
import { useState } from 'react';
import { SegmentedControl, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { COMMUNICATION_PARAMETER_PREFIX, CommunicationParameterType } from '@gd/shared/message/draft';
import type { CommunicationParameterRecord } from '@gd/shared/schemas/messageSettings';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { initialParameterValues, parameterBody, parameterFailure, placeholderOf, validateParameter, type ParameterFormValues } from './parameterForm.ts';

export function ParameterDialog({ appId, parameter, onClose, onSaved }: {
  appId: string;
  parameter?: CommunicationParameterRecord | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<ParameterFormValues>({ initialValues: initialParameterValues(parameter), validate: (values) => validateParameter(values, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = parameterBody(values);
    try {
      if (parameter) await api.call('updateCommunicationParameter', { params: { appId, parameterId: parameter.id }, body });
      else await api.call('createCommunicationParameter', { params: { appId }, body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = parameterFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const example = placeholderOf(`${COMMUNICATION_PARAMETER_PREFIX}${form.values.name.trim() || 'name'}`);
  return (
    <FormModal
      title={parameter ? t('messageSettings.parameters.editTitle') : t('messageSettings.parameters.addTitle')}
      failure={failure}
      submitLabel={parameter ? t('common.save') : t('messageSettings.parameters.add')}
      submitting={form.submitting}
      submitTestId="parameter-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput
        label={t('messageSettings.parameters.fields.name')}
        placeholder={t('messageSettings.parameters.namePlaceholder')}
        required
        data-autofocus
        leftSection={<Text size="sm" c="dimmed" className="gd-mono">{COMMUNICATION_PARAMETER_PREFIX}</Text>}
        leftSectionWidth={200}
        leftSectionPointerEvents="none"
        description={t('messageSettings.parameters.nameHint', { example })}
        {...form.getInputProps('name')}
      />
      <TextInput
        label={t('messageSettings.parameters.fields.label')}
        placeholder={t('messageSettings.parameters.labelPlaceholder')}
        description={t('messageSettings.parameters.labelHint')}
        required
        {...form.getInputProps('label')}
      />
      <Stack gap={6}>
        <Text size="sm" fw={500} id="parameter-type-label">{t('messageSettings.parameters.fields.type')}</Text>
        <SegmentedControl
          aria-labelledby="parameter-type-label"
          fullWidth
          data={CommunicationParameterType.options.map((type) => ({ value: type, label: t(`messageSettings.parameters.type.${type}`) }))}
          {...form.getInputProps('type')}
        />
        <Text size="xs" c="dimmed">{t(`messageSettings.parameters.typeHint.${form.values.type}`)}</Text>
      </Stack>
      {form.values.type === 'valueSelection' && (
        <TagsInput
          label={t('messageSettings.parameters.fields.values')}
          placeholder={t('messageSettings.parameters.valuesPlaceholder')}
          description={t('messageSettings.parameters.valuesHint')}
          required
          withAsterisk={false}
          clearable
          maxTags={100}
          {...form.getInputProps('values')}
        />
      )}
    </FormModal>
  );
}
