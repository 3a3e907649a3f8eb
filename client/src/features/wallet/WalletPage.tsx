/**
 * /products/wallet: digital passes of the app (shared wallet/model.ts says what they are). The
 * account's signing settings on top (Apple certificate with its fingerprint, Google issuer; what
 * to add when missing), then the app's pass designs (designer with live preview; issue a pass
 * from a design) and the passes issued (links, redemptions, redeem a scan, void). Reading needs
 * the route key; every change `api:wallet.edit` (endpoints/wallet.ts).
 */
import { useState } from 'react';
import { Badge, Box, Group, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconId, IconPlus, IconTicket } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { WalletDesign } from '@gd/shared/schemas/wallet';
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
import { DesignDialog } from './DesignDialog.tsx';
import { IssueDialog } from './IssueDialog.tsx';
import { PassesTab } from './PassesTab.tsx';
import { SigningPanel } from './SigningPanel.tsx';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; design: WalletDesign } | { kind: 'issue'; designId?: string } | null;

/** A badge keeps its whole word when the table is narrow (a laptop, Spanish): the long columns give way instead. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export default function WalletPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.wallet')} descriptionNoApp={t('wallet.descriptionNoApp')}>{(app) => <Wallet app={app} />}</AppScreen>;
}

function Swatch({ colour }: { colour: string }) {
  return <Box w={16} h={16} style={{ background: colour, borderRadius: 4, border: '1px solid var(--mantine-color-default-border)' }} />;
}

function Wallet({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const canView = can('route:/products/wallet');
  const canEdit = can('api:wallet.edit');
  const designs = useApiQuery('walletDesigns', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const signing = useApiQuery('walletSigning', { enabled: canView });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tab, setTab] = useState<string>('designs');
  const [issued, setIssued] = useState(0);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>{t('wallet.designs.add')}</GatedButton>
  );
  const header = <PageHeader title={t('nav.wallet')} description={t('wallet.description', { app: app.name })} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('wallet.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <Text size="sm" fw={600} mb="xs">{t('wallet.signing.title')}</Text>
      <DataState query={signing} rows={2}>
        {({ signing: settings }) => <SigningPanel signing={settings} canEdit={canEdit} onChanged={() => { signing.refetch(); setIssued((n) => n + 1); }} />}
      </DataState>
      <DataState query={designs}>
        {({ designs: list }) => (
          <Tabs value={tab} onChange={(v) => setTab(v ?? 'designs')} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="designs" leftSection={<IconId size={16} />}>{t('wallet.tabs.designs')}</Tabs.Tab>
              <Tabs.Tab value="passes" leftSection={<IconTicket size={16} />} data-testid="tab-passes">{t('wallet.tabs.passes')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="designs">
              <ListTable
                isEmpty={list.length === 0}
                empty={<EmptyBlock icon={<IconId size={28} />} title={t('wallet.designs.emptyTitle')} description={t('wallet.designs.emptyBody')} action={addButton} />}
                label={t('wallet.tabs.designs')}
                minWidth={860}
                head={
                  <>
                    <Table.Th>{t('wallet.designer.name')}</Table.Th>
                    <Table.Th>{t('wallet.designer.kind')}</Table.Th>
                    <Table.Th>{t('wallet.designs.colours')}</Table.Th>
                    <Table.Th>{t('wallet.designer.barcodeFormat')}</Table.Th>
                    <Table.Th ta="right">{t('wallet.designs.passes')}</Table.Th>
                    <Table.Th>{t('wallet.designs.updated')}</Table.Th>
                    <Table.Th ta="right">{t('common.actions')}</Table.Th>
                  </>
                }
              >
                {list.map((design) => (
                  <Table.Tr key={design.id} data-testid="design-row">
                    <Table.Td maw={280}>
                      <Text size="sm" fw={600} truncate="end">{design.name}</Text>
                      <Text size="xs" c="dimmed" truncate="end">{design.design.description}</Text>
                    </Table.Td>
                    <Table.Td><Badge variant="light" color={design.kind === 'coupon' ? 'orange' : 'indigo'} tt="none" style={WHOLE}>{t(`wallet.kind.${design.kind}`)}</Badge></Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('wallet.designer.backgroundColor')}><div><Swatch colour={design.design.backgroundColor} /></div></Tooltip>
                        <Tooltip label={t('wallet.designer.foregroundColor')}><div><Swatch colour={design.design.foregroundColor} /></div></Tooltip>
                        <Tooltip label={t('wallet.designer.labelColor')}><div><Swatch colour={design.design.labelColor} /></div></Tooltip>
                      </Group>
                    </Table.Td>
                    <Table.Td><Text size="sm">{t(`wallet.barcode.${design.design.barcodeFormat}`)}</Text></Table.Td>
                    <Table.Td ta="right"><Text size="sm" className="gd-num">{design.passes.toLocaleString(lang)}</Text></Table.Td>
                    <Table.Td><Text size="sm" c="dimmed">{formatDate(design.updatedAt, lang)}</Text></Table.Td>
                    <Table.Td>
                      <EditDeleteIcons
                        before={<GatedButton allowed={canEdit} size="compact-sm" variant="light" mr={4} onClick={() => setDialog({ kind: 'issue', designId: design.id })} data-testid="design-issue">{t('wallet.designs.issue')}</GatedButton>}
                        edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', design }) }}
                        remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', design }) }}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ListTable>
            </Tabs.Panel>
            <Tabs.Panel value="passes">
              <PassesTab appId={app.id} designs={list} canEdit={canEdit} version={issued} onChanged={() => designs.refetch()} />
            </Tabs.Panel>
            {dialog?.kind === 'issue' && (
              <IssueDialog
                appId={app.id} designs={list} designId={dialog.designId}
                onClose={() => setDialog(null)}
                onIssued={() => {
                  notifySuccess(t('wallet.issue.issued'));
                  setDialog(null);
                  setIssued((n) => n + 1);
                  designs.refetch();
                  setTab('passes');
                }}
              />
            )}
          </Tabs>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <DesignDialog
          appId={app.id}
          appName={app.name}
          design={dialog.kind === 'edit' ? dialog.design : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('wallet.designs.created') : t('common.saved'));
            setDialog(null);
            designs.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('wallet.designs.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('wallet.designs.deleteBody', { name: dialog.design.name, count: dialog.design.passes }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteWalletDesign', { params: { appId: app.id, designId: dialog.design.id } });
          notifySuccess(t('wallet.designs.deleted'));
          designs.refetch();
          setIssued((n) => n + 1);
        }}
      />
    </>
  );
}
