/** The providers tab: the offers' owners, with how many offers and active tracking URLs each has (deleting one with active URLs: 20003). */
import { useState } from 'react';
import { Anchor, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingStore, IconPlus } from '@tabler/icons-react';
import { SkudoProviderInput, type SkudoProvider } from '@gd/shared/schemas/skudo';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { PanelActions } from './PanelActions.tsx';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; provider: SkudoProvider } | null;

export function ProvidersPanel({ canEdit }: { canEdit: boolean }) {
  const { t } = useT();
  const providers = useApiQuery('skudoProviders');
  const [dialog, setDialog] = useState<Dialog>(null);
  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="skudo-add-provider">
      {t('skudo.providers.add')}
    </GatedButton>
  );
  return (
    <>
      <DataState query={providers}>
        {({ providers: list }) => (
          <>
            {list.length > 0 && <PanelActions>{addButton}</PanelActions>}
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconBuildingStore size={28} />} title={t('skudo.providers.emptyTitle')} description={t('skudo.providers.emptyBody')} action={addButton} />}
              label={t('skudo.tabs.providers')}
              minWidth={860}
              head={
                <>
                  <Table.Th>{t('skudo.providers.name')}</Table.Th>
                  <Table.Th>{t('skudo.providers.website')}</Table.Th>
                  <Table.Th>{t('skudo.providers.contact')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.providers.offers')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.providers.activeUrls')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((p) => (
                <Table.Tr key={p.id} data-testid="skudo-provider-row">
                  <Table.Td maw={260}><Text size="sm" fw={600} truncate="end" title={p.name}>{p.name}</Text></Table.Td>
                  <Table.Td maw={220}>
                    {p.website ? <Anchor href={p.website} target="_blank" rel="noreferrer noopener" size="sm" truncate="end" display="block">{p.website.replace(/^https?:\/\//, '')}</Anchor> : <Text size="sm" c="dimmed">—</Text>}
                  </Table.Td>
                  <Table.Td maw={200}><Text size="sm" truncate="end" c={p.contactEmail ? undefined : 'dimmed'}>{p.contactEmail ?? '—'}</Text></Table.Td>
                  <Table.Td ta="right"><Text size="sm">{p.offers}</Text></Table.Td>
                  <Table.Td ta="right"><Text size="sm">{p.activeUrls}</Text></Table.Td>
                  <Table.Td>
                    <EditDeleteIcons
                      edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', provider: p }) }}
                      remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', provider: p }) }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          </>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ProviderDialog
          provider={dialog.kind === 'edit' ? dialog.provider : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('skudo.providers.created') : t('common.saved'));
            setDialog(null);
            providers.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('skudo.providers.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('skudo.providers.deleteBody', { name: dialog.provider.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteSkudoProvider', { params: { skudoProviderId: dialog.provider.id } });
          notifySuccess(t('skudo.deleted'));
          providers.refetch();
        }}
      />
    </>
  );
}

function ProviderDialog({ provider, onClose, onSaved }: { provider?: SkudoProvider | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { name: provider?.name ?? '', website: provider?.website ?? '', contactEmail: provider?.contactEmail ?? '' },
    validate: schemaValidator(SkudoProviderInput, t, { website: 'skudo.offers.invalidUrl' }),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      if (provider) await api.call('updateSkudoProvider', { params: { skudoProviderId: provider.id }, body: values });
      else await api.call('createSkudoProvider', { body: values });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'website', 'contactEmail']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal
      title={provider ? t('skudo.providers.editTitle') : t('skudo.providers.addTitle')}
      failure={failure}
      submitLabel={provider ? t('common.save') : t('skudo.providers.add')}
      submitting={form.submitting}
      submitTestId="skudo-provider-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('skudo.providers.fields.name')} required data-autofocus {...form.getInputProps('name')} />
      <TextInput label={t('skudo.providers.fields.website')} placeholder="https://" {...form.getInputProps('website')} />
      <TextInput label={t('skudo.providers.fields.contactEmail')} type="email" {...form.getInputProps('contactEmail')} />
    </FormModal>
  );
}
