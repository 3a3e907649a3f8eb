/**
 * /user/app: the current app's settings (name, OS, time zone, bundle id), its `restricted`
 * permission list (permissions the app withholds from everyone who works in it), its categories
 * (saved as they are chosen, entities/category) and its push credentials (PushCredentialsCard.tsx).
 */
import { useMemo, useState } from 'react';
import { Alert, Card, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { PERMISSIONS } from '@gd/shared/permissions/keys';
import type { MetaApp } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ResetSave } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { groupLabel, groupPermissions, permissionLabel } from '../../ui/permissionLabels.ts';
import { APP_FIELDS, AppFields, appBody, appValidator, appValues, type AppValues } from '../../entities/app/AppForm.tsx';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { PushCredentialsCard } from './PushCredentialsCard.tsx';
import { EntityCategories } from '../../entities/category/CategoryPicker.tsx';

export default function AppSettingsPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.app')} descriptionNoApp={t('appSettings.description')}>
      {(app) => <AppSettings key={`${app.id}:${app.name}:${app.timezone}:${app.restricted.join()}`} app={app} />}
    </AppScreen>
  );
}

function AppSettings({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const editable = can('ui:app.edit');
  const reloadMeta = useSession((s) => s.reload);
  const [failure, setFailure] = useState<unknown>(null);
  const validateApp = appValidator(t);
  const form = useForm<AppValues & { restricted: string[] }>({
    initialValues: { ...appValues(app), restricted: [...app.restricted] },
    validate: (values) => validateApp(values),
  });

  const data = useMemo(
    () =>
      groupPermissions(PERMISSIONS).map((group) => ({
        group: groupLabel(group, t),
        items: group.keys.map((key) => ({ value: key, label: `${permissionLabel(key, t)} (${key})` })),
      })),
    [t],
  );

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('updateApp', { params: { appId: app.id }, body: { ...appBody(values), restricted: values.restricted } });
      notifySuccess(t('common.saved'));
      await reloadMeta();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, [...APP_FIELDS, 'restricted']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  // The push card stays outside the form: its dialogs' forms would otherwise submit this one too
  // (React events bubble through portals).
  return (
    <>
      <form onSubmit={submit} noValidate>
        <PageHeader
          title={t('nav.app')}
          description={t('appSettings.descriptionFor', { app: app.name })}
          actions={<ResetSave form={form} allowed={editable} />}
        />
        <Stack gap="lg">
          {!editable && (
            <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
              {t('appSettings.readOnly')}
            </Alert>
          )}
          <FormError error={failure} />
          <Card>
            <Title order={2} fz="lg" mb="md">
              {t('appSettings.general')}
            </Title>
            <AppFields form={form} disabled={!editable} />
            <Stack gap={4} mt="md">
              <Text size="sm" fw={600}>
                {t('fields.appKey')}
              </Text>
              <CopyField value={app.appKey} label={t('fields.appKey')} />
            </Stack>
          </Card>
          <Card>
            <Title order={2} fz="lg">
              {t('appSettings.restrictedTitle')}
            </Title>
            <Text size="sm" c="dimmed" mt={4} mb="md" maw={760}>
              {t('appSettings.restrictedBody')}
            </Text>
            <MultiSelect
              label={t('appSettings.restrictedLabel')}
              placeholder={form.values.restricted.length === 0 ? t('appSettings.restrictedPlaceholder') : undefined}
              searchable
              clearable
              hidePickedOptions
              disabled={!editable}
              data={data}
              maxDropdownHeight={320}
              nothingFoundMessage={t('common.nothingFound')}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('restricted')}
            />
            <Text size="xs" c="dimmed" mt="xs">
              {t('appSettings.restrictedCount', { count: form.values.restricted.length })}
            </Text>
          </Card>
        </Stack>
      </form>
      <Stack mt="lg">
        <Card data-testid="app-categories">
          <Title order={2} fz="lg">
            {t('categories.settingsTitle')}
          </Title>
          <Text size="sm" c="dimmed" mt={4} mb="md" maw={760}>
            {t('categories.settingsBody')}
          </Text>
          <EntityCategories appId={app.id} entityType="app" entityId={app.id} editable={editable} />
        </Card>
        <PushCredentialsCard app={app} />
      </Stack>
    </>
  );
}
