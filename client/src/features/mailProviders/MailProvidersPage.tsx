/**
 * /manage/mail-providers: the account's SMTP servers (account-wide, not per app). The screen's
 * route key and `ui:mailProviders.view` show them; `.edit` adds and changes, `.delete` deletes,
 * `.activate` picks the one e-mail goes out through (endpoints/mailProviders.ts). Each row tests
 * its connection, the outcome shown under it.
 */
import { Fragment, useState } from 'react';
import { Alert, Badge, Group, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconMailCog, IconPlayerPlay, IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { localeFor } from '@gd/shared/language';
import type { MailConnectionTest, MailProvider } from '@gd/shared/schemas/mailProviders';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { errorText } from '../../ui/errorText.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { MailProviderDialog } from './MailProviderDialog.tsx';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; provider: MailProvider } | null;
/** A row's connection test: running, its outcome, or the API's refusal of the call itself. */
type TestState = { state: 'running' } | { state: 'done'; result: MailConnectionTest } | { state: 'error'; error: unknown };
const COLUMNS = 5;

/** A badge keeps its whole word when the table is narrow (a laptop, Spanish): the long columns give way instead. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export default function MailProvidersPage() {
  const { t, lang } = useT();
  const can = usePermissions('account');
  const canView = can({ and: ['route:/manage/mail-providers', 'ui:mailProviders.view'] });
  const canEdit = can('ui:mailProviders.edit');
  const canActivate = can('ui:mailProviders.activate');
  const canTest = canEdit || canActivate;
  const providers = useApiQuery('listMailProviders', { enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tests, setTests] = useState<Record<string, TestState>>({});
  const [switching, setSwitching] = useState<string | null>(null);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
      {t('mailProviders.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.mailProviders')} description={t('mailProviders.description')} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('mailProviders.noView')} />
      </>
    );
  }

  const runTest = async (provider: MailProvider) => {
    setTests((s) => ({ ...s, [provider.id]: { state: 'running' } }));
    try {
      const { result } = await api.call('testMailProvider', { params: { providerId: provider.id } });
      setTests((s) => ({ ...s, [provider.id]: { state: 'done', result } }));
    } catch (error) {
      setTests((s) => ({ ...s, [provider.id]: { state: 'error', error } }));
    }
  };
  const setActive = async (provider: MailProvider, active: boolean) => {
    setSwitching(provider.id);
    try {
      await api.call(active ? 'activateMailProvider' : 'deactivateMailProvider', { params: { providerId: provider.id } });
      notifySuccess(t(active ? 'mailProviders.activated' : 'mailProviders.deactivated', { name: provider.name }));
      providers.refetch();
    } catch (error) {
      notifyError(t, error);
    } finally {
      setSwitching(null);
    }
  };
  const forget = (id: string) => setTests(({ [id]: _gone, ...rest }) => rest);

  return (
    <>
      {header}
      <DataState query={providers}>
        {({ providers: list }) => (
          <>
            {list.length > 0 && !list.some((p) => p.active) && (
              <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} mb="md" data-testid="none-active">
                {t('mailProviders.noneActive')}
              </Alert>
            )}
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconMailCog size={28} />} title={t('mailProviders.emptyTitle')} description={t('mailProviders.emptyBody')} action={addButton} />}
              label={t('nav.mailProviders')}
              minWidth={980}
              head={
                <>
                  <Table.Th>{t('mailProviders.fields.name')}</Table.Th>
                  <Table.Th>{t('mailProviders.fields.server')}</Table.Th>
                  <Table.Th>{t('mailProviders.fields.sender')}</Table.Th>
                  <Table.Th>{t('mailProviders.fields.status')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((provider) => {
                const test = tests[provider.id];
                return (
                  <Fragment key={provider.id}>
                    <Table.Tr data-testid="provider-row" style={test && test.state !== 'running' ? { borderBottom: 'none' } : undefined}>
                      <Table.Td maw={220}>
                        <Text size="sm" fw={600} truncate="end" title={provider.name}>{provider.name}</Text>
                        {provider.username && <Text size="xs" c="dimmed" truncate="end">{provider.username}</Text>}
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text size="sm" className="gd-mono">{provider.host}:{provider.port}</Text>
                          <Badge variant="light" color={provider.tls === 'none' ? 'orange' : 'indigo'} tt="none" style={WHOLE}>{t(`mailProviders.tls.${provider.tls}`)}</Badge>
                        </Group>
                        {provider.ratePerSecond !== null && (
                          <Text size="xs" c="dimmed" data-testid="provider-rate">{t('mailProviders.rateShown', { rate: provider.ratePerSecond.toLocaleString(localeFor(lang)) })}</Text>
                        )}
                      </Table.Td>
                      <Table.Td maw={240}>
                        <Text size="sm" truncate="end">{provider.senderName}</Text>
                        <Text size="xs" c="dimmed" truncate="end">{provider.senderEmail}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={provider.active ? 'teal' : 'gray'} tt="none" style={WHOLE} data-testid="provider-status">
                          {provider.active ? t('mailProviders.active') : t('mailProviders.inactive')}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <EditDeleteIcons
                          before={
                            <>
                              {/* An icon (its name in the tooltip) so the row's actions fit a 1280 px screen in every language. */}
                              <GatedIcon
                                allowed={canTest}
                                label={t('mailProviders.test')}
                                variant="default"
                                size={26}
                                mr={4}
                                loading={test?.state === 'running'}
                                onClick={() => void runTest(provider)}
                              >
                                <IconPlugConnected size={14} />
                              </GatedIcon>
                              {provider.active ? (
                                <GatedButton allowed={canActivate} size="compact-sm" variant="subtle" color="gray" loading={switching === provider.id} onClick={() => void setActive(provider, false)}>
                                  {t('mailProviders.deactivate')}
                                </GatedButton>
                              ) : (
                                <GatedButton allowed={canActivate} size="compact-sm" variant="light" leftSection={<IconPlayerPlay size={14} />} loading={switching === provider.id} onClick={() => void setActive(provider, true)}>
                                  {t('mailProviders.activate')}
                                </GatedButton>
                              )}
                            </>
                          }
                          edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', provider }) }}
                          remove={{ allowed: can('ui:mailProviders.delete'), onClick: () => setDialog({ kind: 'delete', provider }) }}
                        />
                      </Table.Td>
                    </Table.Tr>
                    {test && test.state !== 'running' && (
                      <Table.Tr data-testid="provider-test">
                        <Table.Td colSpan={COLUMNS} pt={0}>
                          <TestOutcome test={test} onClose={() => forget(provider.id)} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </ListTable>
          </>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <MailProviderDialog
          provider={dialog.kind === 'edit' ? dialog.provider : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('mailProviders.created') : t('common.saved'));
            if (dialog.kind === 'edit') forget(dialog.provider.id);
            setDialog(null);
            providers.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('mailProviders.deleteTitle')}
        message={dialog?.kind === 'delete' ? t(dialog.provider.active ? 'mailProviders.deleteActiveBody' : 'mailProviders.deleteBody', { name: dialog.provider.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteMailProvider', { params: { providerId: dialog.provider.id } });
          notifySuccess(t('mailProviders.deleted'));
          forget(dialog.provider.id);
          providers.refetch();
        }}
      />
    </>
  );
}

/** A connection test's outcome, inline under its row: connected, or why not in the person's language and the server's own words. */
function TestOutcome({ test, onClose }: { test: Exclude<TestState, { state: 'running' }>; onClose: () => void }) {
  const { t } = useT();
  if (test.state === 'done' && test.result.ok) {
    return (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} py={6} role="status">
        <Text size="sm">{t('mailProviders.testOk', { ms: test.result.ms })}</Text>
      </Alert>
    );
  }
  const said = test.state === 'done' && !test.result.ok ? t(`mailProviders.failure.${test.result.reason}`) : errorText(t, test.state === 'error' ? test.error : null);
  const detail = test.state === 'done' && !test.result.ok ? test.result.message : null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('mailProviders.testFailed')} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} py={6} role="alert">
      <Text size="sm">{said}</Text>
      {detail && <Text size="xs" c="dimmed" className="gd-mono" style={{ whiteSpace: 'normal', wordBreak: 'break-word' }}>{detail}</Text>}
    </Alert>
  );
}
