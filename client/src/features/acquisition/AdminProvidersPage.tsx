/**
 * /admin/providers: the platform's catalogue of ad providers, by kind (platform administrators):
 * create, edit, delete. Removing an entry whose account providers have campaigns with active links
 * is refused (20003) and the dialog says so.
 */
import { useMemo, useState } from 'react';
import { Anchor, Badge, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingBroadcastTower, IconPlus } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import { AdProviderKind } from '@gd/shared/acquisition/model';
import { AdProviderInput, type AdProvider } from '@gd/shared/schemas/acquisition';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; provider: AdProvider } | null;

export default function AdminProvidersPage() {
  const { t } = useT();
  const providers = useApiQuery('adProviders');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [kind, setKind] = useState<'all' | AdProviderKind>('all');
  const kinds = useMemo(() => [{ value: 'all', label: t('acquisition.adminProviders.all') }, ...AdProviderKind.options.map((k) => ({ value: k, label: t(`acquisition.providerKind.${k}`) }))], [t]);
  const addButton = (
    <GatedButton allowed leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="ad-provider-add">
      {t('acquisition.adminProviders.add')}
    </GatedButton>
  );
  return (
    <>
      <PageHeader title={t('nav.adminProviders')} description={t('acquisition.adminProviders.description')} actions={addButton} />
      <Select mb="md" w={260} label={t('acquisition.adminProviders.kindFilter')} allowDeselect={false} data={kinds} value={kind} onChange={(v) => setKind((v ?? 'all') as 'all' | AdProviderKind)} data-testid="ad-provider-kind" />
      <DataState query={providers}>
        {({ providers: all }) => {
          const list = kind === 'all' ? all : all.filter((p) => p.kind === kind);
          return (
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconBuildingBroadcastTower size={28} />} title={t('acquisition.adminProviders.emptyTitle')} description={t('acquisition.adminProviders.emptyBody')} action={addButton} />}
              label={t('nav.adminProviders')}
              minWidth={820}
              head={
                <>
                  <Table.Th>{t('acquisition.adminProviders.fields.name')}</Table.Th>
                  <Table.Th>{t('acquisition.adminProviders.fields.kind')}</Table.Th>
                  <Table.Th>{t('acquisition.adminProviders.fields.website')}</Table.Th>
                  <Table.Th ta="right">{t('acquisition.adminProviders.accounts')}</Table.Th>
                  <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((p) => (
                <Table.Tr key={p.id} data-testid="ad-provider-row">
                  <Table.Td><Text size="sm" fw={600}>{p.name}</Text></Table.Td>
                  <Table.Td><Badge variant="light" tt="none">{t(`acquisition.providerKind.${p.kind}`)}</Badge></Table.Td>
                  <Table.Td maw={320}>
                    {p.website ? <Anchor href={p.website} target="_blank" rel="noreferrer noopener" size="sm" truncate="end" display="block">{p.website}</Anchor> : <Text size="sm" c="dimmed">{t('acquisition.none')}</Text>}
                  </Table.Td>
                  <Table.Td ta="right" className="gd-num">{p.accounts}</Table.Td>
                  <Table.Td>
                    <EditDeleteIcons edit={{ allowed: true, onClick: () => setDialog({ kind: 'edit', provider: p }) }} remove={{ allowed: true, onClick: () => setDialog({ kind: 'delete', provider: p }) }} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          );
        }}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <AdProviderDialog
          provider={dialog.kind === 'edit' ? dialog.provider : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('acquisition.adminProviders.created') : t('common.saved'));
            setDialog(null);
            providers.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('acquisition.adminProviders.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('acquisition.adminProviders.deleteBody', { name: dialog.provider.name, count: dialog.provider.accounts }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          try {
            await api.call('deleteAdProvider', { params: { adProviderId: dialog.provider.id } });
          } catch (error) {
            if (error instanceof ApiError && error.code === ErrorCode.PROVIDER_HAS_ACTIVE_URLS) throw new ApiError(error.code, t('acquisition.providers.activeUrls'));
            throw error;
          }
          notifySuccess(t('acquisition.adminProviders.deleted'));
          providers.refetch();
        }}
      />
    </>
  );
}

const FIELDS = ['name', 'kind', 'website', 'installPostbackUrl', 'eventPostbackUrl'] as const;

function AdProviderDialog({ provider, onClose, onSaved }: { provider?: AdProvider | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: {
      name: provider?.name ?? '', kind: provider?.kind ?? 'social', website: provider?.website ?? '',
      installPostbackUrl: provider?.installPostbackUrl ?? '', eventPostbackUrl: provider?.eventPostbackUrl ?? '',
    },
    validate: schemaValidator(AdProviderInput, t),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = AdProviderInput.parse(values);
    try {
      if (provider) await api.call('updateAdProvider', { params: { adProviderId: provider.id }, body });
      else await api.call('createAdProvider', { body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS, (m) => (m === 'name_taken' ? t('errors.30') : undefined));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal
      title={provider ? t('acquisition.adminProviders.editTitle') : t('acquisition.adminProviders.addTitle')}
      failure={failure}
      submitLabel={provider ? t('common.save') : t('acquisition.adminProviders.add')}
      submitting={form.submitting}
      submitTestId="ad-provider-submit"
      onSubmit={submit}
      onClose={onClose}
    >
      <Group grow gap="sm" align="flex-start">
        <TextInput label={t('acquisition.adminProviders.fields.name')} placeholder={t('acquisition.adminProviders.placeholders.name')} required data-autofocus {...form.getInputProps('name')} />
        <Select label={t('acquisition.adminProviders.fields.kind')} allowDeselect={false} data={AdProviderKind.options.map((k) => ({ value: k, label: t(`acquisition.providerKind.${k}`) }))} {...form.getInputProps('kind')} />
      </Group>
      <TextInput label={t('acquisition.adminProviders.fields.website')} placeholder={t('acquisition.adminProviders.placeholders.website')} {...form.getInputProps('website')} />
      <TextInput label={t('acquisition.adminProviders.fields.installPostbackUrl')} placeholder={t('acquisition.providers.placeholders.url')} {...form.getInputProps('installPostbackUrl')} />
      <TextInput label={t('acquisition.adminProviders.fields.eventPostbackUrl')} placeholder={t('acquisition.providers.placeholders.url')} {...form.getInputProps('eventPostbackUrl')} />
    </FormModal>
  );
}
