/**
 * /manage/communication-parameters: the app's communication parameters (SPEC.md section 3: a
 * choice of values or open text, named `communicationParameter__<name>`), which every message of
 * the app may set and write in its texts. The screen's route key shows them; `ui:app.edit`
 * changes them (endpoints/messageSettings.ts says why that key).
 */
import { useState } from 'react';
import { ActionIcon, Badge, CopyButton, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconPlus, IconVariable } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { CommunicationParameterRecord } from '@gd/shared/schemas/messageSettings';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { ParameterDialog } from './ParameterDialog.tsx';
import { placeholderOf } from './parameterForm.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; parameter: CommunicationParameterRecord } | null;
/** Values shown in a row before "+N more" (the cell is sized for them; table cells take their width as a minimum). */
const VALUES_SHOWN = 3;

export default function CommunicationParametersPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.communicationParameters')} descriptionNoApp={t('messageSettings.parameters.descriptionNoApp')}>
      {(app) => <Parameters app={app} />}
    </AppScreen>
  );
}

function Parameters({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('route:/manage/communication-parameters');
  const canEdit = can('ui:app.edit');
  const parameters = useApiQuery('listCommunicationParameters', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
      {t('messageSettings.parameters.add')}
    </GatedButton>
  );
  const header = (
    <PageHeader
      title={t('nav.communicationParameters')}
      description={t('messageSettings.parameters.description', { app: app.name, example: '{{communicationParameter__name}}' })}
      actions={canView ? addButton : undefined}
    />
  );
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('messageSettings.parameters.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <DataState query={parameters}>
        {({ parameters: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconVariable size={28} />} title={t('messageSettings.parameters.emptyTitle')} description={t('messageSettings.parameters.emptyBody')} action={addButton} />}
            label={t('nav.communicationParameters')}
            minWidth={880}
            head={
              <>
                <Table.Th>{t('messageSettings.parameters.fields.label')}</Table.Th>
                <Table.Th>{t('messageSettings.parameters.fields.type')}</Table.Th>
                <Table.Th>{t('messageSettings.parameters.fields.values')}</Table.Th>
                <Table.Th>{t('messageSettings.parameters.fields.updated')}</Table.Th>
                <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((parameter) => (
              <Table.Tr key={parameter.id} data-testid="parameter-row">
                <Table.Td maw={380}>
                  <Text size="sm" fw={600} truncate="end">{parameter.label}</Text>
                  <Placeholder name={parameter.name} />
                </Table.Td>
                <Table.Td w={180}>
                  <Badge variant="light" color={parameter.type === 'valueSelection' ? 'indigo' : 'teal'} tt="none" style={{ flexShrink: 0 }}>{t(`messageSettings.parameters.type.${parameter.type}`)}</Badge>
                </Table.Td>
                <Table.Td w={280}>
                  <ValueList parameter={parameter} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">{formatDate(parameter.updatedAt, lang)}</Text>
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', parameter }) }}
                    remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', parameter }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ParameterDialog
          appId={app.id}
          parameter={dialog.kind === 'edit' ? dialog.parameter : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('messageSettings.parameters.created') : t('common.saved'));
            setDialog(null);
            parameters.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('messageSettings.parameters.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('messageSettings.parameters.deleteBody', { name: placeholderOf(dialog.parameter.name) }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteCommunicationParameter', { params: { appId: app.id, parameterId: dialog.parameter.id } });
          notifySuccess(t('messageSettings.parameters.deleted'));
          parameters.refetch();
        }}
      />
    </>
  );
}

/** A choice's values as chips (the first few, then how many more); open text says any text goes. */
function ValueList({ parameter }: { parameter: CommunicationParameterRecord }) {
  const { t } = useT();
  if (parameter.type === 'openText') return <Text size="sm" c="dimmed">{t('messageSettings.parameters.anyText')}</Text>;
  const rest = parameter.values.length - VALUES_SHOWN;
  return (
    <Group gap={4} wrap="nowrap">
      {parameter.values.slice(0, VALUES_SHOWN).map((value) => (
        <Badge key={value} variant="outline" color="gray" tt="none" maw={90} style={{ flexShrink: 0 }} title={value}>{value}</Badge>
      ))}
      {rest > 0 && <Text size="xs" c="dimmed">{t('messageSettings.parameters.moreValues', { count: rest })}</Text>}
    </Group>
  );
}

/** How messages write the parameter, small under its label, with a copy button (it is what people paste into texts). */
function Placeholder({ name }: { name: string }) {
  const { t } = useT();
  const text = placeholderOf(name);
  const label = `${t('common.copy')}: ${t('messageSettings.parameters.copyPlaceholder')}`;
  return (
    <Group gap={2} wrap="nowrap">
      <Text size="xs" c="dimmed" className="gd-mono" truncate="end" title={text}>{text}</Text>
      <CopyButton value={text} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('common.copied') : label}>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="xs" onClick={copy} aria-label={label}>
              {copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
