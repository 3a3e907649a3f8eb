/**
 * /communication/messaging/plugin: the web plugin. The app's in-app messages appear on its websites
 * through the web SDK: which domains (a page elsewhere shows none), where, in which accent colour,
 * above which layers, with or without a close button. The snippet is the web SDK's; these settings
 * are read by the SDK at run time, so changing them needs no new snippet. Reading needs the
 * screen's route; changing needs the right to edit the app (an app setting).
 */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, ColorInput, CopyButton, Grid, Group, NumberInput, Paper, SegmentedControl, Stack, Switch, TagsInput, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconInfoCircle, IconX } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { WebPluginPosition, WebPluginSettingsInput, type WebPluginSettings } from '@gd/shared/schemas/webPlugin';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ResetSave } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { sdkSnippet } from '../../entities/app/sdkSnippet.ts';

type Values = Omit<WebPluginSettings, 'updatedAt' | 'updatedByName'>;
const FIELDS = ['enabled', 'domains', 'position', 'accentColor', 'zIndex', 'closeButton'] as const;

export default function PluginPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.plugin')} descriptionNoApp={t('webPlugin.descriptionNoApp')}>
      {(app) => <Plugin key={app.id} app={app} />}
    </AppScreen>
  );
}

function Plugin({ app }: { app: MetaApp }) {
  const query = useApiQuery('getWebPlugin', { params: { appId: app.id }, scope: 'app' });
  return (
    <DataState query={query}>
      {({ settings }) => <PluginForm key={settings.updatedAt ?? 'new'} app={app} settings={settings} onSaved={query.refetch} />}
    </DataState>
  );
}

function PluginForm({ app, settings, onSaved }: { app: MetaApp; settings: WebPluginSettings; onSaved: () => void }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const editable = can('ui:app.edit');
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values>({
    initialValues: { enabled: settings.enabled, domains: settings.domains, position: settings.position, accentColor: settings.accentColor, zIndex: settings.zIndex, closeButton: settings.closeButton },
    validate: (values) => problemsOf(values, t),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('updateWebPlugin', { params: { appId: app.id }, body: values });
      notifySuccess(t('common.saved'));
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, [...FIELDS]);
      form.setErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k.split('.')[0] ?? k, v])));
      setFailure(formError);
    }
  });

  const snippet = sdkSnippet('web', app.appKey, window.location.origin);
  const v = form.values;
  return (
    <form onSubmit={submit} noValidate data-testid="web-plugin">
      <PageHeader
        title={t('nav.plugin')}
        description={t('webPlugin.description', { app: app.name })}
        actions={
          <ResetSave form={form} allowed={editable} onlyWhenChanged />
        }
      />
      <Stack gap="lg">
        {!editable && (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
            {t('webPlugin.readOnly')}
          </Alert>
        )}
        <FormError error={failure} />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Card>
              <Group justify="space-between" mb="md">
                <Title order={2} fz="lg">{t('webPlugin.settings')}</Title>
                <Badge color={settings.enabled ? 'teal' : 'gray'} variant="light" data-testid="plugin-status">
                  {t(settings.enabled ? 'webPlugin.status.on' : 'webPlugin.status.off')}
                </Badge>
              </Group>
              <Stack gap="md">
                <Switch label={t('webPlugin.enabled')} description={t('webPlugin.enabledHint')} disabled={!editable} {...form.getInputProps('enabled', { type: 'checkbox' })} />
                <TagsInput
                  label={t('webPlugin.domains')}
                  description={t('webPlugin.domainsHint')}
                  placeholder={t('webPlugin.domainsPlaceholder')}
                  disabled={!editable}
                  clearable
                  splitChars={[',', ' ']}
                  {...form.getInputProps('domains')}
                />
                <Stack gap={4}>
                  <Text size="sm" fw={500}>{t('webPlugin.position')}</Text>
                  <SegmentedControl
                    aria-label={t('webPlugin.position')}
                    disabled={!editable}
                    data={WebPluginPosition.options.map((p) => ({ value: p, label: t(`webPlugin.positionOption.${p}`) }))}
                    {...form.getInputProps('position')}
                  />
                </Stack>
                <Group grow align="flex-start">
                  <ColorInput label={t('webPlugin.accentColor')} format="hex" disabled={!editable} {...form.getInputProps('accentColor')} />
                  <NumberInput label={t('webPlugin.zIndex')} description={t('webPlugin.zIndexHint')} min={1} max={2_147_483_647} allowDecimal={false} disabled={!editable} {...form.getInputProps('zIndex')} />
                </Group>
                <Switch label={t('webPlugin.closeButton')} disabled={!editable} {...form.getInputProps('closeButton', { type: 'checkbox' })} />
                <Text size="xs" c="dimmed">
                  {settings.updatedAt ? t('webPlugin.lastSaved', { when: formatDateTime(settings.updatedAt, lang), name: settings.updatedByName ?? '—' }) : t('webPlugin.neverSaved')}
                </Text>
              </Stack>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Stack gap="lg">
              <Card>
                <Title order={2} fz="lg" mb="md">{t('webPlugin.preview')}</Title>
                <Preview values={v} />
              </Card>
              <Card>
                <Group justify="space-between" mb={4}>
                  <Title order={2} fz="lg">{t('webPlugin.snippet')}</Title>
                  <CopyButton value={snippet}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant="light" leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy}>
                        {copied ? t('common.copied') : t('common.copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Text size="sm" c="dimmed" mb="sm">{t('webPlugin.snippetHint')}</Text>
                <Code block data-testid="plugin-snippet" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{snippet}</Code>
              </Card>
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </form>
  );
}

/** The shared schema's problems, said in the person's language, by field. */
function problemsOf(values: Values, t: ReturnType<typeof useT>['t']): Record<string, string> {
  const parsed = WebPluginSettingsInput.safeParse(values);
  if (parsed.success) return {};
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (out[field]) continue;
    if (field === 'domains') {
      out.domains = issue.path.length > 1 ? t('webPlugin.error.domainInvalid') : values.domains.length === 0 ? t('webPlugin.error.domainsRequired') : t('webPlugin.error.domainTwice');
    } else if (field === 'accentColor') {
      out.accentColor = t('webPlugin.error.colorInvalid');
    } else if (field === 'zIndex') {
      out.zIndex = t('webPlugin.error.zIndexInvalid');
    }
  }
  return out;
}

/** A browser window with the message where the settings put it. */
function Preview({ values }: { values: Values }) {
  const { t } = useT();
  const justify = values.position === 'top' ? 'flex-start' : values.position === 'middle' ? 'center' : 'flex-end';
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }} aria-label={t('webPlugin.preview')}>
      <Group gap={6} px="sm" py={6} bg="var(--mantine-color-gray-1)">
        {['#fa5252', '#fab005', '#40c057'].map((c) => <span key={c} style={{ width: 10, height: 10, borderRadius: 5, background: c }} />)}
        <Text size="xs" c="dimmed" ml="xs" truncate>{values.domains[0] ?? 'shop.example.com'}</Text>
      </Group>
      <Stack h={220} p="md" justify={justify} bg="var(--mantine-color-gray-0)" style={{ opacity: values.enabled ? 1 : 0.55 }} data-testid="plugin-preview" data-position={values.position}>
        <Paper shadow="md" radius="md" p="sm" withBorder style={{ borderTop: `3px solid ${values.accentColor}` }}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={2}>
              <Text fw={600} size="sm">{t('webPlugin.previewTitle')}</Text>
              <Text size="xs" c="dimmed">{t('webPlugin.previewBody')}</Text>
            </Stack>
            {values.closeButton && <IconX size={14} aria-hidden />}
          </Group>
          <Button size="xs" mt="xs" style={{ background: values.accentColor }}>{t('webPlugin.previewAction')}</Button>
        </Paper>
      </Stack>
    </Paper>
  );
}
