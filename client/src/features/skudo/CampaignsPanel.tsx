/** The campaigns tab: offers grouped with days and a status (deleting one with active offers: 20002). */
import { useState } from 'react';
import { Badge, Group, SegmentedControl, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalendarEvent, IconPlus } from '@tabler/icons-react';
import { SkudoCampaignInput, type SkudoCampaign } from '@gd/shared/schemas/skudo';
import { SkudoCampaignStatus } from '@gd/shared/skudo/model';
import { localeFor } from '@gd/shared/language';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { PanelActions } from './PanelActions.tsx';
import { statusColour } from './payout.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; campaign: SkudoCampaign } | null;
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export function CampaignsPanel({ canEdit }: { canEdit: boolean }) {
  const { t, lang } = useT();
  const campaigns = useApiQuery('skudoCampaigns');
  const [dialog, setDialog] = useState<Dialog>(null);
  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="skudo-add-campaign">
      {t('skudo.campaigns.add')}
    </GatedButton>
  );
  const days = (c: SkudoCampaign) => (c.endsOn ? `${formatDate(c.startsOn, lang)} – ${formatDate(c.endsOn, lang)}` : t('skudo.campaigns.from', { day: formatDate(c.startsOn, lang) }));
  return (
    <>
      <DataState query={campaigns}>
        {({ campaigns: list }) => (
          <>
            {list.length > 0 && <PanelActions>{addButton}</PanelActions>}
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconCalendarEvent size={28} />} title={t('skudo.campaigns.emptyTitle')} description={t('skudo.campaigns.emptyBody')} action={addButton} />}
              label={t('skudo.tabs.campaigns')}
              minWidth={860}
              head={
                <>
                  <Table.Th>{t('skudo.campaigns.name')}</Table.Th>
                  <Table.Th>{t('skudo.campaigns.days')}</Table.Th>
                  <Table.Th>{t('skudo.campaigns.status')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.campaigns.offers')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.campaigns.clicks')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((c) => (
                <Table.Tr key={c.id} data-testid="skudo-campaign-row">
                  <Table.Td maw={320}>
                    <Text size="sm" fw={600} truncate="end" title={c.name}>{c.name}</Text>
                    {c.description && <Text size="xs" c="dimmed" truncate="end" title={c.description}>{c.description}</Text>}
                  </Table.Td>
                  <Table.Td><Text size="sm">{days(c)}</Text></Table.Td>
                  <Table.Td><Badge variant="light" color={statusColour(c.status)} tt="none" style={WHOLE}>{t(`skudo.status.${c.status}`)}</Badge></Table.Td>
                  <Table.Td ta="right"><Text size="sm">{t('skudo.campaigns.offersCount', { active: c.activeOffers, total: c.offers })}</Text></Table.Td>
                  <Table.Td ta="right"><Text size="sm">{c.clicks.toLocaleString(localeFor(lang))}</Text></Table.Td>
                  <Table.Td>
                    <EditDeleteIcons
                      edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', campaign: c }) }}
                      remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', campaign: c }) }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          </>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <CampaignDialog
          campaign={dialog.kind === 'edit' ? dialog.campaign : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('skudo.campaigns.created') : t('common.saved'));
            setDialog(null);
            campaigns.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('skudo.campaigns.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('skudo.campaigns.deleteBody', { name: dialog.campaign.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteSkudoCampaign', { params: { skudoCampaignId: dialog.campaign.id } });
          notifySuccess(t('skudo.deleted'));
          campaigns.refetch();
        }}
      />
    </>
  );
}

const today = () => new Date().toISOString().slice(0, 10);

function CampaignDialog({ campaign, onClose, onSaved }: { campaign?: SkudoCampaign | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: {
      name: campaign?.name ?? '', description: campaign?.description ?? '', startsOn: campaign?.startsOn ?? today(), endsOn: campaign?.endsOn ?? '',
      status: campaign?.status ?? 'active',
    },
    validate: schemaValidator(SkudoCampaignInput, t, { endsOn: 'skudo.campaigns.endsBeforeStart' }),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      if (campaign) await api.call('updateSkudoCampaign', { params: { skudoCampaignId: campaign.id }, body: values });
      else await api.call('createSkudoCampaign', { body: values });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'description', 'startsOn', 'endsOn', 'status']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal
      title={campaign ? t('skudo.campaigns.editTitle') : t('skudo.campaigns.addTitle')}
      failure={failure}
      submitLabel={campaign ? t('common.save') : t('skudo.campaigns.add')}
      submitting={form.submitting}
      submitTestId="skudo-campaign-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('skudo.campaigns.fields.name')} required data-autofocus {...form.getInputProps('name')} />
      <Textarea label={t('skudo.campaigns.fields.description')} autosize minRows={2} maxRows={5} {...form.getInputProps('description')} />
      <Group grow align="flex-start">
        <TextInput type="date" label={t('skudo.campaigns.fields.startsOn')} required {...form.getInputProps('startsOn')} />
        <TextInput type="date" label={t('skudo.campaigns.fields.endsOn')} description={t('skudo.campaigns.fields.endsOnHint')} inputWrapperOrder={['label', 'input', 'error', 'description']} {...form.getInputProps('endsOn')} />
      </Group>
      <Stack gap={6}>
        <Text size="sm" fw={500} id="skudo-campaign-status">{t('skudo.campaigns.fields.status')}</Text>
        <SegmentedControl
          aria-labelledby="skudo-campaign-status"
          fullWidth
          data={SkudoCampaignStatus.map((s) => ({ value: s, label: t(`skudo.status.${s}`) }))}
          value={form.values.status}
          onChange={(value) => form.setFieldValue('status', value)}
        />
      </Stack>
    </FormModal>
  );
}
