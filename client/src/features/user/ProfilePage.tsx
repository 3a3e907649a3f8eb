/** /user/profile: my name, job department and language. */
import { useState } from 'react';
import { Card, Group, Select, Stack, TextInput } from '@mantine/core';
import { ResetSave } from '../../ui/Gated.tsx';
import { useForm } from '@mantine/form';
import { JobDepartment } from '@gd/shared/enums';
import { LANGUAGES, isLanguage } from '@gd/shared/language';
import { ProfileUpdate } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { switchLanguage } from '../../i18n/languageStore.ts';
import { useT } from '../../i18n/useT.ts';
import { useMeta, useSession } from '../../session/store.ts';
import { FormError } from '../../ui/FormError.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

interface Values {
  name: string;
  jobDepartment: string | null;
  language: string;
}

export default function ProfilePage() {
  const { t, lang } = useT();
  const { user } = useMeta();
  const reloadMeta = useSession((s) => s.reload);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values>({
    initialValues: { name: user.name, jobDepartment: user.jobDepartment, language: user.language },
    validate: schemaValidator<Values>(ProfileUpdate, t),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = ProfileUpdate.parse(values);
      await api.call('updateProfile', { body });
      form.resetDirty();
      notifySuccess(t('common.saved'));
      await reloadMeta();
      if (isLanguage(values.language) && values.language !== lang) await switchLanguage(values.language);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'jobDepartment', 'language']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <>
      <PageHeader title={t('nav.profile')} description={t('profile.description')} />
      <Card maw={560} component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('fields.email')} value={user.email} readOnly disabled description={t('profile.emailHint')} />
          <TextInput label={t('fields.name')} required autoComplete="name" {...form.getInputProps('name')} />
          <Select
            label={t('fields.jobDepartment')}
            description={t('common.optional')}
            clearable
            data={JobDepartment.options.map((d) => ({ value: d, label: t(`jobDepartment.${d}`) }))}
            {...form.getInputProps('jobDepartment')}
          />
          <Select
            label={t('fields.language')}
            description={t('profile.languageHint')}
            allowDeselect={false}
            data={LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
            {...form.getInputProps('language')}
          />
          <Group justify="flex-end">
            <ResetSave form={form} />
          </Group>
        </Stack>
      </Card>
    </>
  );
}
