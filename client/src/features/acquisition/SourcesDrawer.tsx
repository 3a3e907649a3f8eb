/**
 * The app's sources, managed from the apptracker (ui:sources.*): type, provider, attribution mode,
 * lookback and re-attribution windows, and whether IP + user agent may match.
 */
import { useState } from 'react';
import { Badge, Drawer, Group, NumberInput, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconRoute } from '@tabler/icons-react';
import { AttributionMode, SourceType } from '@gd/shared/acquisition/model';
import { SourceInput, type AccountProvider, type Source } from '@gd/shared/schemas/acquisition';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; source: Source } | null;
interface Can { create: boolean; edit: boolean; remove: boolean }

export function SourcesDrawer({ appId, appName, sources, providers, can, onClose, onChanged }: {
  appId: string; appName: string; sources: Source[]; providers: AccountProvider[]; can: Can; onClose: () => void; onChanged: () => void;
}) {
  const { t } = useT();
  const [dialog, setDialog] = useState<Dialog>(null);
  const addButton = (
    <GatedButton allowed={can.create} size="xs" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ kind: 'add' })} data-testid="source-add">
      {t('acquisition.sourcesDrawer.add')}
    </GatedButton>
  );
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={<Title order={3}>{t('acquisition.sourcesDrawer.title', { app: appName })}</Title>}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Text size="sm" c="dimmed" maw={520}>{t('acquisition.sourcesDrawer.intro')}</Text>
          {addButton}
        </Group>
        <ListTable
          isEmpty={sources.length === 0}
          empty={<EmptyBlock icon={<IconRoute size={28} />} title={t('acquisition.sourcesDrawer.emptyTitle')} description={t('acquisition.sourcesDrawer.emptyBody')} />}
          label={t('acquisition.apptracker.sources')}
          minWidth={640}
          head={
            <>
              <Table.Th>{t('acquisition.sourcesDrawer.fields.name')}</Table.Th>
              <Table.Th>{t('acquisition.sourcesDrawer.fields.attribution')}</Table.Th>
              <Table.Th ta="right">{t('acquisition.sourcesDrawer.fields.campaigns')}</Table.Th>
              <Table.Th w={80} ta="right">{t('common.actions')}</Table.Th>
            </>
          }
        >
          {sources.map((s) => (
            <Table.Tr key={s.id} data-testid="source-row">
              <Table.Td>
                <Text size="sm" fw={600}>{s.name}</Text>
                <Group gap={6}>
                  <Badge size="xs" variant="light" tt="none">{t(`acquisition.sourceType.${s.type}`)}</Badge>
                  <Text size="xs" c="dimmed">{s.accountProviderName ?? t('acquisition.sourcesDrawer.noProvider')}</Text>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`acquisition.attribution.${s.attribution}`)}</Text>
                <Text size="xs" c="dimmed">
                  {t('acquisition.sourcesDrawer.lookback', { days: s.lookbackDays })} · {t('acquisition.sourcesDrawer.reattribution', { days: s.reattributionDays })}
                </Text>
              </Table.Td>
              <Table.Td ta="right" className="gd-num">{s.campaigns}</Table.Td>
              <Table.Td>
                <EditDeleteIcons
                  edit={{ allowed: can.edit, onClick: () => setDialog({ kind: 'edit', source: s }) }}
                  remove={{ allowed: can.remove, onClick: () => setDialog({ kind: 'delete', source: s }) }}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      </Stack>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <SourceDialog
          appId={appId}
          source={dialog.kind === 'edit' ? dialog.source : undefined}
          providers={providers}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('acquisition.sourcesDrawer.created') : t('common.saved'));
            setDialog(null);
            onChanged();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('acquisition.sourcesDrawer.deleteTitle')}
        message={dialog?.kind === 'delete'
          ? `${t('acquisition.sourcesDrawer.deleteBody', { name: dialog.source.name })}${dialog.source.campaigns ? ` ${t('acquisition.sourcesDrawer.inUse', { count: dialog.source.campaigns })}` : ''}`
          : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteSource', { params: { appId, sourceId: dialog.source.id } });
          notifySuccess(t('acquisition.sourcesDrawer.deleted'));
          onChanged();
        }}
      />
    </Drawer>
  );
}

const FIELDS = ['name', 'type', 'accountProviderId', 'attribution', 'lookbackDays', 'reattributionDays', 'fingerprint'] as const;

function SourceDialog({ appId, source, providers, onClose, onSaved }: { appId: string; source?: Source | undefined; providers: AccountProvider[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: {
      name: source?.name ?? '', type: source?.type ?? 'adnetwork', accountProviderId: source?.accountProviderId ?? null as string | null,
      attribution: source?.attribution ?? 'last_click', lookbackDays: source?.lookbackDays ?? 7, reattributionDays: source?.reattributionDays ?? 90,
      fingerprint: source?.fingerprint ?? true,
    },
    validate: schemaValidator(SourceInput, t),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = SourceInput.parse(values);
    try {
      if (source) await api.call('updateSource', { params: { appId, sourceId: source.id }, body });
      else await api.call('createSource', { params: { appId }, body });
      onSaved();
    } catch (error) {
      const issue = (m: string) => (m === 'name_taken' ? t('errors.30') : m === 'reserved_name' ? t('acquisition.sourcesDrawer.reserved') : undefined);
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS, issue);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal
      title={source ? t('acquisition.sourcesDrawer.editTitle') : t('acquisition.sourcesDrawer.addTitle')}
      failure={failure}
      submitLabel={source ? t('common.save') : t('acquisition.sourcesDrawer.add')}
      submitting={form.submitting}
      submitTestId="source-submit"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('acquisition.sourcesDrawer.fields.name')} required data-autofocus {...form.getInputProps('name')} />
      <Group grow gap="sm" align="flex-start">
        <Select label={t('acquisition.sourcesDrawer.fields.type')} allowDeselect={false} data={SourceType.options.map((v) => ({ value: v, label: t(`acquisition.sourceType.${v}`) }))} {...form.getInputProps('type')} />
        <Select
          label={t('acquisition.sourcesDrawer.fields.provider')}
          placeholder={t('acquisition.sourcesDrawer.noProvider')}
          clearable
          data={providers.map((p) => ({ value: p.id, label: p.name }))}
          {...form.getInputProps('accountProviderId')}
        />
      </Group>
      <Select
        label={t('acquisition.sourcesDrawer.fields.attribution')}
        allowDeselect={false}
        description={t(`acquisition.attributionHint.${AttributionMode.parse(form.values.attribution)}`)}
        data={AttributionMode.options.map((v) => ({ value: v, label: t(`acquisition.attribution.${v}`) }))}
        {...form.getInputProps('attribution')}
      />
      <Group grow gap="sm" align="flex-start">
        <NumberInput label={t('acquisition.sourcesDrawer.fields.lookbackDays')} description={t('acquisition.sourcesDrawer.lookbackHint')} min={1} max={90} allowDecimal={false} {...form.getInputProps('lookbackDays')} />
        <NumberInput label={t('acquisition.sourcesDrawer.fields.reattributionDays')} description={t('acquisition.sourcesDrawer.reattributionHint')} min={0} max={365} allowDecimal={false} {...form.getInputProps('reattributionDays')} />
      </Group>
      <Switch label={t('acquisition.sourcesDrawer.fields.fingerprint')} {...form.getInputProps('fingerprint', { type: 'checkbox' })} />
    </FormModal>
  );
}
