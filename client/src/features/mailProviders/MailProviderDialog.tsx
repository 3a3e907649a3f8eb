/**
 * Create or edit a mail provider. The password is write-only: when editing, its field is empty and
 * says "unchanged"; typing replaces it. Changing the security mode proposes its usual port.
 */
import { useState } from 'react';
import { Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MailTlsMode, type MailProvider } from '@gd/shared/schemas/mailProviders';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { initialProviderValues, needsPasswordAgain, portForMode, providerBody, providerFailure, validateProvider, type ProviderFormValues } from './providerForm.ts';

export function MailProviderDialog({ provider, onClose, onSaved }: { provider?: MailProvider | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<ProviderFormValues>({ initialValues: initialProviderValues(provider), validate: (values) => validateProvider(values, t, provider) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = providerBody(values);
    try {
      if (provider) await api.call('updateMailProvider', { params: { providerId: provider.id }, body });
      else await api.call('createMailProvider', { body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = providerFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const hasLogin = form.values.username.trim() !== '';
  const unchanged = !!provider?.hasPassword && !needsPasswordAgain(form.values, provider);
  return (
    <FormModal
      title={provider ? t('mailProviders.editTitle') : t('mailProviders.addTitle')}
      failure={failure}
      submitLabel={provider ? t('common.save') : t('mailProviders.add')}
      submitting={form.submitting}
      submitTestId="provider-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('mailProviders.fields.name')} placeholder={t('mailProviders.namePlaceholder')} required data-autofocus {...form.getInputProps('name')} />
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <TextInput label={t('mailProviders.fields.host')} placeholder={t('mailProviders.hostPlaceholder')} required style={{ flex: 1 }} classNames={{ input: 'gd-mono' }} {...form.getInputProps('host')} />
        <NumberInput label={t('mailProviders.fields.port')} required withAsterisk={false} w={110} min={1} max={65535} allowDecimal={false} allowNegative={false} hideControls {...form.getInputProps('port')} />
      </Group>
      <Stack gap={6}>
        <Text size="sm" fw={500} id="provider-tls-label">{t('mailProviders.fields.tls')}</Text>
        <SegmentedControl
          aria-labelledby="provider-tls-label"
          fullWidth
          data={MailTlsMode.options.map((mode) => ({ value: mode, label: t(`mailProviders.tls.${mode}`) }))}
          value={form.values.tls}
          onChange={(value) => {
            const next = MailTlsMode.parse(value);
            form.setValues({ tls: next, port: portForMode(form.values, next) });
          }}
        />
        <Text size="xs" c={form.values.tls === 'none' ? 'orange' : 'dimmed'}>{t(`mailProviders.tlsHint.${form.values.tls}`)}</Text>
      </Stack>
      <Group align="flex-start" gap="sm" grow>
        <TextInput label={t('mailProviders.fields.username')} description={t('mailProviders.usernameHint')} autoComplete="off" {...form.getInputProps('username')} />
        <PasswordField
          label={t('mailProviders.fields.password')}
          description={unchanged ? t('mailProviders.passwordKeepHint') : t('mailProviders.passwordHint')}
          placeholder={unchanged ? t('mailProviders.passwordUnchanged') : undefined}
          disabled={!hasLogin}
          required={hasLogin && !unchanged}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
      </Group>
      <TextInput label={t('mailProviders.fields.senderName')} placeholder={t('mailProviders.senderNamePlaceholder')} required {...form.getInputProps('senderName')} />
      <TextInput label={t('mailProviders.fields.senderEmail')} placeholder={t('mailProviders.senderEmailPlaceholder')} type="email" required {...form.getInputProps('senderEmail')} />
      <NumberInput
        label={t('mailProviders.fields.ratePerSecond')}
        description={t('mailProviders.rateHint')}
        placeholder={t('mailProviders.rateNone')}
        // Nothing is clamped or dropped while typing (0 → 1, 1.5 → 15, 200000 → 100000 silently):
        // what was typed stays, and the check says what is wrong with it.
        allowDecimal
        allowNegative
        clampBehavior="none"
        hideControls
        thousandSeparator
        rightSection={<Text size="xs" c="dimmed" pr={8}>{t('mailProviders.rateUnit')}</Text>}
        rightSectionWidth={90}
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        data-testid="provider-rate-input"
        {...form.getInputProps('ratePerSecond')}
      />
    </FormModal>
  );
}
