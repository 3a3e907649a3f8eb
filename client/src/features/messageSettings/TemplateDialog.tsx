/**
 * Create or edit a native ad template (an app's or the platform's): its name, whether it is the
 * default, and its fields in order, one row each (key, label, kind, length for text, required).
 * The default stays the default here: another template is made the default instead (33).
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconStar, IconTrash } from '@tabler/icons-react';
import { NATIVE_TEMPLATE_FIELDS_MAX, NATIVE_TEMPLATE_TEXT_MAX, NativeTemplateFieldKind, type NativeTemplate } from '@gd/shared/schemas/messageSettings';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { initialTemplateValues, newTemplateField, templateBody, templateFailure, validateTemplate, type TemplateFormValues } from './templateForm.ts';

export type TemplateScope = { kind: 'app'; appId: string } | { kind: 'platform' };

export function TemplateDialog({ scope, template, onClose, onSaved }: {
  scope: TemplateScope;
  template?: NativeTemplate | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<TemplateFormValues>({ initialValues: initialTemplateValues(template), validate: (values) => validateTemplate(values, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = templateBody(values);
    try {
      if (scope.kind === 'app') {
        if (template) await api.call('updateNativeTemplate', { params: { appId: scope.appId, templateId: template.id }, body });
        else await api.call('createNativeTemplate', { params: { appId: scope.appId }, body });
      } else if (template) {
        await api.call('updatePlatformNativeTemplate', { params: { templateId: template.id }, body });
      } else {
        await api.call('createPlatformNativeTemplate', { body });
      }
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = templateFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const wasDefault = template?.isDefault === true;
  const fields = form.values.fields;
  const kinds = NativeTemplateFieldKind.options.map((kind) => ({ value: kind, label: t(`messageSettings.templates.kind.${kind}`) }));

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{template ? t('messageSettings.templates.editTitle') : t('messageSettings.templates.addTitle')}</Text>} size={760}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput
            label={t('messageSettings.templates.fields.name')}
            placeholder={t('messageSettings.templates.namePlaceholder')}
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          {wasDefault ? (
            // The default stays the default (33): said plainly rather than with a switch that cannot move.
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Badge variant="light" color="indigo" tt="none" leftSection={<IconStar size={11} />} style={{ flexShrink: 0 }}>{t('messageSettings.templates.isDefault')}</Badge>
              <Text size="xs" c="dimmed">{t('messageSettings.templates.defaultLocked')}</Text>
            </Group>
          ) : (
            <Switch
              label={t('messageSettings.templates.defaultLabel')}
              description={t('messageSettings.templates.defaultHint')}
              {...form.getInputProps('isDefault', { type: 'checkbox' })}
            />
          )}
          <Stack gap={6}>
            <div>
              <Text size="sm" fw={500}>{t('messageSettings.templates.fieldsTitle')}</Text>
              <Text size="xs" c="dimmed">{t('messageSettings.templates.fieldsHint')}</Text>
            </div>
            {form.errors.fields && <Text size="xs" c="red" role="alert">{form.errors.fields}</Text>}
            <Group gap="xs" wrap="nowrap" aria-hidden>
              <Text size="xs" fw={500} c="dimmed" w={150}>{t('messageSettings.templates.field.key')}</Text>
              <Text size="xs" fw={500} c="dimmed" style={{ flex: 1 }}>{t('messageSettings.templates.field.label')}</Text>
              <Text size="xs" fw={500} c="dimmed" w={116}>{t('messageSettings.templates.field.kind')}</Text>
              <Text size="xs" fw={500} c="dimmed" w={120}>{t('messageSettings.templates.field.maxLength')}</Text>
              {/* The required checkbox and the remove button below. */}
              <div style={{ width: 120 + 28 + 10, flexShrink: 0 }} />
            </Group>
            {fields.map((field, i) => (
              <Group key={i} gap="xs" align="flex-start" wrap="nowrap" data-testid="template-field">
                <TextInput
                  aria-label={t('messageSettings.templates.field.key')}
                  placeholder="headline"
                  w={150}
                  classNames={{ input: 'gd-mono' }}
                  {...form.getInputProps(`fields.${i}.key`)}
                />
                <TextInput
                  aria-label={t('messageSettings.templates.field.label')}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`fields.${i}.label`)}
                />
                <Select
                  aria-label={t('messageSettings.templates.field.kind')}
                  w={116}
                  allowDeselect={false}
                  data={kinds}
                  {...form.getInputProps(`fields.${i}.kind`)}
                />
                <NumberInput
                  aria-label={t('messageSettings.templates.field.maxLength')}
                  w={120}
                  min={1}
                  max={NATIVE_TEMPLATE_TEXT_MAX}
                  allowDecimal={false}
                  allowNegative={false}
                  disabled={field.kind !== 'text'}
                  {...form.getInputProps(`fields.${i}.maxLength`)}
                  value={field.kind === 'text' ? field.maxLength : ''}
                />
                <Checkbox
                  label={t('messageSettings.templates.field.required')}
                  mt={8}
                  w={120}
                  {...form.getInputProps(`fields.${i}.required`, { type: 'checkbox' })}
                />
                <Tooltip label={t('messageSettings.templates.removeField', { key: field.key || String(i + 1) })}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    mt={4}
                    aria-label={t('messageSettings.templates.removeField', { key: field.key || String(i + 1) })}
                    disabled={fields.length === 1}
                    onClick={() => form.removeListItem('fields', i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            <Group>
              <Button
                variant="subtle"
                size="compact-sm"
                leftSection={<IconPlus size={14} />}
                disabled={fields.length >= NATIVE_TEMPLATE_FIELDS_MAX}
                onClick={() => form.insertListItem('fields', newTemplateField())}
              >
                {t('messageSettings.templates.addField')}
              </Button>
            </Group>
          </Stack>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={form.submitting} data-testid="template-save">{template ? t('common.save') : t('messageSettings.templates.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
