/** Publish or edit an offer: provider, campaign, title, description, image, payout, destination and status. */
import { useState } from 'react';
import { NumberInput, Select, SimpleGrid, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SkudoOfferInput, type SkudoCampaign, type SkudoOffer, type SkudoProvider } from '@gd/shared/schemas/skudo';
import { SkudoOfferStatus, SkudoPayoutModel, type SkudoOfferStatus as OfferStatus, type SkudoPayoutModel as PayoutModel } from '@gd/shared/skudo/model';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

interface Values {
  providerId: string; campaignId: string; title: string; description: string; imageUrl: string;
  payoutModel: PayoutModel; payoutAmount: number | string; currency: string; destinationUrl: string; status: OfferStatus;
}
const FIELDS = ['providerId', 'campaignId', 'title', 'description', 'imageUrl', 'payoutModel', 'payoutAmount', 'currency', 'destinationUrl', 'status'];

/** The request body of the form's values (an empty amount is left for the schema to refuse). */
export const offerBody = (v: Values) => ({
  ...v, campaignId: v.campaignId === '' ? null : v.campaignId, payoutAmount: typeof v.payoutAmount === 'number' ? v.payoutAmount : Number.NaN,
});

export function OfferDialog({ offer, providers, campaigns, onClose, onSaved }: {
  offer?: SkudoOffer | undefined; providers: SkudoProvider[]; campaigns: SkudoCampaign[]; onClose: () => void; onSaved: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values>({
    initialValues: {
      providerId: offer?.providerId ?? providers[0]?.id ?? '', campaignId: offer?.campaignId ?? '', title: offer?.title ?? '', description: offer?.description ?? '',
      imageUrl: offer?.imageUrl ?? '', payoutModel: offer?.payoutModel ?? 'cpa', payoutAmount: offer?.payoutAmount ?? '', currency: offer?.currency ?? 'USD',
      destinationUrl: offer?.destinationUrl ?? '', status: offer?.status ?? 'draft',
    },
    validate: schemaValidator(SkudoOfferInput, t, {
      destinationUrl: 'skudo.offers.invalidUrl', imageUrl: 'skudo.offers.invalidImage', currency: 'skudo.offers.invalidCurrency',
    }, offerBody),
  });
  const percent = form.values.payoutModel === 'cps';
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = offerBody(values);
      if (offer) await api.call('updateSkudoOffer', { params: { offerId: offer.id }, body });
      else await api.call('createSkudoOffer', { body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal
      title={offer ? t('skudo.offers.editTitle') : t('skudo.offers.addTitle')}
      failure={failure}
      submitLabel={offer ? t('common.save') : t('skudo.offers.add')}
      submitting={form.submitting}
      submitTestId="skudo-offer-save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('skudo.offers.fields.title')} required data-autofocus {...form.getInputProps('title')} />
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label={t('skudo.offers.provider')}
          required
          allowDeselect={false}
          data={providers.map((p) => ({ value: p.id, label: p.name }))}
          {...form.getInputProps('providerId')}
        />
        <Select
          label={t('skudo.offers.campaign')}
          clearable
          placeholder={t('skudo.offers.noCampaign')}
          data={campaigns.map((c) => ({ value: c.id, label: c.name }))}
          {...form.getInputProps('campaignId')}
          value={form.values.campaignId || null}
          onChange={(value: string | null) => form.setFieldValue('campaignId', value ?? '')}
        />
      </SimpleGrid>
      <Textarea label={t('skudo.offers.fields.description')} autosize minRows={2} maxRows={5} {...form.getInputProps('description')} />
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label={t('skudo.offers.fields.payoutModel')}
          allowDeselect={false}
          data={SkudoPayoutModel.map((m) => ({ value: m, label: t(`skudo.payout.${m}`) }))}
          {...form.getInputProps('payoutModel')}
        />
        <NumberInput
          label={t('skudo.offers.fields.payoutAmount')}
          required
          withAsterisk={false}
          min={0}
          decimalScale={2}
          hideControls
          rightSection={percent ? '%' : undefined}
          description={percent ? t('skudo.offers.fields.percentHint') : undefined}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
          {...form.getInputProps('payoutAmount')}
        />
        <TextInput label={t('skudo.offers.fields.currency')} maxLength={3} disabled={percent} classNames={{ input: 'gd-mono' }} {...form.getInputProps('currency')} />
        <Select
          label={t('skudo.offers.fields.status')}
          allowDeselect={false}
          data={SkudoOfferStatus.map((s) => ({ value: s, label: t(`skudo.status.${s}`) }))}
          {...form.getInputProps('status')}
        />
      </SimpleGrid>
      <TextInput
        label={t('skudo.offers.fields.destinationUrl')}
        required
        placeholder="https://"
        description={t('skudo.offers.fields.destinationHint')}
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        {...form.getInputProps('destinationUrl')}
      />
      <TextInput label={t('skudo.offers.fields.imageUrl')} placeholder="https://" description={t('skudo.offers.fields.imageHint')} inputWrapperOrder={['label', 'input', 'error', 'description']} {...form.getInputProps('imageUrl')} />
    </FormModal>
  );
}
