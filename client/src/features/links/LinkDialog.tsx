/**
 * Create or edit a tracking link or powlink: campaign, name, short code (create only), deep link,
 * destinations per platform (empty = the campaign's) and the fixed tracking parameters.
 */
import { useState } from 'react';
import { Accordion, Alert, Button, Group, Modal, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { TRACKING_LINK_PARAMS } from '@gd/shared/acquisition/model';
import type { Link } from '@gd/shared/schemas/links';
import { api } from '../../api/client.ts';
import { CampaignSelect } from '../../entities/campaign/CampaignSelect.tsx';
import { LandingSelect } from '../../entities/landing/LandingSelect.tsx';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { linkFailure, linkFormValues, linkInput, validateLink, type LinkFormValues } from './linkForm.ts';

export function LinkDialog({ appId, kind, link, onClose, onSaved }: { appId: string; kind: Link['kind']; link?: Link | undefined; onClose: () => void; onSaved: (link: Link) => void }) {
  const { t } = useT();
  const creating = !link;
  const [failure, setFailure] = useState<unknown>(null);
  const [destinationError, setDestinationError] = useState<string | null>(null);
  const form = useForm<LinkFormValues>({ initialValues: linkFormValues(link), validate: (values) => validateLink(values, kind, creating, t) });
  const campaignDestinations = link?.campaignDestinations ?? {};
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setDestinationError(null);
    const body = linkInput(values, kind, creating);
    try {
      const saved = link
        ? await api.call('updateLink', { params: { appId, linkId: link.id }, body: { campaignId: body.campaignId, name: body.name, params: body.params, destinations: body.destinations, deepLink: body.deepLink, landingId: body.landingId, active: body.active } })
        : await api.call('createLink', { params: { appId }, body });
      onSaved(saved.link);
    } catch (error) {
      const { fieldErrors, formError } = linkFailure(error, t);
      const { destinations, ...fields } = fieldErrors;
      form.setErrors(fields);
      setDestinationError(destinations ?? null);
      setFailure(formError);
    }
  });
  const inherited = (value: string | undefined) => (value ? t('links.campaignValue', { value }) : undefined);
  const title = link ? t('links.editTitle') : kind === 'powlink' ? t('links.addPowTitle') : t('links.addTitle');

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{title}</Text>} size="xl">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('links.fields.name')} placeholder={t('links.namePlaceholder')} required data-autofocus {...form.getInputProps('name')} />
            <CampaignSelect appId={appId} required value={form.values.campaignId} onChange={(v) => form.setFieldValue('campaignId', v)} error={form.errors.campaignId as string | undefined} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('links.fields.code')}
              placeholder={t('links.codePlaceholder')}
              description={creating ? t('links.codeHint') : undefined}
              disabled={!creating}
              classNames={{ input: 'gd-mono' }}
              {...form.getInputProps('code')}
            />
            <TextInput label={t('links.fields.deepLink')} placeholder="myapp://product/42" description={t('links.deepLinkHint')} {...form.getInputProps('deepLink')} />
          </SimpleGrid>

          <Stack gap={4}>
            <Text fw={600} size="sm">{t('links.destinationsTitle')}</Text>
            <Text size="xs" c="dimmed">{t('links.destinationsHint')}</Text>
          </Stack>
          {destinationError && <Alert color="red" variant="light" data-testid="destination-error">{destinationError}</Alert>}
          {(['ios', 'android'] as const).map((p) => (
            <Stack key={p} gap={6}>
              <Text size="sm" fw={500}>{t(`links.platform.${p}`)}</Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput label={t('links.store')} placeholder={inherited(campaignDestinations[p]?.store) ?? (p === 'ios' ? 'https://apps.apple.com/app/id…' : 'https://play.google.com/store/apps/details?id=…')} {...form.getInputProps(`${p}.store`)} />
                <TextInput label={t('links.appLink')} placeholder={inherited(campaignDestinations[p]?.deepLink) ?? 'myapp://…'} {...form.getInputProps(`${p}.deepLink`)} />
                <TextInput label={t('links.web')} placeholder={inherited(campaignDestinations[p]?.web) ?? 'https://…'} {...form.getInputProps(`${p}.web`)} />
              </SimpleGrid>
            </Stack>
          ))}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label={`${t('links.platform.desktop')} · ${t('links.web')}`} placeholder={inherited(campaignDestinations.desktop?.web) ?? 'https://…'} {...form.getInputProps('desktopWeb')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <LandingSelect appId={appId} value={form.values.landingId} onChange={(v) => form.setFieldValue('landingId', v)} error={form.errors.landingId as string | undefined} />
          </SimpleGrid>

          <Accordion variant="contained" defaultValue={creating ? null : 'params'}>
            <Accordion.Item value="params">
              <Accordion.Control>
                <Text size="sm" fw={600}>{t('links.paramsTitle')}</Text>
                <Text size="xs" c="dimmed">{t('links.paramsHint')}</Text>
              </Accordion.Control>
              <Accordion.Panel>
                <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
                  {TRACKING_LINK_PARAMS.map((p) => (
                    <TextInput key={p} size="xs" label={p} className="gd-mono" {...form.getInputProps(`params.${p}`)} />
                  ))}
                </SimpleGrid>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>

          <Group justify="space-between" gap="sm">
            <Switch label={t('links.fields.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
            <Group gap="sm">
              <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
              <Button type="submit" loading={form.submitting} data-testid="link-save">{link ? t('common.save') : kind === 'powlink' ? t('links.addPow') : t('links.add')}</Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
