/**
 * /acquisition/providers: the account's ad networks and agencies, connected from the platform's
 * catalogue or custom, with their postback URL templates (SPEC §3 macros) and their members (users
 * of the account who then see only that provider's campaigns). Deleting one whose campaigns have
 * active links is refused (20003), and the dialog says so.
 */
import { useState } from 'react';
import { Badge, Group, MultiSelect, SegmentedControl, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingStore, IconPlus } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import { AccountProviderKind } from '@gd/shared/acquisition/model';
import { AccountProviderInput, type AccountProvider, type AdProvider } from '@gd/shared/schemas/acquisition';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; provider: AccountProvider } | null;

export default function ProvidersPage() {
  const { t } = useT();
  const can = usePermissions('account');
  const canView = can('route:/acquisition/providers');
  const providers = useApiQuery('accountProviders', { enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const addButton = (
    <GatedButton allowed={can('ui:sources.create')} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="provider-add">
      {t('acquisition.providers.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.providers')} description={t('acquisition.providers.description')} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('acquisition.providers.noView')} />
      </>
    );
  }
  return (
    <>
      {header}
      <DataState query={providers}>
        {({ providers: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconBuildingStore size={28} />} title={t('acquisition.providers.emptyTitle')} description={t('acquisition.providers.emptyBody')} action={addButton} />}
            label={t('nav.providers')}
            minWidth={900}
            head={
              <>
                <Table.Th>{t('acquisition.providers.fields.name')}</Table.Th>
                <Table.Th>{t('acquisition.providers.fields.kind')}</Table.Th>
                <Table.Th>{t('acquisition.providers.fields.installPostbackUrl')}</Table.Th>
                <Table.Th>{t('acquisition.providers.members')}</Table.Th>
                <Table.Th ta="right">{t('acquisition.providers.fields.campaigns')}</Table.Th>
                <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((p) => (
              <Table.Tr key={p.id} data-testid="provider-row">
                <Table.Td maw={260}>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={600} truncate="end">{p.name}</Text>
                    {!p.active && <Badge size="xs" color="gray" variant="light" tt="none">{t('acquisition.providers.inactive')}</Badge>}
                  </Group>
                  <Text size="xs" c="dimmed" truncate="end">{p.adProviderName === null ? t('acquisition.providers.custom') : p.adProviderName === p.name ? t('acquisition.providers.fromCatalogue') : `${t('acquisition.providers.fromCatalogue')}: ${p.adProviderName}`}</Text>
                </Table.Td>
                <Table.Td><Badge variant="light" tt="none">{t(`acquisition.providerKind.${p.kind}`)}</Badge></Table.Td>
                <Table.Td maw={300}>
                  <Text size="xs" ff="monospace" truncate="end" title={p.installPostbackUrl ?? undefined} c={p.installPostbackUrl ? undefined : 'dimmed'}>
                    {p.installPostbackUrl ? `${p.postbackMethod} ${p.installPostbackUrl}` : t('acquisition.none')}
                  </Text>
                </Table.Td>
                <Table.Td maw={220}>
                  <Text size="sm" truncate="end" c={p.members.length ? undefined : 'dimmed'}>
                    {p.members.length ? p.members.map((m) => m.name).join(', ') : t('acquisition.providers.noMembers')}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" className="gd-num">{p.campaigns}</Text>
                  {p.activeLinks > 0 && <Text size="xs" c="dimmed">{t('acquisition.providers.links', { count: p.activeLinks })}</Text>}
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    edit={{ allowed: can('ui:sources.edit'), onClick: () => setDialog({ kind: 'edit', provider: p }) }}
                    remove={{ allowed: can('ui:sources.delete'), onClick: () => setDialog({ kind: 'delete', provider: p }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ProviderDialog
          provider={dialog.kind === 'edit' ? dialog.provider : undefined}
          canPickMembers={can('ui:accountUsers.view')}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('acquisition.providers.created') : t('common.saved'));
            setDialog(null);
            providers.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('acquisition.providers.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('acquisition.providers.deleteBody', { name: dialog.provider.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          try {
            await api.call('deleteAccountProvider', { params: { providerId: dialog.provider.id } });
          } catch (error) {
            if (error instanceof ApiError && error.code === ErrorCode.PROVIDER_HAS_ACTIVE_URLS) throw new ApiError(error.code, t('acquisition.providers.activeUrls'));
            throw error;
          }
          notifySuccess(t('acquisition.providers.deleted'));
          providers.refetch();
        }}
      />
    </>
  );
}

const FIELDS = ['name', 'kind', 'adProviderId', 'installPostbackUrl', 'eventPostbackUrl', 'postbackMethod', 'active', 'memberIds'] as const;

function ProviderDialog({ provider, canPickMembers, onClose, onSaved }: { provider?: AccountProvider | undefined; canPickMembers: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const catalogue = useApiQuery('adProviderCatalogue');
  const users = useApiQuery('listUsers', { enabled: canPickMembers });
  const [origin, setOrigin] = useState<'catalogue' | 'custom'>(provider && !provider.adProviderId ? 'custom' : 'catalogue');
  const form = useForm({
    initialValues: {
      name: provider?.name ?? '', kind: provider?.kind ?? 'other', adProviderId: provider?.adProviderId ?? null as string | null,
      installPostbackUrl: provider?.installPostbackUrl ?? '', eventPostbackUrl: provider?.eventPostbackUrl ?? '',
      postbackMethod: provider?.postbackMethod ?? 'POST', active: provider?.active ?? true, memberIds: provider?.members.map((m) => m.userId) ?? [],
    },
    validate: schemaValidator(AccountProviderInput, t),
  });
  const pick = (entry: AdProvider | undefined) => {
    form.setFieldValue('adProviderId', entry?.id ?? null);
    if (!entry) return;
    if (!form.values.name) form.setFieldValue('name', entry.name);
    form.setFieldValue('kind', entry.kind);
    if (!form.values.installPostbackUrl && entry.installPostbackUrl) form.setFieldValue('installPostbackUrl', entry.installPostbackUrl);
    if (!form.values.eventPostbackUrl && entry.eventPostbackUrl) form.setFieldValue('eventPostbackUrl', entry.eventPostbackUrl);
  };
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = AccountProviderInput.parse({ ...values, adProviderId: origin === 'custom' ? null : values.adProviderId });
    try {
      if (provider) await api.call('updateAccountProvider', { params: { providerId: provider.id }, body });
      else await api.call('createAccountProvider', { body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS, (m) => (m === 'name_taken' ? t('errors.30') : undefined));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const entries = catalogue.data?.providers ?? [];
  const memberOptions = (users.data?.users ?? []).map((u) => ({ value: u.id, label: `${u.name} · ${u.email}` }));
  return (
    <FormModal
      title={provider ? t('acquisition.providers.editTitle') : t('acquisition.providers.addTitle')}
      failure={failure}
      submitLabel={provider ? t('common.save') : t('acquisition.providers.add')}
      submitting={form.submitting}
      submitTestId="provider-submit"
      onSubmit={submit}
      onClose={onClose}
    >
      <SegmentedControl
        fullWidth
        value={origin}
        onChange={(v) => setOrigin(v)}
        data={[{ value: 'catalogue', label: t('acquisition.providers.fromCatalogue') }, { value: 'custom', label: t('acquisition.providers.custom') }]}
      />
      {origin === 'catalogue' && (
        <Select
          label={t('acquisition.providers.catalogue')}
          placeholder={t('acquisition.providers.cataloguePlaceholder')}
          searchable
          data={AccountProviderKind.options.filter((k) => k !== 'agency').map((k) => ({
            group: t(`acquisition.providerKind.${k}`),
            items: entries.filter((e) => e.kind === k).map((e) => ({ value: e.id, label: e.name })),
          })).filter((g) => g.items.length > 0)}
          value={form.values.adProviderId}
          onChange={(id) => pick(entries.find((e) => e.id === id))}
          error={form.errors.adProviderId}
          data-testid="provider-catalogue"
        />
      )}
      <Group grow gap="sm" align="flex-start">
        <TextInput label={t('acquisition.providers.fields.name')} placeholder={t('acquisition.providers.placeholders.name')} required {...form.getInputProps('name')} />
        <Select label={t('acquisition.providers.fields.kind')} allowDeselect={false} data={AccountProviderKind.options.map((k) => ({ value: k, label: t(`acquisition.providerKind.${k}`) }))} {...form.getInputProps('kind')} />
      </Group>
      <Stack gap={6}>
        <Text size="xs" c="dimmed">{t('acquisition.providers.postbacksHint')}</Text>
        <TextInput label={t('acquisition.providers.fields.installPostbackUrl')} placeholder={t('acquisition.providers.placeholders.url')} ff="monospace" {...form.getInputProps('installPostbackUrl')} />
        <TextInput label={t('acquisition.providers.fields.eventPostbackUrl')} placeholder={t('acquisition.providers.placeholders.url')} {...form.getInputProps('eventPostbackUrl')} />
      </Stack>
      <Group gap="lg" align="flex-end">
        <Select label={t('acquisition.providers.fields.postbackMethod')} w={120} allowDeselect={false} data={['POST', 'GET']} {...form.getInputProps('postbackMethod')} />
        <Switch label={t('acquisition.providers.fields.active')} mb={8} {...form.getInputProps('active', { type: 'checkbox' })} />
      </Group>
      {canPickMembers && (
        <MultiSelect
          label={t('acquisition.providers.members')}
          description={t('acquisition.providers.membersHint')}
          placeholder={t('acquisition.providers.membersPlaceholder')}
          searchable
          data={memberOptions}
          data-testid="provider-members"
          {...form.getInputProps('memberIds')}
        />
      )}
    </FormModal>
  );
}
