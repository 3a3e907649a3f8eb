/** App fields (name, OS, time zone, bundle id), used by the apps dialog, setup and app settings. */
import { useMemo } from 'react';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { AppOs } from '@gd/shared/enums';
import { AppInput, type App } from '@gd/shared/schemas/account';
import type { TFunction } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { timeZones } from '../../ui/format.ts';
import { schemaValidator } from '../../ui/forms.ts';

export interface AppValues {
  name: string;
  os: string;
  bundleId: string;
  timezone: string;
}
export const APP_FIELDS = ['name', 'os', 'bundleId', 'timezone'];

export const appValues = (app?: Pick<App, 'name' | 'os' | 'bundleId' | 'timezone'>): AppValues => ({
  name: app?.name ?? '',
  os: app?.os ?? '',
  bundleId: app?.bundleId ?? '',
  timezone: app?.timezone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
});

export const appBody = (v: AppValues) => ({ name: v.name, os: v.os as AppOs, bundleId: v.bundleId.trim() || null, timezone: v.timezone });

export const appValidator = (t: TFunction) =>
  schemaValidator<AppValues>(AppInput, t, { os: 'validation.choose', bundleId: 'validation.bundleId', timezone: 'validation.timezone' }, appBody);

export function AppFields({ form, disabled = false }: { form: UseFormReturnType<AppValues>; disabled?: boolean }) {
  const { t } = useT();
  const zones = useMemo(() => timeZones(), []);
  return (
    <SimpleGrid cols={2} spacing="md" verticalSpacing="md">
      <TextInput label={t('fields.appName')} required disabled={disabled} data-autofocus {...form.getInputProps('name')} />
      <Select
        label={t('fields.os')}
        required
        disabled={disabled}
        data={AppOs.options.map((os) => ({ value: os, label: os }))}
        allowDeselect={false}
        {...form.getInputProps('os')}
      />
      <Select
        label={t('fields.timezone')}
        description={t('apps.timezoneHint')}
        required
        searchable
        disabled={disabled}
        data={zones}
        allowDeselect={false}
        limit={200}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        nothingFoundMessage={t('common.nothingFound')}
        {...form.getInputProps('timezone')}
      />
      <TextInput
        label={t('fields.bundleId')}
        description={`${t('common.optional')} · ${t('apps.bundleIdHint')}`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        placeholder="com.example.app" disabled={disabled} {...form.getInputProps('bundleId')} />
    </SimpleGrid>
  );
}
