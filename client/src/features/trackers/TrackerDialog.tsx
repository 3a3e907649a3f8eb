/**
 * Create or edit a tracker: an event of the app (picked from the catalogue or typed), the provider
 * it posts to, optionally one of that provider's campaigns, the URL (empty: the provider's event
 * URL), the event name the provider expects and the macros sent as parameters (trackerForm.ts).
 */
import { useMemo, useState } from 'react';
import { Autocomplete, Button, Group, Modal, MultiSelect, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { POSTBACK_MACROS } from '@gd/shared/acquisition/model';
import type { Tracker, TrackerProvider } from '@gd/shared/schemas/postbacks';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { CampaignSelect } from '../../entities/campaign/CampaignSelect.tsx';
import { useSegmentOptions } from '../../entities/segment/useSegmentOptions.ts';
import { initialTrackerValues, trackerBody, trackerFailure, validateTracker } from './trackerForm.ts';

export function TrackerDialog({ appId, tracker, providers, onClose, onSaved }: {
  appId: string; tracker?: Tracker | undefined; providers: TrackerProvider[]; onClose: () => void; onSaved: () => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const options = useSegmentOptions();
  const form = useForm({ initialValues: initialTrackerValues(tracker, providers), validate: (values) => validateTracker(values, t, providers) });
  const provider = providers.find((p) => p.id === form.values.accountProviderId);
  // One option per name (an app may also send an automatic event's name, e.g. the screen event).
  const events = useMemo(() => {
    const automatic = [...new Set(options.automaticEvents.map((o) => o.value))];
    const own = [...new Set(options.appEvents.map((o) => o.value))].filter((v) => !automatic.includes(v));
    return [
      { group: t('trackers.groups.appEvents'), items: own },
      { group: t('trackers.groups.automaticEvents'), items: automatic },
    ].filter((g) => g.items.length > 0);
  }, [options, t]);
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = trackerBody(values);
      if (tracker) await api.call('updateTracker', { params: { appId, trackerId: tracker.id }, body });
      else await api.call('createTracker', { params: { appId }, body });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = trackerFailure(error, t);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <Modal opened onClose={onClose} title={tracker ? t('trackers.editTitle') : t('trackers.addTitle')} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('trackers.fields.name')} required data-autofocus {...form.getInputProps('name')} data-testid="tracker-name" />
          <Autocomplete
            label={t('trackers.fields.event')}
            placeholder={t('trackers.eventPlaceholder')}
            required
            data={events}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('event')}
            data-testid="tracker-event"
          />
          <Group grow align="flex-start">
            <Select
              label={t('trackers.fields.provider')}
              required
              allowDeselect={false}
              data={providers.map((p) => ({ value: p.id, label: p.name }))}
              {...form.getInputProps('accountProviderId')}
              onChange={(v: string | null) => { form.setFieldValue('accountProviderId', v); form.setFieldValue('campaignId', null); }}
              data-testid="tracker-provider"
            />
            <CampaignSelect
              appId={appId}
              label={t('trackers.fields.campaign')}
              placeholder={t('trackers.anyCampaign')}
              value={form.values.campaignId}
              onChange={(v) => form.setFieldValue('campaignId', v)}
              clearable
              error={form.errors.campaignId as string | undefined}
              data-testid="tracker-campaign"
            />
          </Group>
          <TextInput
            label={t('trackers.fields.postbackUrl')}
            placeholder={provider?.eventPostbackUrl ?? t('trackers.urlPlaceholder')}
            description={provider && !provider.eventPostbackUrl ? t('trackers.urlHintNoProvider') : t('trackers.urlHint')}
            {...form.getInputProps('postbackUrl')}
            data-testid="tracker-url"
          />
          <Group grow align="flex-start">
            <TextInput label={t('trackers.fields.providerEvent')} description={t('trackers.providerEventHint')} placeholder="af_purchase" {...form.getInputProps('providerEvent')} />
            <MultiSelect
              label={t('trackers.fields.macros')}
              description={t('trackers.macrosHint')}
              placeholder={form.values.macros.length ? undefined : t('trackers.macrosPlaceholder')}
              data={[...POSTBACK_MACROS]}
              searchable
              clearable
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('macros')}
              data-testid="tracker-macros"
            />
          </Group>
          <Switch label={t('trackers.fields.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={form.submitting} data-testid="tracker-save">{tracker ? t('common.save') : t('trackers.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
