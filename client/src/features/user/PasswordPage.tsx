/** /user/password: current and new password with the strength checklist (errors 10045, 10046). */
import { useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ChangePasswordRequest } from '@gd/shared/schemas/auth';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useMeta, useSession } from '../../session/store.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { PasswordChecklist } from '../../ui/PasswordChecklist.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

export default function PasswordPage() {
  const { t } = useT();
  const { user } = useMeta();
  const reloadMeta = useSession((s) => s.reload);
  // A user invited by link has no password yet: the current one is not asked for.
  const needsCurrent = user.passwordSet;
  const [failure, setFailure] = useState<unknown>(null);
  const validateNew = schemaValidator(ChangePasswordRequest, t, { newPassword: 'validation.password' });
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '', confirm: '' },
    validate: (values) => {
      const errors = validateNew(values);
      if (needsCurrent && !values.currentPassword) errors.currentPassword = t('validation.required');
      if (!errors.newPassword && values.confirm !== values.newPassword) errors.confirm = t('validation.passwordsDiffer');
      return errors;
    },
  });

  const submit = form.onSubmit(async ({ currentPassword, newPassword }) => {
    setFailure(null);
    try {
      await api.call('changePassword', { body: { currentPassword, newPassword } });
      form.reset();
      notifySuccess(t('passwordPage.changed'));
      if (!needsCurrent) await reloadMeta();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['currentPassword', 'newPassword']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <>
      <PageHeader title={t('nav.password')} description={needsCurrent ? t('passwordPage.description') : t('passwordPage.descriptionFirst')} />
      <Card maw={560} component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          {needsCurrent && (
            <PasswordField label={t('fields.currentPassword')} autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          )}
          <div>
            <PasswordField label={t('fields.newPassword')} autoComplete="new-password" required aria-describedby="new-password-rules" {...form.getInputProps('newPassword')} />
            <Stack mt="xs">
              <PasswordChecklist password={form.values.newPassword} id="new-password-rules" />
            </Stack>
          </div>
          <PasswordField label={t('fields.confirmPassword')} autoComplete="new-password" required {...form.getInputProps('confirm')} />
          <Text size="xs" c="dimmed">
            {t('passwordPage.historyHint')}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              {t('passwordPage.submit')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </>
  );
}
