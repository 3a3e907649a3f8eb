/**
 * Issue a pass to a person: pick the design and the person (searched by customer id, e-mail or
 * device id); a coupon takes an approved coupon message (its promo code and max redeems shown), a
 * loyalty card its card number (Luhn), security code and member name, checked with the shared
 * patterns before sending.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { isCardNumber, isSecurityCode } from '@gd/shared/formats';
import type { PersonSummary } from '@gd/shared/schemas/people';
import type { WalletDesign, WalletPass } from '@gd/shared/schemas/wallet';
import { normaliseCardNumber } from '@gd/shared/wallet/model';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { splitFailure } from '../../ui/forms.ts';

interface IssueValues { designId: string; personId: string; messageId: string; cardNumber: string; securityCode: string; memberName: string }

/** A person search box: what the app's people search finds for the typed text. */
function PersonPicker({ appId, value, onChange, error }: { appId: string; value: string; onChange: (id: string) => void; error?: string | undefined }) {
  const { t } = useT();
  const [search, setSearch] = useState('');
  const [people, setPeople] = useState<PersonSummary[]>([]);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      api.call('searchPeople', { params: { appId }, query: { q: search } })
        .then((answer) => { if (current) setPeople(answer.people); })
        .catch(() => { if (current) setPeople([]); });
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [appId, search]);
  const data = people.map((p) => ({ value: p.id, label: [p.customerId ?? `#${p.id}`, p.name, p.email].filter(Boolean).join(' · ') }));
  return (
    <Select
      label={t('wallet.issue.person')} placeholder={t('wallet.issue.personPlaceholder')} searchable required withAsterisk={false}
      data={data} value={value || null} onChange={(v) => onChange(v ?? '')} searchValue={search} onSearchChange={setSearch}
      filter={({ options }) => options} nothingFoundMessage={t('wallet.issue.personNone')} error={error} data-testid="issue-person"
    />
  );
}

export function IssueDialog({ appId, designs, designId, onClose, onIssued }: { appId: string; designs: WalletDesign[]; designId?: string | undefined; onClose: () => void; onIssued: (pass: WalletPass) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const coupons = useApiQuery('walletCouponMessages', { params: { appId }, scope: 'app' });
  const form = useForm<IssueValues>({
    initialValues: { designId: designId ?? designs[0]?.id ?? '', personId: '', messageId: '', cardNumber: '', securityCode: '', memberName: '' },
    validate: (v) => {
      const design = designs.find((d) => d.id === v.designId);
      const errors: Record<string, string> = {};
      if (!design) errors.designId = t('validation.required');
      if (!v.personId) errors.personId = t('validation.required');
      if (design?.kind === 'coupon' && !v.messageId) errors.messageId = t('validation.required');
      if (design?.kind === 'loyalty') {
        if (!isCardNumber(normaliseCardNumber(v.cardNumber.trim()))) errors.cardNumber = t('wallet.issue.badCardNumber');
        if (!isSecurityCode(v.securityCode.trim())) errors.securityCode = t('wallet.issue.badSecurityCode');
      }
      return errors;
    },
  });
  const design = designs.find((d) => d.id === form.values.designId);
  const messages = useMemo(() => coupons.data?.messages ?? [], [coupons.data]);
  const chosen = messages.find((m) => m.id === form.values.messageId);

  const submit = form.onSubmit(async (v) => {
    setFailure(null);
    if (!design) return;
    try {
      const body = design.kind === 'coupon'
        ? { kind: 'coupon' as const, designId: design.id, personId: v.personId, messageId: v.messageId }
        : { kind: 'loyalty' as const, designId: design.id, personId: v.personId, cardNumber: v.cardNumber, securityCode: v.securityCode, memberName: v.memberName };
      const { pass } = await api.call('issueWalletPass', { params: { appId }, body });
      onIssued(pass);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['designId', 'personId', 'messageId', 'cardNumber', 'securityCode', 'memberName']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <FormModal title={t('wallet.issue.title')} failure={failure} submitLabel={t('wallet.issue.submit')} submitting={form.submitting} submitTestId="issue-save" onSubmit={submit} onClose={onClose}>
      <Select
        label={t('wallet.issue.design')} allowDeselect={false} required withAsterisk={false}
        data={designs.map((d) => ({ value: d.id, label: `${d.name} · ${t(`wallet.kind.${d.kind}`)}` }))}
        {...form.getInputProps('designId')}
      />
      <PersonPicker appId={appId} value={form.values.personId} onChange={(id) => form.setFieldValue('personId', id)} error={form.errors.personId as string | undefined} />
      {design?.kind === 'coupon' && (
        messages.length === 0 && coupons.data ? (
          <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} data-testid="no-coupons">{t('wallet.issue.messageNone')}</Alert>
        ) : (
          <Stack gap={4}>
            <Select
              label={t('wallet.issue.message')} required withAsterisk={false} allowDeselect={false} data-testid="issue-message"
              data={messages.map((m) => ({ value: m.id, label: t('wallet.issue.messageOption', { name: m.name, code: m.promoCode }) }))}
              {...form.getInputProps('messageId')}
            />
            {chosen && (
              <Group gap="lg">
                <Text size="xs" c="dimmed">{t('wallet.issue.promoCode')}: <Text span className="gd-mono" c="var(--mantine-color-text)">{chosen.promoCode}</Text></Text>
                <Text size="xs" c="dimmed">{t('wallet.issue.maxRedeems')}: <Text span c="var(--mantine-color-text)">{chosen.maxRedeems ?? t('wallet.issue.unlimited')}</Text></Text>
              </Group>
            )}
          </Stack>
        )
      )}
      {design?.kind === 'loyalty' && (
        <>
          <TextInput label={t('wallet.issue.cardNumber')} description={t('wallet.issue.cardNumberHint')} inputMode="numeric" autoComplete="off" classNames={{ input: 'gd-mono' }} required withAsterisk={false} {...form.getInputProps('cardNumber')} />
          <Group grow align="flex-start">
            <PasswordInput label={t('wallet.issue.securityCode')} description={t('wallet.issue.securityCodeHint')} inputMode="numeric" autoComplete="off" required withAsterisk={false} {...form.getInputProps('securityCode')} />
            <TextInput label={t('wallet.issue.memberName')} description={t('common.optional')} {...form.getInputProps('memberName')} />
          </Group>
        </>
      )}
    </FormModal>
  );
}
