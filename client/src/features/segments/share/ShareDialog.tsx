/**
 * Share an audience through an integration of the entry's services (social, search ads, trade
 * desk): pick the integration, optionally name an existing platform audience, share. The run
 * goes in the background; the audience's share section follows it.
 */
import { useState } from 'react';
import { Anchor, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import type { ShareEntry } from '@gd/shared/audienceShare/model';
import { AudienceShareCreate, type ShareTarget } from '@gd/shared/schemas/audienceShare';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { api } from '../../../api/client.ts';
import { useT } from '../../../i18n/useT.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { FormModal } from '../../../ui/FormModal.tsx';
import { schemaValidator, splitFailure } from '../../../ui/forms.ts';
import { notifySuccess } from '../../../ui/notify.ts';
import { ListSkeleton } from '../../../ui/Loading.tsx';
import { ErrorBlock } from '../../../ui/States.tsx';
import { serviceLabel } from './labels.ts';

export function ShareDialog({ audience, entry, onClose, onShared }: { audience: AudienceSummary; entry: ShareEntry; onClose: () => void; onShared: () => void }) {
  const { t } = useT();
  const targets = useApiQuery('audienceShareTargets', { params: { appId: audience.appId }, scope: 'app' });
  const choices = (targets.data?.targets ?? []).filter((x) => x.entry === entry);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { integrationId: '', platformAudienceId: '' },
    validate: schemaValidator(AudienceShareCreate, t, {}, (v: { integrationId: string; platformAudienceId: string }) => body(v)),
  });
  const picked = choices.find((c) => c.id === form.values.integrationId);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('createAudienceShare', { params: { appId: audience.appId, audienceId: audience.id }, body: body(values) });
      notifySuccess(t('audienceShare.shared', { name: picked?.name ?? '' }));
      onShared();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['integrationId', 'platformAudienceId']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <FormModal
      title={t(`audiences.share.${entry}`)}
      intro={t('audienceShare.intro')}
      failure={failure}
      submitLabel={t('audienceShare.submit')}
      submitting={form.submitting}
      submitTestId="share-submit"
      onSubmit={submit}
      onClose={onClose}
    >
      {targets.state === 'error' && !targets.data ? (
        <ErrorBlock error={targets.error} onRetry={targets.refetch} />
      ) : !targets.data ? (
        <ListSkeleton rows={2} />
      ) : choices.length === 0 ? (
        <Stack gap={4} data-testid="share-no-targets">
          <Text size="sm">{t('audienceShare.noTargets')}</Text>
          <Anchor component={Link} to="/manage/integrations" size="sm">
            {t('audienceShare.connectOne')}
          </Anchor>
        </Stack>
      ) : (
        <>
          <Select
            label={t('audienceShare.integration')}
            placeholder={t('audienceShare.integrationPlaceholder')}
            data={choices.map((c) => ({ value: c.id, label: optionLabel(t, c), disabled: !c.supported }))}
            comboboxProps={{ withinPortal: true }}
            allowDeselect={false}
            data-testid="share-integration"
            {...form.getInputProps('integrationId')}
          />
          <TextInput
            label={t('audienceShare.platformAudience')}
            description={t('audienceShare.platformAudienceHint')}
            placeholder={picked && picked.service !== 'tiktok_ads' ? t(`audienceShare.platformAudiencePlaceholder.${picked.service as 'meta_ads' | 'google_ads' | 'the_trade_desk'}`) : undefined}
            maxLength={200}
            {...form.getInputProps('platformAudienceId')}
          />
        </>
      )}
    </FormModal>
  );
}

const body = (v: { integrationId: string; platformAudienceId: string }) => ({
  integrationId: v.integrationId,
  ...(v.platformAudienceId.trim() ? { platformAudienceId: v.platformAudienceId.trim() } : {}),
});

function optionLabel(t: ReturnType<typeof useT>['t'], c: ShareTarget): string {
  const notes = [serviceLabel(t, c.service)];
  if (!c.supported) notes.push(t('audienceShare.unsupported'));
  else if (c.status === 'pending' || c.status === 'disconnected') notes.push(t('audienceShare.notConnected'));
  return `${c.name} (${notes.join(', ')})`;
}
