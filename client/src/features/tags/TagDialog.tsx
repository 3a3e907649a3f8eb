/**
 * Create or edit a tag. Kind is fixed once created; the type is locked while people have values.
 * The name field says which characters a tag name may hold (tagForm.ts).
 */
import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { TagKind, TagValueType, type Tag } from '@gd/shared/schemas/tags';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { tagFailure, validateTag } from './tagForm.ts';

export function TagDialog({ appId, tag, onClose, onSaved }: { appId: string; tag?: Tag | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const typeLocked = !!tag && tag.people > 0;
  const form = useForm({
    initialValues: { name: tag?.name ?? '', kind: tag?.kind ?? 'user_tag', valueType: tag?.valueType ?? 'text', description: tag?.description ?? '' },
    validate: (values) => validateTag(values, t),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = { name: values.name, valueType: TagValueType.parse(values.valueType), description: values.description.trim() || null };
    try {
      if (tag) await api.call('updateTag', { params: { appId, tagId: tag.id }, body });
      else await api.call('createTag', { params: { appId }, body: { ...body, kind: TagKind.parse(values.kind) } });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = tagFailure(error, values, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={tag ? t('tags.editTitle') : t('tags.addTitle')} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('tags.fields.name')} placeholder={t('tags.namePlaceholder')} required data-autofocus {...form.getInputProps('name')} />
          <Select
            label={t('tags.fields.kind')}
            required
            allowDeselect={false}
            disabled={!!tag}
            data={TagKind.options.map((k) => ({ value: k, label: t(`tags.kind.${k}`) }))}
            description={t(`tags.kindHint.${TagKind.parse(form.values.kind)}`)}
            {...form.getInputProps('kind')}
          />
          <Select
            label={t('tags.fields.valueType')}
            required
            allowDeselect={false}
            disabled={typeLocked}
            data={TagValueType.options.map((v) => ({ value: v, label: t(`tags.valueType.${v}`) }))}
            {...form.getInputProps('valueType')}
          />
          {typeLocked && <Alert color="gray" variant="light">{t('tags.typeLocked')}</Alert>}
          <Textarea label={t('tags.fields.description')} placeholder={t('tags.descriptionPlaceholder')} autosize minRows={2} maxRows={4} {...form.getInputProps('description')} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={form.submitting}>{tag ? t('common.save') : t('tags.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
