/** /user/account/test-devices: test devices of the current app (ui:testDevices.*, app-scoped). */
import { useState } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceMobile, IconDeviceMobilePlus } from '@tabler/icons-react';
import { DeviceIdType } from '@gd/shared/enums';
import type { MetaApp, TestDevice } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { deviceFailure, validateDevice } from './deviceForm.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; device: TestDevice } | null;

export default function TestDevicesPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.testDevices')} descriptionNoApp={t('devices.descriptionNoApp')}>{(app) => <Devices app={app} />}</AppScreen>;
}

function Devices({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('ui:testDevices.view');
  const devices = useApiQuery('listTestDevices', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);

  const addButton = (
    <GatedButton allowed={can('ui:testDevices.add')} leftSection={<IconDeviceMobilePlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
      {t('devices.add')}
    </GatedButton>
  );
  const header = (
    <PageHeader
      title={t('nav.testDevices')}
      description={t('devices.description', { app: app.name })}
      actions={canView ? addButton : undefined}
    />
  );

  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('devices.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <DataState query={devices}>
        {({ devices: list }) =>
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconDeviceMobile size={28} />} title={t('devices.emptyTitle')} description={t('devices.emptyBody')} action={addButton} />}
            label={t('nav.testDevices')}
            minWidth={760}
            head={
              <>
                <Table.Th>{t('fields.deviceName')}</Table.Th>
                <Table.Th>{t('fields.idType')}</Table.Th>
                <Table.Th>{t('fields.deviceId')}</Table.Th>
                <Table.Th>{t('fields.added')}</Table.Th>
                <Table.Th w={100} ta="right">
                  {t('common.actions')}
                </Table.Th>
              </>
            }
          >
            {list.map((device) => (
              <Table.Tr key={device.id} data-testid="device-row">
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {device.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray" tt="none">
                    {t(`devices.idType.${device.idType}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <CopyField value={device.deviceId} label={t('fields.deviceId')} maw={320} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {formatDate(device.createdAt, lang)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    edit={{ allowed: can('ui:testDevices.edit'), onClick: () => setDialog({ kind: 'edit', device }) }}
                    remove={{ allowed: can('ui:testDevices.delete'), onClick: () => setDialog({ kind: 'delete', device }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        }
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <DeviceDialog
          appId={app.id}
          device={dialog.kind === 'edit' ? dialog.device : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('devices.added') : t('common.saved'));
            setDialog(null);
            devices.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('devices.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('devices.deleteBody', { name: dialog.device.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteTestDevice', { params: { appId: app.id, deviceId: dialog.device.id } });
          notifySuccess(t('devices.deleted'));
          devices.refetch();
        }}
      />
    </>
  );
}

function DeviceDialog({ appId, device, onClose, onSaved }: { appId: string; device?: TestDevice; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { name: device?.name ?? '', idType: device?.idType ?? 'auto', deviceId: device?.deviceId ?? '' },
    // The format of the chosen id type, said in the person's language (deviceForm.ts).
    validate: (values) => validateDevice(values, t),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = { ...values, idType: DeviceIdType.parse(values.idType) };
      if (device) await api.call('updateTestDevice', { params: { appId, deviceId: device.id }, body });
      else await api.call('addTestDevice', { params: { appId }, body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = deviceFailure(error, values, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={device ? t('devices.editTitle') : t('devices.addTitle')} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('fields.deviceName')} placeholder={t('devices.namePlaceholder')} required data-autofocus {...form.getInputProps('name')} />
          <Select
            label={t('fields.idType')}
            required
            allowDeselect={false}
            data={DeviceIdType.options.map((v) => ({ value: v, label: t(`devices.idType.${v}`) }))}
            description={t('devices.idTypeHint')}
            {...form.getInputProps('idType')}
          />
          <TextInput label={t('fields.deviceId')} required classNames={{ input: 'gd-mono' }} {...form.getInputProps('deviceId')} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {device ? t('common.save') : t('devices.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
