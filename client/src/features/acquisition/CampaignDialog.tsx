/**
 * Create or edit a campaign: name, source (with its provider), channel, pricing model and cost,
 * dates, status, where its clicks go (deep link, stores, web fallback) and its categories (saved
 * right after the campaign: a refusal of those is shown once the campaign is saved). Checked with
 * the shared `CampaignInput` before the call; the API's refusals land on their fields.
 */
import { useState } from 'react';
import { Divider, Group, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CampaignStatus, PricingModel } from '@gd/shared/acquisition/model';
import { CampaignInput, type Campaign, type Channel, type Source } from '@gd/shared/schemas/acquisition';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifyError } from '../../ui/notify.ts';
import { CategoryPicker } from '../../entities/category/CategoryPicker.tsx';
import { saveCategories, sameIds } from '../../entities/category/categories.ts';
import { CAMPAIGN_FIELDS, campaignBody, campaignFormValues, formField, type CampaignFormValues } from './campaignForm.ts';

export function CampaignDialog({ appId, campaign, categoryIds = [], sources, channels, onClose, onSaved }: {
  appId: string;
  campaign?: Campaign | undefined;
  /** The campaign's categories now. */
  categoryIds?: readonly string[];
  sources: Source[];
  channels: Channel[];
  onClose: () => void;
  onSaved: (campaign: Campaign) => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const [categories, setCategories] = useState<string[]>([...categoryIds]);
  const validateBody = schemaValidator<CampaignFormValues>(CampaignInput, t, {}, (v) => campaignBody(v, campaign?.destinations));
  const form = useForm<CampaignFormValues>({
    initialValues: campaignFormValues(campaign, { sourceId: sources[0]?.id ?? '' }),
    validate: (values) => Object.fromEntries(Object.entries(validateBody(values)).map(([path, text]) => [formField(path), text])),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = campaignBody(values, campaign?.destinations);
    try {
      const answer = campaign
        ? await api.call('updateCampaign', { params: { appId, campaignId: campaign.id }, body })
        : await api.call('createCampaign', { params: { appId }, body });
      if (!sameIds(categories, categoryIds)) {
        await saveCategories(appId, 'campaign', answer.campaign.id, categories).catch((error: unknown) => notifyError(t, error));
      }
      onSaved(answer.campaign);
    } catch (error) {
      const mapped = error instanceof ApiError ? new ApiError(error.code, error.message, error.details.map((d) => ({ ...d, path: formField(d.path) })), error.httpStatus) : error;
      const { fieldErrors, formError } = splitFailure(mapped, t, CAMPAIGN_FIELDS, (m) => (m === 'name_taken' ? t('errors.30') : undefined));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const model = form.values.pricingModel;
  return (
    <FormModal
      title={campaign ? t('acquisition.apptracker.editTitle') : t('acquisition.apptracker.addTitle')}
      failure={failure}
      submitLabel={campaign ? t('common.save') : t('acquisition.apptracker.add')}
      submitting={form.submitting}
      submitTestId="campaign-submit"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('acquisition.apptracker.fields.name')} placeholder={t('acquisition.apptracker.placeholders.name')} required data-autofocus {...form.getInputProps('name')} />
      <CategoryPicker entityType="campaign" value={categories} onChange={setCategories} testId="campaign-categories" />
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label={t('acquisition.apptracker.fields.source')}
          required
          allowDeselect={false}
          searchable
          data={sources.map((s) => ({ value: s.id, label: s.accountProviderName ? `${s.name} · ${s.accountProviderName}` : s.name }))}
          data-testid="campaign-source"
          {...form.getInputProps('sourceId')}
        />
        <Select
          label={t('acquisition.apptracker.fields.channel')}
          placeholder={t('acquisition.apptracker.noChannel')}
          clearable
          data={channels.map((c) => ({ value: c.id, label: c.name }))}
          {...form.getInputProps('channelId')}
          value={form.values.channelId || null}
          onChange={(v: string | null) => form.setFieldValue('channelId', v ?? '')}
        />
      </SimpleGrid>
      <SimpleGrid cols={3} spacing="sm">
        <Select
          label={t('acquisition.apptracker.fields.pricingModel')}
          required
          allowDeselect={false}
          data={PricingModel.options.map((m) => ({ value: m, label: `${t(`acquisition.pricing.${m}`)} · ${t(`acquisition.pricingHint.${m}`)}` }))}
          data-testid="campaign-pricing"
          {...form.getInputProps('pricingModel')}
        />
        <NumberInput
          label={model === 'fixed' ? t('acquisition.apptracker.fields.costValueFixed') : t('acquisition.apptracker.fields.costValue')}
          min={0}
          decimalScale={4}
          data-testid="campaign-cost"
          {...form.getInputProps('costValue')}
        />
        <TextInput label={t('acquisition.apptracker.fields.currency')} maxLength={3} {...form.getInputProps('currency')} />
      </SimpleGrid>
      {model === 'cpa' && (
        <TextInput
          label={t('acquisition.apptracker.fields.costEvent')}
          description={t('acquisition.apptracker.costEventHint')}
          placeholder={t('acquisition.apptracker.placeholders.costEvent')}
          required
          {...form.getInputProps('costEvent')}
        />
      )}
      <SimpleGrid cols={3} spacing="sm">
        <TextInput type="date" label={t('acquisition.apptracker.fields.startDay')} {...form.getInputProps('startDay')} />
        <TextInput type="date" label={t('acquisition.apptracker.fields.endDay')} {...form.getInputProps('endDay')} />
        <Select
          label={t('acquisition.apptracker.fields.status')}
          allowDeselect={false}
          data={CampaignStatus.options.map((s) => ({ value: s, label: t(`acquisition.status.${s}`) }))}
          {...form.getInputProps('status')}
        />
      </SimpleGrid>
      <Divider label={t('acquisition.apptracker.fields.destinations')} labelPosition="left" />
      <TextInput
        label={t('acquisition.apptracker.fields.deepLink')}
        description={t('acquisition.apptracker.deepLinkHint')}
        placeholder={t('acquisition.apptracker.placeholders.deepLink')}
        {...form.getInputProps('deepLink')}
      />
      <Group grow gap="sm" align="flex-start">
        <TextInput label={t('acquisition.apptracker.fields.iosStore')} placeholder={t('acquisition.apptracker.placeholders.store')} {...form.getInputProps('iosStore')} />
        <TextInput label={t('acquisition.apptracker.fields.androidStore')} placeholder={t('acquisition.apptracker.placeholders.store')} {...form.getInputProps('androidStore')} />
      </Group>
      <TextInput label={t('acquisition.apptracker.fields.web')} placeholder={t('acquisition.apptracker.placeholders.web')} {...form.getInputProps('web')} />
    </FormModal>
  );
}
