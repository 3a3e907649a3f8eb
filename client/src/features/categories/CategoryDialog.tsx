/**
 * Create or edit a category: its name, its colour (a swatch or any #RRGGBB typed) and the entity
 * types it applies to. Taking a type away removes the category from the items of that type (the
 * dialog says so before saving).
 */
import { useState } from 'react';
import { Alert, Checkbox, ColorInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CATEGORY_NAME_MAX, CategoryEntityType, type Category } from '@gd/shared/schemas/categories';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { SWATCHES, categoryBody, categoryFailure, categoryFormValues, validateCategory, type CategoryFormValues } from './categoryForm.ts';

export function CategoryDialog({ category, onClose, onSaved }: { category?: Category | undefined; onClose: () => void; onSaved: (category: Category) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<CategoryFormValues>({ initialValues: categoryFormValues(category), validate: (values) => validateCategory(values, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = categoryBody(values);
      const answer = category
        ? await api.call('updateCategory', { params: { categoryId: category.id }, body })
        : await api.call('createCategory', { body });
      onSaved(answer.category);
    } catch (error) {
      const { fieldErrors, formError } = categoryFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const dropped = category ? category.entityTypes.filter((type) => !form.values.entityTypes.includes(type) && category.counts[type] > 0) : [];
  return (
    <FormModal
      title={category ? t('categories.editTitle') : t('categories.addTitle')}
      failure={failure}
      submitLabel={category ? t('common.save') : t('categories.add')}
      submitting={form.submitting}
      submitTestId="category-submit"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('categories.fields.name')} placeholder={t('categories.namePlaceholder')} required maxLength={CATEGORY_NAME_MAX} data-autofocus data-testid="category-name" {...form.getInputProps('name')} />
      <ColorInput
        label={t('categories.fields.colour')}
        required
        format="hex"
        swatches={[...SWATCHES]}
        swatchesPerRow={8}
        withEyeDropper={false}
        data-testid="category-colour"
        {...form.getInputProps('colour')}
      />
      <Checkbox.Group label={t('categories.fields.entityTypes')} description={t('categories.entityTypesHint')} required {...form.getInputProps('entityTypes')}>
        <Stack gap={8} mt={8}>
          {CategoryEntityType.options.map((type) => (
            <Checkbox
              key={type}
              value={type}
              data-testid={`category-type-${type}`}
              label={<Text size="sm">{t(`categories.entityType.${type}`)}</Text>}
              description={t(`categories.entityTypeHint.${type}`)}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      {dropped.length > 0 && category && (
        <Alert color="orange" variant="light">
          {t('categories.deleteBody', { name: category.name, count: dropped.reduce((n, type) => n + category.counts[type], 0) })}
        </Alert>
      )}
    </FormModal>
  );
}
