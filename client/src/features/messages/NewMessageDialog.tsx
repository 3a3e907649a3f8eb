/**
 * "New message": its name, its type (grouped by communication group), who sends it (its origin: by
 * hand, a journey, an automatic rule; fixed once created, like its type) and its campaign, an
 * existing one of the app or a new one (named, or named after the message), and the message's
 * categories (given once it exists). The API's refusal shows on the field it names, or above the
 * fields.
 */
import { useState } from 'react';
import { SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NAME_MAX } from '@gd/shared/schemas/common';
import { MessageOrigin } from '@gd/shared/message/draft';
import type { CommunicationType } from '@gd/shared/message/model';
import type { MessageSummary } from '@gd/shared/schemas/messages';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { splitFailure } from '../../ui/forms.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { CategoryPicker } from '../../entities/category/CategoryPicker.tsx';
import { saveCategories } from '../../entities/category/categories.ts';
import { usePermissions } from '../../session/permissions.ts';
import { typeOptions } from './MessageList.tsx';

interface Values {
  name: string;
  type: CommunicationType;
  origin: MessageOrigin;
  mode: 'existing' | 'new';
  campaignId: string;
  campaignName: string;
}

export function NewMessageDialog({ appId, initialType = 'push', initialOrigin = 'classic', onClose, onCreated }: {
  appId: string; initialType?: CommunicationType; initialOrigin?: MessageOrigin; onClose: () => void; onCreated: (message: MessageSummary) => void;
}) {
  const { t } = useT();
  const campaigns = useApiQuery('listCampaigns', { params: { appId }, scope: 'app' });
  const [failure, setFailure] = useState<unknown>(null);
  const [categories, setCategories] = useState<string[]>([]);
  const canCategorise = usePermissions('app')('api:categories.edit');
  const form = useForm<Values>({
    initialValues: { name: '', type: initialType, origin: initialOrigin, mode: 'new', campaignId: '', campaignName: '' },
    validate: {
      name: (v) => (v.trim() === '' ? t('validation.required') : v.trim().length > NAME_MAX ? t('validation.tooLong', { max: NAME_MAX }) : null),
      campaignId: (v, values) => (values.mode === 'existing' && v === '' ? t('validation.required') : null),
      campaignName: (v) => (v.trim().length > NAME_MAX ? t('validation.tooLong', { max: NAME_MAX }) : null),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = {
        name: values.name.trim(),
        type: values.type,
        origin: values.origin,
        ...(values.mode === 'existing' ? { campaignId: values.campaignId } : values.campaignName.trim() ? { campaignName: values.campaignName.trim() } : {}),
      };
      const { message } = await api.call('createMessage', { params: { appId }, body });
      if (categories.length > 0) {
        await saveCategories(appId, 'message', message.id, categories).catch((error: unknown) => notifyError(t, error));
      }
      notifySuccess(t('messages.created', { name: message.name }));
      onCreated(message);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'type', 'origin', 'campaignId', 'campaignName']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const existing = campaigns.data?.campaigns ?? [];
  return (
    <FormModal title={t('messages.newTitle')} failure={failure} submitLabel={t('messages.create')} submitting={form.submitting} onSubmit={submit} onClose={onClose} submitTestId="create-message">
      <TextInput label={t('messages.fields.name')} data-autofocus maxLength={NAME_MAX} withAsterisk {...form.getInputProps('name')} />
      <Select label={t('messages.fields.type')} data={typeOptions(t)} allowDeselect={false} withAsterisk {...form.getInputProps('type')} data-testid="new-message-type" />
      <Select
        label={t('messages.fields.origin')} description={t(`messages.fields.originHint.${form.values.origin}`)} allowDeselect={false} withAsterisk
        data={MessageOrigin.options.map((o) => ({ value: o, label: t(`messages.origin.${o}`) }))} {...form.getInputProps('origin')} data-testid="new-message-origin"
      />
      <Stack gap={6}>
        <Text size="sm" fw={500} id="new-message-campaign">{t('messages.fields.campaignMode')}</Text>
        <SegmentedControl
          aria-labelledby="new-message-campaign"
          data={[{ value: 'new', label: t('messages.fields.newCampaign') }, { value: 'existing', label: t('messages.fields.existingCampaign'), disabled: existing.length === 0 }]}
          {...form.getInputProps('mode')}
        />
        {form.values.mode === 'existing' ? (
          <Select
            aria-label={t('messages.fields.campaign')} placeholder={t('messages.fields.pickCampaign')} searchable
            data={existing.map((c) => ({ value: c.id, label: c.name }))} {...form.getInputProps('campaignId')} data-testid="message-campaign"
          />
        ) : (
          <TextInput aria-label={t('messages.fields.campaignName')} placeholder={t('messages.fields.campaignName')} description={t('messages.fields.campaignNameHint')} maxLength={NAME_MAX} {...form.getInputProps('campaignName')} />
        )}
      </Stack>
      {canCategorise && <CategoryPicker entityType="message" value={categories} onChange={setCategories} testId="new-message-categories" />}
    </FormModal>
  );
}
