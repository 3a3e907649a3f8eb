/**
 * /manage/integrations: the app's integrations grouped by kind (a kind filter narrows to one),
 * each with its service, sign-in, status (connected / not connected / error with the reason /
 * disconnected) and last token refresh. Reading needs the route key; every action
 * `api:integrations.edit` (endpoints/integrations.ts). OAuth 2 integrations connect through the
 * provider's authorize page: the browser goes there and comes back to this screen with
 * `?oauth=connected&integration=<id>` or `?oauth=error&code=10009`, said in a banner.
 */
import { Fragment, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconExternalLink, IconLinkOff, IconPlugConnected, IconPlus, IconPuzzle } from '@tabler/icons-react';
import { IntegrationKind, type IntegrationStatus } from '@gd/shared/integrations/model';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Integration, IntegrationTestResult } from '@gd/shared/schemas/integrations';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { hasKey } from '../../i18n/i18n.ts';
import type { TKey } from '../../i18n/keys.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { errorText } from '../../ui/errorText.ts';
import { formatDateTime } from '../../ui/format.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { IntegrationDialog } from './IntegrationDialog.tsx';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete' | 'disconnect'; integration: Integration } | null;
type TestState = { state: 'running' } | { state: 'done'; result: IntegrationTestResult } | { state: 'error'; error: unknown };
type Returned = { ok: true; id: string | null } | { ok: false; code: string; id: string | null } | null;
const COLUMNS = 4;
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;
const STATUS_COLOUR: Record<IntegrationStatus, string> = { connected: 'teal', pending: 'gray', error: 'red', disconnected: 'orange' };

export default function IntegrationsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.integrations')} descriptionNoApp={t('integrations.description')}>{(app) => <Integrations app={app} />}</AppScreen>;
}

/** The OAuth 2 return (`?oauth=...`), read once and removed from the address. */
function readReturn(params: URLSearchParams): Returned {
  const oauth = params.get('oauth');
  if (!oauth) return null;
  const id = params.get('integration');
  return oauth === 'connected' ? { ok: true, id } : { ok: false, code: params.get('code') ?? '10009', id };
}

function useOAuthReturn(): [Returned, () => void] {
  const [params, setParams] = useSearchParams();
  const [returned, setReturned] = useState<Returned>(() => readReturn(params));
  useEffect(() => {
    if (params.get('oauth')) setParams({}, { replace: true });
  }, [params, setParams]);
  return [returned, () => setReturned(null)];
}

function Integrations({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('route:/manage/integrations');
  const canEdit = can('api:integrations.edit');
  const list = useApiQuery('integrations', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [kind, setKind] = useState<'all' | IntegrationKind>('all');
  const [tests, setTests] = useState<Record<string, TestState>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [returned, clearReturned] = useOAuthReturn();
  const kindOptions = useMemo(() => [{ value: 'all', label: t('integrations.allKinds') }, ...IntegrationKind.options.map((k) => ({ value: k, label: t(`integrations.kind.${k}`) }))], [t]);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="integration-add">
      {t('integrations.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.integrations')} description={t('integrations.description')} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('integrations.noView')} />
      </>
    );
  }

  const forget = (id: string) => setTests(({ [id]: _gone, ...rest }) => rest);
  const runTest = async (integration: Integration) => {
    setTests((s) => ({ ...s, [integration.id]: { state: 'running' } }));
    try {
      const { result } = await api.call('testIntegration', { params: { appId: app.id, integrationId: integration.id } });
      setTests((s) => ({ ...s, [integration.id]: { state: 'done', result } }));
    } catch (error) {
      setTests((s) => ({ ...s, [integration.id]: { state: 'error', error } }));
    }
    list.refetch();
  };
  const connect = async (integration: Integration) => {
    setBusy(integration.id);
    try {
      const { authorizeUrl } = await api.call('startIntegrationOAuth', { params: { appId: app.id, integrationId: integration.id }, body: { returnTo: '/manage/integrations' } });
      window.location.assign(authorizeUrl);
    } catch (error) {
      notifyError(t, error);
      setBusy(null);
    }
  };

  return (
    <>
      {header}
      {returned && (
        <ReturnBanner returned={returned} integrations={list.data?.integrations ?? []} onClose={clearReturned} />
      )}
      <DataState query={list}>
        {({ integrations, redirectUri }) => {
          const shown = integrations.filter((i) => kind === 'all' || i.kind === kind);
          const kinds = IntegrationKind.options.filter((k) => shown.some((i) => i.kind === k));
          return (
            <Stack gap="lg">
              {integrations.length > 0 && (
                <Group justify="space-between" align="flex-end">
                  <Select
                    label={t('integrations.kindFilter')}
                    data={kindOptions}
                    value={kind}
                    allowDeselect={false}
                    onChange={(v) => setKind((v ?? 'all') as 'all' | IntegrationKind)}
                    w={300}
                    data-testid="integration-kind-filter"
                  />
                  <Text size="sm" c="dimmed">{t('integrations.count', { count: shown.length })}</Text>
                </Group>
              )}
              {integrations.length === 0 && (
                <Paper withBorder><EmptyBlock icon={<IconPuzzle size={28} />} title={t('integrations.emptyTitle')} description={t('integrations.emptyBody')} action={addButton} /></Paper>
              )}
              {integrations.length > 0 && shown.length === 0 && (
                <Paper withBorder><EmptyBlock icon={<IconPuzzle size={28} />} title={t('integrations.emptyKind')} action={addButton} /></Paper>
              )}
              {kinds.length > 0 && (
                <ListTable
                  isEmpty={false}
                  empty={null}
                  label={t('nav.integrations')}
                  minWidth={880}
                  head={
                    <>
                      <Table.Th w="30%">{t('integrations.columns.name')}</Table.Th>
                      <Table.Th w="26%">{t('integrations.columns.status')}</Table.Th>
                      <Table.Th w="18%">{t('integrations.columns.lastRefresh')}</Table.Th>
                      <Table.Th ta="right">{t('common.actions')}</Table.Th>
                    </>
                  }
                >
                  {kinds.map((k) => (
                    <Fragment key={k}>
                      <Table.Tr data-testid={`integration-group-${k}`}>
                        <Table.Td colSpan={COLUMNS} bg="var(--mantine-color-gray-0)" py={8}>
                          <Text size="sm" fw={700} c="dark.6">{t(`integrations.kind.${k}`)}</Text>
                        </Table.Td>
                      </Table.Tr>
                    {shown.filter((i) => i.kind === k).map((integration) => {
                      const test = tests[integration.id];
                      const oauth = integration.auth === 'oauth2';
                      const live = integration.status === 'connected' || integration.status === 'error';
                      return (
                        <Fragment key={integration.id}>
                          <Table.Tr data-testid="integration-row" data-name={integration.name} style={test && test.state !== 'running' ? { borderBottom: 'none' } : undefined}>
                            <Table.Td maw={280}>
                              <Text size="sm" fw={600} truncate="end" title={integration.name}>{integration.name}</Text>
                              <Group gap={6} wrap="nowrap" mt={2}>
                                <Text size="xs" c="dimmed" truncate="end">{t(`integrations.service.${integration.service}`)}</Text>
                                <Badge variant="outline" color="gray" tt="none" size="xs" style={WHOLE} title={t('integrations.columns.signIn')}>{t(`integrations.auth.${integration.auth}`)}</Badge>
                              </Group>
                            </Table.Td>
                            <Table.Td maw={320} style={{ whiteSpace: 'normal' }}>
                              <Badge variant="light" color={STATUS_COLOUR[integration.status]} tt="none" style={WHOLE} data-testid="integration-status">
                                {t(`integrations.status.${integration.status}`)}
                              </Badge>
                              {integration.status === 'error' && (
                                <Stack gap={0} mt={4} data-testid="integration-reason">
                                  {integration.statusCode !== null && hasKey(`errors.${integration.statusCode}`) && (
                                    <Text size="xs" c="red" lineClamp={2}>{t(`errors.${integration.statusCode}` as TKey)}</Text>
                                  )}
                                  {integration.statusMessage && <Text size="xs" c="dimmed" lineClamp={2} title={integration.statusMessage}>{integration.statusMessage}</Text>}
                                </Stack>
                              )}
                            </Table.Td>
                            <Table.Td>
                              <Text size="sm">{integration.lastRefreshedAt ? formatDateTime(integration.lastRefreshedAt, lang) : t('integrations.never')}</Text>
                              {oauth && integration.tokenExpiresAt && integration.status === 'connected' && (
                                <Text size="xs" c="dimmed">{t('integrations.expires', { time: formatDateTime(integration.tokenExpiresAt, lang) })}</Text>
                              )}
                            </Table.Td>
                            <Table.Td>
                              <EditDeleteIcons
                                before={
                                  <>
                                    {oauth && (
                                      <GatedButton
                                        allowed={canEdit}
                                        size="compact-sm"
                                        variant={integration.status === 'connected' ? 'subtle' : 'light'}
                                        color={integration.status === 'connected' ? 'gray' : undefined}
                                        leftSection={<IconExternalLink size={14} />}
                                        loading={busy === integration.id}
                                        onClick={() => void connect(integration)}
                                        mr={4}
                                        data-testid="integration-connect"
                                      >
                                        {integration.status === 'pending' ? t('integrations.connect') : t('integrations.reconnect')}
                                      </GatedButton>
                                    )}
                                    <GatedIcon allowed={canEdit && live} label={t('integrations.test')} variant="default" size={26} mr={4}
                                      loading={test?.state === 'running'} onClick={() => void runTest(integration)} data-testid="integration-test">
                                      <IconPlugConnected size={14} />
                                    </GatedIcon>
                                    {oauth && (
                                      <GatedIcon allowed={canEdit && live} label={t('integrations.disconnect')} variant="default" size={26} mr={4}
                                        onClick={() => setDialog({ kind: 'disconnect', integration })}>
                                        <IconLinkOff size={14} />
                                      </GatedIcon>
                                    )}
                                  </>
                                }
                                edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', integration }) }}
                                remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', integration }) }}
                              />
                            </Table.Td>
                          </Table.Tr>
                          {test && test.state !== 'running' && (
                            <Table.Tr data-testid="integration-test-outcome">
                              <Table.Td colSpan={COLUMNS} pt={0}>
                                <TestOutcome name={integration.name} test={test} onClose={() => forget(integration.id)} />
                              </Table.Td>
                            </Table.Tr>
                          )}
                        </Fragment>
                      );
                    })}
                    </Fragment>
                  ))}
                </ListTable>
              )}
              {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
                <IntegrationDialog
                  appId={app.id}
                  integration={dialog.kind === 'edit' ? dialog.integration : undefined}
                  kind={kind === 'all' ? undefined : kind}
                  redirectUri={redirectUri}
                  onClose={() => setDialog(null)}
                  onSaved={(saved) => {
                    notifySuccess(dialog.kind === 'edit' ? t('common.saved') : saved.status === 'pending' ? t('integrations.createdConnect') : t('integrations.created'));
                    if (dialog.kind === 'edit') forget(dialog.integration.id);
                    setDialog(null);
                    list.refetch();
                  }}
                />
              )}
            </Stack>
          );
        }}
      </DataState>
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('integrations.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('integrations.deleteBody', { name: dialog.integration.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteIntegration', { params: { appId: app.id, integrationId: dialog.integration.id } });
          notifySuccess(t('integrations.deleted'));
          forget(dialog.integration.id);
          list.refetch();
        }}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'disconnect'}
        title={t('integrations.disconnectTitle')}
        message={dialog?.kind === 'disconnect' ? t('integrations.disconnectBody', { name: dialog.integration.name }) : ''}
        confirmLabel={t('integrations.disconnect')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'disconnect') return;
          await api.call('disconnectIntegration', { params: { appId: app.id, integrationId: dialog.integration.id } });
          notifySuccess(t('integrations.disconnected', { name: dialog.integration.name }));
          forget(dialog.integration.id);
          list.refetch();
        }}
      />
    </>
  );
}

/** The OAuth 2 return: connected, or why not (the catalogue's text and the integration's recorded reason). */
function ReturnBanner({ returned, integrations, onClose }: { returned: NonNullable<Returned>; integrations: readonly Integration[]; onClose: () => void }) {
  const { t } = useT();
  const integration = returned.id ? integrations.find((i) => i.id === returned.id) : undefined;
  if (returned.ok) {
    return (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} mb="md" role="status" data-testid="oauth-return">
        {integration ? t('integrations.oauthConnected', { name: integration.name }) : t('integrations.oauthConnectedAny')}
      </Alert>
    );
  }
  const key = `errors.${returned.code}`;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('integrations.oauthFailed')} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} mb="md" role="alert" data-testid="oauth-return">
      <Text size="sm">{hasKey(key) ? t(key as TKey) : t('errors.10009')}</Text>
      {integration?.statusMessage && <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>{integration.name}: {integration.statusMessage}</Text>}
    </Alert>
  );
}

function TestOutcome({ name, test, onClose }: { name: string; test: Exclude<TestState, { state: 'running' }>; onClose: () => void }) {
  const { t } = useT();
  if (test.state === 'done') {
    return (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} py={6} role="status">
        <Text size="sm">{t('integrations.testOk', { name, ms: test.result.ms })}</Text>
        {test.result.accounts && <Text size="xs" c="dimmed">{t('integrations.testAccounts', { accounts: test.result.accounts.join(', ') })}</Text>}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('integrations.testFailed')} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} py={6} role="alert">
      <Text size="sm">{errorText(t, test.error)}</Text>
    </Alert>
  );
}
