/**
 * /communication/rules: the current app's automatic rules (endpoints/rules.ts). The screen's route
 * key and `ui:rule.view` show them; `ui:rule.create` adds; edit (and activate or pause), clone and
 * delete follow `ui:rule.*` with their owner variants on the rules the user created.
 */
import { useState } from 'react';
import { Badge, Table, Text } from '@mantine/core';
import { IconBolt, IconCopy, IconPlayerPause, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { NAME_MAX } from '@gd/shared/schemas/common';
import type { Rule, RuleChoices } from '@gd/shared/schemas/rules';
import { localeFor } from '@gd/shared/language';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { RuleDialog } from './RuleDialog.tsx';
import { triggerSummary } from './ruleForm.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'clone' | 'delete'; rule: Rule } | null;
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;
const EMPTY_CHOICES: RuleChoices = { messages: [], coupons: [], tags: [] };

export default function RulesPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.rules')} descriptionNoApp={t('rules.descriptionNoApp')}>
      {(app) => <Rules app={app} />}
    </AppScreen>
  );
}

function Rules({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can({ and: ['route:/communication/rules', 'ui:rule.view'] });
  const canCreate = can('ui:rule.create');
  const rules = useApiQuery('listRules', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const choices = useApiQuery('ruleChoices', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const ids = (rule: Rule) => ({ appId: app.id, ruleId: rule.id });

  const addButton = (
    <GatedButton allowed={canCreate} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="new-rule">
      {t('rules.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.rules')} description={t('rules.description')} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('rules.noView')} />
      </>
    );
  }

  const setStatus = async (rule: Rule, active: boolean) => {
    setSwitching(rule.id);
    try {
      await api.call(active ? 'activateRule' : 'pauseRule', { params: ids(rule) });
      notifySuccess(t(active ? 'rules.activated' : 'rules.paused', { name: rule.name }));
      rules.refetch();
    } catch (error) {
      notifyError(t, error);
    } finally {
      setSwitching(null);
    }
  };
  const refetchAll = () => {
    rules.refetch();
    choices.refetch();
  };

  return (
    <>
      {header}
      <DataState query={rules}>
        {({ rules: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconBolt size={28} />} title={t('rules.emptyTitle')} description={t('rules.emptyBody')} action={addButton} />}
            label={t('nav.rules')}
            minWidth={900}
            head={
              <>
                <Table.Th>{t('rules.col.name')}</Table.Th>
                <Table.Th>{t('rules.col.trigger')}</Table.Th>
                <Table.Th>{t('rules.col.message')}</Table.Th>
                <Table.Th>{t('rules.col.status')}</Table.Th>
                {/* The owner only where there is room (laptops keep every other column in view). */}
                <Table.Th visibleFrom="xl">{t('rules.col.owner')}</Table.Th>
                <Table.Th>{t('rules.col.lastRun')}</Table.Th>
                <Table.Th ta="right">{t('rules.col.sends')}</Table.Th>
                <Table.Th ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((rule) => {
              const ctx = { ownerId: rule.ownerId };
              const canEdit = can('ui:rule.edit', ctx);
              const active = rule.status === 'active';
              return (
                <Table.Tr key={rule.id} data-testid="rule-row" data-rule-id={rule.id}>
                  <Table.Td maw={220}>
                    <Text size="sm" fw={600} truncate="end" title={rule.name}>{rule.name}</Text>
                  </Table.Td>
                  <Table.Td maw={280}>
                    <Text size="sm" data-testid="rule-kind">{t(`rules.kind.${rule.trigger.kind}`)}</Text>
                    <Text size="xs" c="dimmed" truncate="end">{triggerSummary(rule.trigger, rule.sendHour, t, choices.data?.choices ?? EMPTY_CHOICES)}</Text>
                  </Table.Td>
                  <Table.Td maw={220}>
                    {rule.messageName === null
                      ? <Text size="sm" c="red">{t('rules.messageGone')}</Text>
                      : <Text size="sm" truncate="end" title={rule.messageName}>{rule.messageName}</Text>}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={active ? 'teal' : 'gray'} tt="none" style={WHOLE} data-testid="rule-status">{t(`rules.status.${rule.status}`)}</Badge>
                  </Table.Td>
                  <Table.Td maw={160} visibleFrom="xl">
                    <Text size="sm" truncate="end">{rule.ownerName ?? t('rules.unknownOwner')}</Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Text size="sm" c={rule.lastRunAt ? undefined : 'dimmed'}>{rule.lastRunAt ? formatDateTime(rule.lastRunAt, lang) : t('rules.never')}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" data-testid="rule-sends">{rule.sends.toLocaleString(localeFor(lang))}</Text>
                  </Table.Td>
                  <Table.Td>
                    <EditDeleteIcons
                      before={
                        <>
                          <GatedIcon
                            allowed={canEdit}
                            label={active ? t('rules.pause') : t('rules.activate')}
                            variant="default"
                            size={26}
                            mr={4}
                            loading={switching === rule.id}
                            onClick={() => void setStatus(rule, !active)}
                            data-testid={active ? 'rule-pause' : 'rule-activate'}
                          >
                            {active ? <IconPlayerPause size={14} /> : <IconPlayerPlay size={14} />}
                          </GatedIcon>
                          <GatedIcon allowed={can('ui:rule.clone', ctx) && canCreate} label={t('rules.clone')} onClick={() => setDialog({ kind: 'clone', rule })}>
                            <IconCopy size={16} />
                          </GatedIcon>
                        </>
                      }
                      edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', rule }) }}
                      remove={{ allowed: can('ui:rule.delete', ctx), onClick: () => setDialog({ kind: 'delete', rule }) }}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <RuleDialog
          appId={app.id}
          timeZone={app.timezone}
          rule={dialog.kind === 'edit' ? dialog.rule : undefined}
          choices={choices.data?.choices ?? EMPTY_CHOICES}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            notifySuccess(dialog.kind === 'add' ? t('rules.created', { name: saved.name }) : t('common.saved'));
            setDialog(null);
            refetchAll();
          }}
        />
      )}
      {dialog?.kind === 'clone' && (
        <NameDialog
          title={t('rules.cloneTitle', { name: dialog.rule.name })}
          hint={t('rules.cloneHint')}
          submitLabel={t('rules.clone')}
          initialName={t('rules.cloneName', { name: dialog.rule.name }).slice(0, NAME_MAX)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { rule } = await api.call('cloneRule', { params: ids(dialog.rule), body: { name } });
            notifySuccess(t('rules.cloned', { name: rule.name }));
            setDialog(null);
            rules.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('rules.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('rules.deleteBody', { name: dialog.rule.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteRule', { params: ids(dialog.rule) });
          notifySuccess(t('rules.deleted', { name: dialog.rule.name }));
          rules.refetch();
        }}
      />
    </>
  );
}
