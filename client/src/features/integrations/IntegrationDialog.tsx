/**
 * Create or edit an integration: its kind and service (fixed once saved), a name, the service's
 * settings (experience-platform IDs and metascopes, retail region and event types, object storage
 * keys, OAuth 2 client and endpoints...) and its write-only secrets. For OAuth 2 services it shows
 * the redirect URI to register at the provider; connecting happens from the list once saved.
 */
import { useState } from 'react';
import { Alert, Code, Divider, Group, MultiSelect, Select, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { IntegrationKind, IntegrationService, RetailEventType, RetailRegion, servicesOfKind } from '@gd/shared/integrations/model';
import { SERVICE_DEFAULTS, type Integration } from '@gd/shared/schemas/integrations';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import type { TKey } from '../../i18n/keys.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import {
  authOf, dropsTokens, initialValues, integrationBody, integrationFailure, secretFields, serviceFields, validateIntegration,
  type Field, type IntegrationFormValues,
} from './integrationForm.ts';

const MONO = new Set<Field>(['baseUrl', 'authorizeUrl', 'tokenUrl', 'endpoint', 'clientId', 'accessKeyId', 'imsHost']);

export function IntegrationDialog({ appId, integration, kind, redirectUri, onClose, onSaved }: {
  appId: string; integration?: Integration | undefined; kind?: IntegrationKind | undefined; redirectUri: string; onClose: () => void; onSaved: (saved: Integration) => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<IntegrationFormValues>({ initialValues: initialValues(integration, kind), validate: (v) => validateIntegration(v, t, integration) });
  const { service } = form.values;
  const auth = authOf(service);
  const defaults = SERVICE_DEFAULTS[service];
  const stored = new Set(integration?.secretsSet ?? []);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = integrationBody(values);
    try {
      const saved = integration
        ? (await api.call('updateIntegration', { params: { appId, integrationId: integration.id }, body })).integration
        : (await api.call('createIntegration', { params: { appId }, body })).integration;
      onSaved(saved);
    } catch (error) {
      const { fieldErrors, formError } = integrationFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  const text = (f: Field, opts: { placeholder?: string | undefined; description?: string | undefined; required?: boolean } = {}) => (
    <TextInput
      key={f}
      label={t(`integrations.fields.${f}` as TKey)}
      required={opts.required ?? false}
      placeholder={opts.placeholder}
      description={opts.description}
      classNames={MONO.has(f) ? { input: 'gd-mono' } : undefined}
      autoComplete="off"
      {...form.getInputProps(f)}
    />
  );
  const fieldOf = (f: Field) => {
    switch (f) {
      case 'scopes':
      case 'metaScopes':
        return <TagsInput key={f} label={t(`integrations.fields.${f}`)} description={t('integrations.listHint')} clearable {...form.getInputProps(f)} />;
      case 'eventTypes':
        return (
          <MultiSelect
            key={f}
            label={t('integrations.fields.eventTypes')}
            required
            data={RetailEventType.options.map((e) => ({ value: e, label: t(`integrations.eventType.${e}`) }))}
            {...form.getInputProps(f)}
          />
        );
      case 'region':
        return service === 's3'
          ? text('region', { placeholder: 'eu-west-1', required: true })
          : (
            <Select key={f} label={t('integrations.fields.region')} required allowDeselect={false}
              data={RetailRegion.options.map((r) => ({ value: r, label: t(`integrations.region.${r}`) }))} {...form.getInputProps(f)} />
          );
      case 'baseUrl':
        return text('baseUrl', { placeholder: defaults.baseUrl, description: t('integrations.defaultHint', { url: defaults.baseUrl }) });
      case 'authorizeUrl':
        return text('authorizeUrl', { placeholder: defaults.authorizeUrl, description: defaults.authorizeUrl ? t('integrations.defaultHint', { url: defaults.authorizeUrl }) : undefined });
      case 'tokenUrl':
        return text('tokenUrl', { placeholder: defaults.tokenUrl, description: defaults.tokenUrl ? t('integrations.defaultHint', { url: defaults.tokenUrl }) : undefined });
      case 'imsHost':
        return text('imsHost', { placeholder: 'ims-na1.adobelogin.com', required: true });
      case 'endpoint':
        return text('endpoint', { placeholder: 'https://s3.eu-west-1.amazonaws.com', required: true });
      case 'bucket':
        return text('bucket', { placeholder: 'exports', required: true });
      default:
        return text(f, { required: true });
    }
  };
  const fields = serviceFields(service);
  const endpointFields = fields.filter((f): f is 'baseUrl' | 'authorizeUrl' | 'tokenUrl' => f === 'baseUrl' || f === 'authorizeUrl' || f === 'tokenUrl');
  const settingFields = fields.filter((f) => f !== 'baseUrl' && f !== 'authorizeUrl' && f !== 'tokenUrl' && f !== 'clientId');
  const connectionFields = fields.filter((f) => f === 'clientId');
  const secretInput = (f: ReturnType<typeof secretFields>[number]) => {
    const kept = stored.has(f) && integration?.service === service;
    const label = t(`integrations.fields.${f}`);
    return f === 'username' ? (
      <TextInput key={f} label={label} required={!kept} placeholder={kept ? '••••••••' : undefined} description={kept ? t('integrations.secretKept') : undefined} autoComplete="off" {...form.getInputProps(f)} />
    ) : (
      <PasswordField
        key={f}
        label={label}
        required={!kept}
        placeholder={kept ? '••••••••' : undefined}
        description={kept ? t('integrations.secretKept') : t('integrations.secretWriteOnly')}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        autoComplete="new-password"
        {...form.getInputProps(f)}
      />
    );
  };

  return (
    <FormModal
      title={integration ? t('integrations.editTitle') : t('integrations.addTitle')}
      failure={failure}
      submitLabel={integration ? t('common.save') : t('integrations.add')}
      submitting={form.submitting}
      submitTestId="integration-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label={t('integrations.fields.kind')}
          allowDeselect={false}
          disabled={!!integration}
          data={IntegrationKind.options.map((k) => ({ value: k, label: t(`integrations.kind.${k}`) }))}
          value={form.values.kind}
          onChange={(value) => {
            const next = IntegrationKind.parse(value);
            form.setValues({ kind: next, service: servicesOfKind(next)[0] ?? service });
          }}
        />
        <Select
          label={t('integrations.fields.service')}
          allowDeselect={false}
          disabled={!!integration}
          data={servicesOfKind(form.values.kind).map((s) => ({ value: s, label: t(`integrations.service.${s}`) }))}
          value={service}
          onChange={(value) => value && form.setFieldValue('service', IntegrationService.parse(value))}
          data-testid="integration-service"
        />
      </SimpleGrid>
      <TextInput label={t('integrations.fields.name')} placeholder={t('integrations.namePlaceholder')} required data-autofocus {...form.getInputProps('name')} />
      <Divider label={t('integrations.section.connection')} labelPosition="left" />
      <Group gap="xs">
        <Text size="sm" c="dimmed">{t('integrations.columns.signIn')}:</Text>
        <Text size="sm" fw={500}>{t(`integrations.auth.${auth}`)}</Text>
      </Group>
      <SimpleGrid cols={secretFields(service).length + connectionFields.length > 1 ? 2 : 1} spacing="sm">
        {connectionFields.map(fieldOf)}
        {secretFields(service).map(secretInput)}
      </SimpleGrid>
      {settingFields.length > 0 && <Divider label={t('integrations.section.settings')} labelPosition="left" />}
      <Stack gap="sm">{settingFields.map(fieldOf)}</Stack>
      <Divider label={t('integrations.section.endpoints')} labelPosition="left" />
      <Stack gap="sm">{endpointFields.map(fieldOf)}</Stack>
      {auth === 'oauth2' && (
        <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />} py="xs">
          <Stack gap={4}>
            <Text size="sm">{t('integrations.redirectHint')}</Text>
            <Code data-testid="redirect-uri" style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}>{redirectUri}</Code>
            <Text size="xs" c={dropsTokens(form.values, integration) ? 'orange' : 'dimmed'}>
              {dropsTokens(form.values, integration) ? t('integrations.endpointsChanged') : t('integrations.oauthNext')}
            </Text>
          </Stack>
        </Alert>
      )}
    </FormModal>
  );
}
