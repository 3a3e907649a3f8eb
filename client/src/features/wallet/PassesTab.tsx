/**
 * Issued passes of the app, newest first, optionally of one design: the person, the code or card
 * number, redemptions against max redeems, status, and the links (the pass page; the Apple and
 * Google links only once the account signs for that wallet). Store staff redeem a scanned coupon
 * here ("Redeem a scan"); a pass can be voided.
 */
import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Group, Select, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBan, IconBrandApple, IconBrandGoogle, IconCircleCheck, IconExternalLink, IconScan, IconTicket } from '@tabler/icons-react';
import type { WalletDesign, WalletPass } from '@gd/shared/schemas/wallet';
import { formatCardNumber } from '@gd/shared/wallet/model';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { redeemIssueText } from './walletForm.ts';

/** A badge keeps its whole word when the table is narrow (a laptop, Spanish): the long columns give way instead. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export function PassesTab({ appId, designs, canEdit, version, onChanged }: { appId: string; designs: WalletDesign[]; canEdit: boolean; version: number; onChanged: () => void }) {
  const { t, lang } = useT();
  const [designId, setDesignId] = useState<string | null>(null);
  const passes = useApiQuery('walletPasses', { params: { appId }, query: designId ? { designId } : {}, scope: 'app' });
  const { refetch } = passes;
  // A pass issued from the designs tab: read the list again.
  useEffect(() => {
    if (version > 0) refetch();
  }, [version, refetch]);
  const [voiding, setVoiding] = useState<WalletPass | null>(null);
  const [redeeming, setRedeeming] = useState(false);
  const refresh = () => {
    passes.refetch();
    onChanged();
  };

  return (
    <>
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Select
          w={260} aria-label={t('wallet.passes.filterDesign')} value={designId ?? ''} allowDeselect={false}
          data={[{ value: '', label: t('wallet.passes.allDesigns') }, ...designs.map((d) => ({ value: d.id, label: d.name }))]}
          onChange={(v) => setDesignId(v || null)}
        />
        <GatedButton allowed={canEdit} variant="light" leftSection={<IconScan size={16} />} onClick={() => setRedeeming(true)} data-testid="redeem-open">{t('wallet.passes.redeem')}</GatedButton>
      </Group>
      <DataState query={passes}>
        {({ passes: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconTicket size={28} />} title={t('wallet.passes.emptyTitle')} description={t('wallet.passes.emptyBody')} />}
            label={t('wallet.tabs.passes')}
            minWidth={920}
            head={
              <>
                <Table.Th>{t('wallet.passes.person')}</Table.Th>
                <Table.Th>{t('wallet.passes.design')}</Table.Th>
                <Table.Th>{t('wallet.passes.code')}</Table.Th>
                <Table.Th ta="right">{t('wallet.passes.redeems')}</Table.Th>
                <Table.Th>{t('wallet.passes.links')}</Table.Th>
                <Table.Th ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((pass) => (
              <Table.Tr key={pass.id} data-testid="pass-row">
                <Table.Td maw={200}>
                  <Text size="sm" fw={600} truncate="end">{pass.memberName || pass.customerId || `#${pass.personId}`}</Text>
                  <Text size="xs" c="dimmed" truncate="end" title={t('wallet.passes.created')}>
                    {[pass.memberName ? pass.customerId : null, formatDate(pass.createdAt, lang)].filter(Boolean).join(' · ')}
                  </Text>
                </Table.Td>
                <Table.Td maw={220}>
                  <Text size="sm" truncate="end">{pass.designName}</Text>
                  <Group gap={4} wrap="nowrap">
                    <Badge size="xs" variant="light" color={pass.kind === 'coupon' ? 'orange' : 'indigo'} tt="none" style={WHOLE}>{t(`wallet.kind.${pass.kind}`)}</Badge>
                    {pass.status === 'voided' && <Badge size="xs" variant="light" color="red" tt="none" style={WHOLE} data-testid="pass-void">{t('wallet.status.voided')}</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" className="gd-mono" data-testid="pass-code">{pass.kind === 'loyalty' && pass.cardNumber ? formatCardNumber(pass.cardNumber) : pass.barcode}</Text>
                  {pass.promoCode && <Text size="xs" c="dimmed" truncate="end">{pass.messageName} · {pass.promoCode}</Text>}
                </Table.Td>
                <Table.Td ta="right">
                  {pass.kind === 'coupon' ? (
                    <Text size="sm" className="gd-num" data-testid="pass-redeems">
                      {pass.maxRedeems ? t('wallet.passes.redeemsOf', { count: pass.redeems, max: pass.maxRedeems }) : pass.redeems}
                    </Text>
                  ) : <Tooltip label={t('wallet.passes.noRedeemsOnCards')}><Text size="sm" c="dimmed">—</Text></Tooltip>}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <CopyField value={pass.publicUrl} shown={t('wallet.passes.pageLink')} label={t('wallet.passes.copyLink')} size="sm" />
                    <Tooltip label={t('wallet.passes.pageLink')}>
                      <ActionIcon component="a" href={pass.publicUrl} target="_blank" rel="noopener" variant="subtle" color="gray" size="sm" aria-label={t('wallet.passes.pageLink')}><IconExternalLink size={14} /></ActionIcon>
                    </Tooltip>
                    {pass.appleUrl && (
                      <Tooltip label={t('wallet.passes.appleLink')}>
                        <ActionIcon component="a" href={pass.appleUrl} variant="subtle" color="gray" size="sm" aria-label={t('wallet.passes.appleLink')} data-testid="pass-apple"><IconBrandApple size={14} /></ActionIcon>
                      </Tooltip>
                    )}
                    {pass.googleUrl && (
                      <Tooltip label={t('wallet.passes.googleLink')}>
                        <Anchor href={pass.googleUrl} target="_blank" rel="noopener" aria-label={t('wallet.passes.googleLink')} data-testid="pass-google" c="gray"><IconBrandGoogle size={14} /></Anchor>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <GatedIcon allowed={canEdit && pass.status === 'active'} label={t('wallet.passes.void')} onClick={() => setVoiding(pass)}><IconBan size={16} /></GatedIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {redeeming && <RedeemDialog appId={appId} onClose={() => setRedeeming(false)} onRedeemed={refresh} />}
      <ConfirmDialog
        opened={voiding !== null}
        title={t('wallet.passes.voidTitle')}
        message={t('wallet.passes.voidBody')}
        confirmLabel={t('wallet.passes.void')}
        danger
        onClose={() => setVoiding(null)}
        onConfirm={async () => {
          if (!voiding) return;
          await api.call('voidWalletPass', { params: { appId, passId: voiding.id } });
          notifySuccess(t('wallet.passes.voided'));
          refresh();
        }}
      />
    </>
  );
}

/** Type or scan a coupon's code: the outcome stays in the dialog, so a till can scan the next one. */
function RedeemDialog({ appId, onClose, onRedeemed }: { appId: string; onClose: () => void; onRedeemed: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<{ redeems: number; left: number | null } | null>(null);
  const form = useForm({ initialValues: { barcode: '' }, validate: { barcode: (v) => (v.trim() ? null : t('validation.required')) } });
  const submit = form.onSubmit(async ({ barcode }) => {
    setFailure(null);
    setDone(null);
    try {
      const answer = await api.call('redeemWalletPass', { params: { appId }, body: { barcode: barcode.trim().toUpperCase() } });
      setDone({ redeems: answer.redeems, left: answer.redeemsLeft });
      form.setValues({ barcode: '' });
      onRedeemed();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['barcode'], (m) => redeemIssueText(t, m));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal title={t('wallet.redeem.title')} intro={t('wallet.redeem.intro')} failure={failure} submitLabel={t('wallet.redeem.submit')} submitting={form.submitting} submitTestId="redeem-save" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('wallet.redeem.barcode')} data-autofocus autoComplete="off" classNames={{ input: 'gd-mono' }} {...form.getInputProps('barcode')} />
      {done && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status" data-testid="redeem-done">
          {t('wallet.redeem.done', { count: done.redeems })} {done.left === null ? t('wallet.redeem.unlimited') : t('wallet.redeem.left', { count: done.left })}
        </Alert>
      )}
    </FormModal>
  );
}
