import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { App } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { splitFailure } from '../../ui/forms.ts';
import { APP_FIELDS, AppFields, appBody, appValidator, appValues, type AppValues } from '../../entities/app/AppForm.tsx';
import { CategoryPicker } from '../../entities/category/CategoryPicker.tsx';
import { saveCategories } from '../../entities/category/categories.ts';
import { notifyError } from '../../ui/notify.ts';
import { usePermissions } from '../../session/permissions.ts';

/** Create an app (with its categories), or edit one (`app` given; its categories are in app settings). */
export function AppDialog({ app, onClose, onSaved }: { app?: App; onClose: () => void; onSaved: (app: App) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const [categories, setCategories] = useState<string[]>([]);
  const canCategorise = usePermissions('account')('api:categories.edit');
  const form = useForm<AppValues>({ initialValues: appValues(app), validate: appValidator(t) });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = appBody(values);
      const answer = app ? await api.call('updateApp', { params: { appId: app.id }, body }) : await api.call('createApp', { body });
      if (!app && categories.length > 0) {
        await saveCategories(answer.app.id, 'app', answer.app.id, categories).catch((error: unknown) => notifyError(t, error));
      }
      onSaved(answer.app);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, APP_FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <Modal opened onClose={onClose} title={app ? t('apps.editTitle', { name: app.name }) : t('apps.newTitle')} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <AppFields form={form} />
          {!app && canCategorise && <CategoryPicker entityType="app" value={categories} onChange={setCategories} testId="new-app-categories" />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {app ? t('common.save') : t('apps.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
