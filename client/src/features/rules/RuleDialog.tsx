/**
 * Create or edit an automatic rule: its name, when it fires (the kind and that kind's
 * parameters), the approved rule message it sends, and for the daily kinds the hour on the app's
 * clock. Checks are the shared ones (ruleForm.ts); the message list comes from `ruleChoices`.
 */
import { useState } from 'react';
import { Group, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors, type UseFormReturnType } from '@mantine/form';
import { RuleKind, isTimeRule, type TagOperator } from '@gd/shared/rules/model';
import type { Rule, RuleChoices } from '@gd/shared/schemas/rules';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { initialRuleValues, operatorsFor, ruleBody, ruleFailure, validateRuleForm, type RuleFormValues } from './ruleForm.ts';

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));

export function RuleDialog({ appId, timeZone, rule, choices, onClose, onSaved }: {
  appId: string;
  timeZone: string;
  rule?: Rule | undefined;
  choices: RuleChoices;
  onClose: () => void;
  onSaved: (rule: Rule) => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<RuleFormValues>({ initialValues: initialRuleValues(rule), validate: (values) => validateRuleForm(values, t, choices) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = ruleBody(values, choices);
    try {
      const saved = rule
        ? await api.call('updateRule', { params: { appId, ruleId: rule.id }, body })
        : await api.call('createRule', { params: { appId }, body });
      onSaved(saved.rule);
    } catch (error) {
      const { fieldErrors, formError } = ruleFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const v = form.values;
  const operators = operatorsFor(v, choices);
  const messages = choices.messages.map((m) => ({ value: m.id, label: m.approved ? m.name : `${m.name} (${t('rules.fields.notApproved')})`, disabled: !m.approved && m.id !== v.messageId }));

  return (
    <FormModal
      title={rule ? t('rules.editTitle') : t('rules.addTitle')}
      failure={failure}
      submitLabel={rule ? t('common.save') : t('rules.add')}
      submitting={form.submitting}
      submitTestId="rule-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('rules.fields.name')} required data-autofocus {...form.getInputProps('name')} />
      <Select
        label={t('rules.fields.kind')}
        description={t(`rules.kindHint.${v.kind}`)}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        required
        allowDeselect={false}
        data={RuleKind.options.map((kind) => ({ value: kind, label: t(`rules.kind.${kind}`) }))}
        data-testid="rule-kind"
        {...form.getInputProps('kind')}
        onChange={(value: string | null) => {
          if (value) form.setFieldValue('kind', RuleKind.parse(value));
        }}
      />
      <KindFields form={form} choices={choices} operators={operators} />
      {isTimeRule(v.kind) && (
        <Select
          label={t('rules.fields.sendHour')}
          description={t('rules.fields.sendHourHint', { zone: timeZone })}
          required
          allowDeselect={false}
          w={220}
          data={HOURS}
          data-testid="rule-send-hour"
          {...form.getInputProps('sendHour')}
        />
      )}
      <Stack gap={4}>
        <Select
          label={t('rules.fields.message')}
          description={t('rules.fields.messageHint')}
          required
          searchable
          data={messages}
          data-testid="rule-message"
          {...form.getInputProps('messageId')}
          onChange={(value: string | null) => form.setFieldValue('messageId', value ?? '')}
        />
        {choices.messages.every((m) => !m.approved) && <Text size="xs" c="orange" data-testid="rule-no-message">{t('rules.fields.messageNone')}</Text>}
      </Stack>
    </FormModal>
  );
}

type Form = UseFormReturnType<RuleFormValues, RuleFormValues, (values: RuleFormValues) => FormErrors>;

/** The chosen kind's parameters. */
function KindFields({ form, choices, operators }: { form: Form; choices: RuleChoices; operators: readonly TagOperator[] }) {
  const { t } = useT();
  const v = form.values;
  switch (v.kind) {
    case 'birthday':
    case 'registered_yesterday':
      return null;
    case 'onscreen':
      return <TextInput label={t('rules.fields.screen')} required {...form.getInputProps('screen')} />;
    case 'coupon_redeemed':
      return (
        <Select
          label={t('rules.fields.coupon')}
          data={[{ value: '', label: t('rules.fields.couponAny') }, ...choices.coupons.map((c) => ({ value: c.id, label: c.name }))]}
          allowDeselect={false}
          {...form.getInputProps('couponId')}
          onChange={(value: string | null) => form.setFieldValue('couponId', value ?? '')}
        />
      );
    case 'spent_at_least':
      return (
        <>
          <Stack gap={6}>
            <Text size="sm" fw={500} id="rule-per-label">{t('rules.fields.per')}</Text>
            <SegmentedControl
              aria-labelledby="rule-per-label"
              data={(['purchase', 'total'] as const).map((per) => ({ value: per, label: t(`rules.per.${per}`) }))}
              value={v.per}
              onChange={(value) => form.setFieldValue('per', value === 'total' ? 'total' : 'purchase')}
            />
          </Stack>
          <Group align="flex-start" grow>
            <NumberInput label={t('rules.fields.amount')} description={t('rules.fields.amountHint')} inputWrapperOrder={['label', 'input', 'error', 'description']} required min={0} decimalScale={2} hideControls {...form.getInputProps('amount')} />
            {v.per === 'total' && (
              <NumberInput label={t('rules.fields.days')} description={t('rules.fields.daysHint')} inputWrapperOrder={['label', 'input', 'error', 'description']} min={1} max={3650} allowDecimal={false} hideControls {...form.getInputProps('days')} />
            )}
          </Group>
        </>
      );
    case 'purchased_product':
      return <TextInput label={t('rules.fields.product')} description={t('rules.fields.productHint')} required classNames={{ input: 'gd-mono' }} {...form.getInputProps('productId')} />;
    case 'tag_value':
      return (
        <Group align="flex-start" grow>
          <Select
            label={t('rules.fields.tag')}
            required
            searchable
            data={choices.tags.map((tag) => ({ value: tag.id, label: tag.name }))}
            {...form.getInputProps('tagId')}
            onChange={(value: string | null) => {
              const next = operatorsFor({ tagId: value ?? '' }, choices);
              form.setValues({ tagId: value ?? '', operator: next.includes(v.operator) ? v.operator : (next[0] ?? 'equals') });
            }}
          />
          <Select
            label={t('rules.fields.operator')}
            required
            allowDeselect={false}
            data={operators.map((op) => ({ value: op, label: t(`rules.operator.${op}`) }))}
            {...form.getInputProps('operator')}
          />
          <TextInput label={t('rules.fields.value')} required {...form.getInputProps('value')} />
        </Group>
      );
    case 'event_made':
      return <TextInput label={t('rules.fields.event')} required classNames={{ input: 'gd-mono' }} {...form.getInputProps('eventId')} />;
  }
}
