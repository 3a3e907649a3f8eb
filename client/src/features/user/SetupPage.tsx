/**
 * /user/setup (onboarding): create the first app when there is none, then show its app key and
 * a short SDK snippet, then point to test devices.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, Code, CopyButton, Group, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useCurrentApp, useSession } from '../../session/store.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { APP_FIELDS, AppFields, appBody, appValidator, appValues, type AppValues } from '../../entities/app/AppForm.tsx';
import { SDK_PLATFORMS, platformForOs, sdkSnippet, type SdkPlatform } from '../../entities/app/sdkSnippet.ts';

function Step({ n, done, title, children }: { n: number; done: boolean; title: string; children: ReactNode }) {
  return (
    <Card>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon size={32} radius="xl" variant={done ? 'filled' : 'light'} color={done ? 'teal' : undefined} aria-hidden>
          {done ? <IconCheck size={18} /> : <Text fw={700} size="sm">{n}</Text>}
        </ThemeIcon>
        <Stack gap="sm" style={{ flex: 1 }} miw={0}>
          <Title order={2} fz="lg">
            {title}
          </Title>
          {children}
        </Stack>
      </Group>
    </Card>
  );
}

export default function SetupPage() {
  const { t } = useT();
  const app = useCurrentApp();
  return (
    <>
      <PageHeader title={t('nav.setup')} description={t('setup.description')} />
      <Stack gap="lg" maw={880}>
        <Step n={1} done={app !== null} title={t('setup.step1')}>
          {app ? (
            <Text size="sm">{t('setup.appReady', { app: app.name })}</Text>
          ) : (
            <CreateFirstApp />
          )}
        </Step>
        <Step n={2} done={false} title={t('setup.step2')}>
          {app ? <SdkInstructions app={app} /> : <Text size="sm" c="dimmed">{t('setup.afterApp')}</Text>}
        </Step>
        <Step n={3} done={false} title={t('setup.step3')}>
          <Text size="sm" c="dimmed">
            {t('setup.step3Body')}
          </Text>
          <Group>
            <Button component={Link} to="/user/account/test-devices" variant="light" disabled={!app}>
              {t('devices.add')}
            </Button>
          </Group>
        </Step>
      </Stack>
    </>
  );
}

function CreateFirstApp() {
  const { t } = useT();
  const can = usePermissions('account');
  const reloadMeta = useSession((s) => s.reload);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<AppValues>({ initialValues: appValues(), validate: appValidator(t) });
  const allowed = can('ui:app.new');

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const { app } = await api.call('createApp', { body: appBody(values) });
      useSession.getState().rememberApp(app.id);
      await reloadMeta();
      notifySuccess(t('apps.created', { name: app.name }));
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, APP_FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  if (!allowed) {
    return (
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
        {t('setup.askAdmin')}
      </Alert>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('setup.step1Body')}
        </Text>
        <FormError error={failure} />
        <AppFields form={form} />
        <Group justify="flex-end">
          <GatedButton allowed={allowed} type="submit" loading={form.submitting}>
            {t('apps.create')}
          </GatedButton>
        </Group>
      </Stack>
    </form>
  );
}

function SdkInstructions({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [platform, setPlatform] = useState<SdkPlatform>(platformForOs(app.os));
  const snippet = sdkSnippet(platform, app.appKey, window.location.origin);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('setup.step2Body')}
      </Text>
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {t('fields.appKey')}:
        </Text>
        <CopyField value={app.appKey} label={t('fields.appKey')} />
      </Group>
      <Tabs value={platform} onChange={(v) => setPlatform(SDK_PLATFORMS.find((p) => p === v) ?? platform)} keepMounted={false}>
        <Tabs.List aria-label={t('setup.platform')}>
          {SDK_PLATFORMS.map((p) => (
            <Tabs.Tab key={p} value={p}>
              {t(`setup.platforms.${p}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Stack pt="sm" gap={6} pos="relative">
          <Code block data-testid="sdk-snippet" style={{ whiteSpace: 'pre' }}>
            {snippet}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={snippet}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                  {copied ? t('common.copied') : t('setup.copySnippet')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      </Tabs>
    </Stack>
  );
}
