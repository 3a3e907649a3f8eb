/**
 * The landing editor: the page's settings (name, address, custom domain, campaign, link), its
 * colours and its blocks on the left; on the right the live preview (the same HTML the link host
 * serves, shared `renderLanding`, in a sandboxed frame: no script can run) at phone or computer
 * width, and the page's visits. Save, publish / unpublish (saving first), back to the list.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Box, Button, ColorInput, Grid, Group, Menu, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft, IconDeviceDesktop, IconDeviceMobile, IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { LANDING_BLOCK_TYPES, LANDING_LIMITS, landingUrl, type LandingBlock } from '@gd/shared/landings/model';
import { renderLanding } from '@gd/shared/landings/render';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Landing } from '@gd/shared/schemas/landings';
import { api } from '../../api/client.ts';
import { CampaignSelect } from '../../entities/campaign/CampaignSelect.tsx';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { BlockEditor } from './BlockEditor.tsx';
import { LandingVisits } from './LandingVisits.tsx';
import { StatusBadge } from './LandingList.tsx';
import { addBlock, blockHasError, landingFailure, landingInput, landingValues, moveBlock, slugFromName, validateLanding, type LandingValues } from './landingForm.ts';

interface Props { app: MetaApp; landingId: string | null; onClose: () => void; onCreated: (id: string) => void }

export function LandingEditor({ app, landingId, onClose, onCreated }: Props) {
  const { t } = useT();
  const landing = useApiQuery('landing', { params: { appId: app.id, landingId: landingId ?? '' }, scope: 'app', enabled: landingId !== null });
  const hostBase = useApiQuery('landings', { params: { appId: app.id }, scope: 'app' });
  const back = (
    <Anchor component="button" type="button" size="sm" onClick={onClose} data-testid="landing-back">
      <Group gap={4} wrap="nowrap"><IconArrowLeft size={14} />{t('landings.back')}</Group>
    </Anchor>
  );
  if (landingId === null) return <Editor app={app} saved={undefined} hostBase={hostBase.data?.hostBase} back={back} onClose={onClose} onCreated={onCreated} />;
  return (
    <>
      <Box mb="xs">{back}</Box>
      <DataState query={landing}>
        {({ landing: loaded }) => <Editor app={app} saved={loaded} hostBase={hostBase.data?.hostBase} back={null} onClose={onClose} onCreated={onCreated} />}
      </DataState>
    </>
  );
}

function Editor({ app, saved: initial, hostBase, back, onCreated }: { app: MetaApp; saved: Landing | undefined; hostBase: string | undefined; back: ReactNode } & Omit<Props, 'landingId'>) {
  const { t } = useT();
  const can = usePermissions('app');
  const canEdit = can({ and: ['route:/manage/landings', 'api:landings.edit'] });
  const [saved, setSaved] = useState<Landing | undefined>(initial);
  const [start] = useState<LandingValues>(() => landingValues(initial, { title: t('landings.starter.title'), text: t('landings.starter.text'), button: t('landings.starter.button') }));
  const [values, setRawValues] = useState<LandingValues>(start);
  const [baseline, setBaseline] = useState(() => JSON.stringify(start));
  const [serverErrors, setErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const [device, setDevice] = useState<'phone' | 'desktop'>('phone');
  const [slugTouched, setSlugTouched] = useState(initial !== undefined);

  const dirty = JSON.stringify(values) !== baseline;
  // After a first attempt, the form re-checks as the person types; the API's refusals stay until the next change.
  const localErrors = useMemo(() => (checked ? validateLanding(values, t) : {}), [checked, values, t]);
  const errors = useMemo(() => ({ ...serverErrors, ...localErrors }), [serverErrors, localErrors]);
  const setValues = (change: (v: LandingValues) => LandingValues) => {
    setRawValues(change);
    setErrors({});
  };

  const set = <K extends keyof LandingValues>(key: K, value: LandingValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const setBlocks = (blocks: LandingBlock[]) => set('blocks', blocks);
  const preview = useMemo(() => renderLanding({ name: values.name, colours: values.colours, blocks: values.blocks }, { preview: true }).html, [values]);
  const address = hostBase ? landingUrl(hostBase, values.slug.trim() || t('landings.slugPlaceholder'), values.domain.trim().toLowerCase() || null) : '';

  const save = async (): Promise<Landing | undefined> => {
    setChecked(true);
    setFailure(null);
    setErrors({});
    if (Object.keys(validateLanding(values, t)).length > 0) return undefined;
    try {
      const body = landingInput(values);
      const answer = saved
        ? await api.call('updateLanding', { params: { appId: app.id, landingId: saved.id }, body })
        : await api.call('createLanding', { params: { appId: app.id }, body });
      setSaved(answer.landing);
      setBaseline(JSON.stringify(values));
      return answer.landing;
    } catch (error) {
      const { fieldErrors, formError } = landingFailure(error, t);
      setErrors(fieldErrors);
      setFailure(formError);
      return undefined;
    }
  };

  const onSave = async () => {
    setBusy('save');
    const landing = await save();
    setBusy(null);
    if (!landing) return;
    notifySuccess(saved ? t('landings.saved') : t('landings.created'));
    if (!saved) onCreated(landing.id);
  };

  const onPublish = async () => {
    setBusy('publish');
    try {
      const current = dirty || !saved ? await save() : saved;
      if (!current) return;
      const publishing = current.status !== 'published';
      const answer = await api.call(publishing ? 'publishLanding' : 'unpublishLanding', { params: { appId: app.id, landingId: current.id } });
      setSaved(answer.landing);
      notifySuccess(publishing ? t('landings.published') : t('landings.unpublished'));
      if (!saved) onCreated(current.id);
    } catch (error) {
      const { fieldErrors, formError } = landingFailure(error, t);
      setErrors(fieldErrors);
      setFailure(formError);
    } finally {
      setBusy(null);
    }
  };

  const published = saved?.status === 'published';
  const actions = (
    <>
      {dirty && <Badge variant="light" color="yellow" tt="none" data-testid="landing-dirty">{t('landings.unsaved')}</Badge>}
      {saved && <StatusBadge status={saved.status} />}
      <Button variant="default" onClick={() => void onPublish()} loading={busy === 'publish'} disabled={!canEdit || busy !== null} data-testid="landing-publish">
        {published ? t('landings.unpublish') : t('landings.publish')}
      </Button>
      <Button onClick={() => void onSave()} loading={busy === 'save'} disabled={!canEdit || busy !== null} data-testid="landing-save">{t('common.save')}</Button>
    </>
  );

  return (
    <>
      {back && <Box mb="xs">{back}</Box>}
      <PageHeader
        title={saved ? t('landings.editTitle', { name: saved.name }) : t('landings.newTitle')}
        description={saved ? (published ? t('landings.liveNote') : t('landings.draftNote')) : t('landings.description', { app: app.name })}
        actions={actions}
      />
      <Stack gap="md" mb="md">
        <FormError error={failure} />
        {published && saved && (
          <Alert variant="light" color="teal" icon={<IconInfoCircle size={18} />} p="xs">
            <Anchor href={saved.url} target="_blank" rel="noopener noreferrer" size="sm" data-testid="landing-url">{saved.url}</Anchor>
          </Alert>
        )}
      </Stack>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <Text fw={600} size="sm">{t('landings.settings')}</Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput label={t('landings.fields.name')} placeholder={t('landings.namePlaceholder')} required value={values.name} error={errors.name} disabled={!canEdit}
                    data-testid="landing-name" onChange={(e) => {
                      const name = e.currentTarget.value;
                      setValues((v) => ({ ...v, name, slug: slugTouched ? v.slug : slugFromName(name) }));
                    }} />
                  <TextInput label={t('landings.fields.slug')} placeholder={t('landings.slugPlaceholder')} required value={values.slug} error={errors.slug} disabled={!canEdit}
                    maxLength={LANDING_LIMITS.slug} classNames={{ input: 'gd-mono' }} data-testid="landing-slug"
                    onChange={(e) => { setSlugTouched(true); set('slug', e.currentTarget.value); }} />
                </SimpleGrid>
                {address && <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{t('landings.slugHint', { url: address })}</Text>}
                <TextInput label={t('landings.fields.domain')} description={t('landings.domainHint')} placeholder={t('landings.domainPlaceholder')} value={values.domain} error={errors.domain}
                  disabled={!canEdit} data-testid="landing-domain" onChange={(e) => set('domain', e.currentTarget.value)} />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <CampaignSelect appId={app.id} label={t('landings.fields.campaign')} value={values.campaignId} clearable disabled={!canEdit} error={errors.campaignId}
                    onChange={(campaignId) => setValues((v) => ({ ...v, campaignId, linkId: null }))} />
                  <LinkSelect appId={app.id} campaignId={values.campaignId} value={values.linkId} disabled={!canEdit} error={errors.linkId} onChange={(linkId) => set('linkId', linkId)} />
                </SimpleGrid>
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <Text fw={600} size="sm">{t('landings.colours')}</Text>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  {(['background', 'text', 'accent'] as const).map((key) => (
                    <ColorInput key={key} label={t(`landings.colour.${key}`)} format="hex" value={values.colours[key]} error={errors[`colours.${key}`]} disabled={!canEdit}
                      data-testid={`landing-colour-${key}`} onChange={(colour) => set('colours', { ...values.colours, [key]: colour })} />
                  ))}
                </SimpleGrid>
              </Stack>
            </Paper>

            <Stack gap="xs">
              <Group justify="space-between" align="flex-end">
                <Stack gap={0}>
                  <Text fw={600} size="sm">{t('landings.blocks')}</Text>
                  <Text size="xs" c="dimmed">{t('landings.blocksHint')}</Text>
                </Stack>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} disabled={!canEdit || values.blocks.length >= LANDING_LIMITS.blocks} data-testid="landing-add-block">
                      {t('landings.addBlock')}
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {LANDING_BLOCK_TYPES.map((type) => (
                      <Menu.Item key={type} onClick={() => setBlocks(addBlock(values.blocks, type, values.colours))} data-testid={`add-block-${type}`}>
                        {t(`landings.blockType.${type}`)}
                      </Menu.Item>
                    ))}
                  </Menu.Dropdown>
                </Menu>
              </Group>
              {errors.blocks && <Text size="sm" c="red">{errors.blocks}</Text>}
              {values.blocks.length === 0 && <Paper withBorder p="md" radius="md"><Text size="sm" c="dimmed" ta="center">{t('landings.noBlocks')}</Text></Paper>}
              {values.blocks.map((block, index) => (
                <Box key={block.id} style={blockHasError(errors, index) ? { outline: '1px solid var(--mantine-color-red-4)', borderRadius: 8 } : undefined}>
                  <BlockEditor block={block} index={index} count={values.blocks.length} errors={errors} accent={values.colours.accent} disabled={!canEdit}
                    onChange={(next) => setBlocks(values.blocks.map((b, i) => (i === index ? next : b)))}
                    onMove={(by) => setBlocks(moveBlock(values.blocks, index, by))}
                    onRemove={() => setBlocks(values.blocks.filter((_, i) => i !== index))} />
                </Box>
              ))}
            </Stack>
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md" style={{ position: 'sticky', top: 16 }}>
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <Group justify="space-between">
                  <Text fw={600} size="sm">{t('landings.preview')}</Text>
                  <SegmentedControl size="xs" value={device} onChange={(v) => setDevice(v === 'desktop' ? 'desktop' : 'phone')} data={[
                    { value: 'phone', label: <Group gap={4} wrap="nowrap"><IconDeviceMobile size={14} />{t('landings.device.phone')}</Group> },
                    { value: 'desktop', label: <Group gap={4} wrap="nowrap"><IconDeviceDesktop size={14} />{t('landings.device.desktop')}</Group> },
                  ]} />
                </Group>
                <Box style={{ display: 'flex', justifyContent: 'center', background: 'var(--mantine-color-gray-1)', borderRadius: 8, padding: device === 'phone' ? 12 : 0 }}>
                  <iframe
                    title={t('landings.previewLabel')}
                    sandbox=""
                    srcDoc={preview}
                    data-testid="landing-preview"
                    style={{ width: device === 'phone' ? 360 : '100%', maxWidth: '100%', height: 560, border: '1px solid var(--mantine-color-gray-3)', borderRadius: device === 'phone' ? 16 : 8, background: '#fff' }}
                  />
                </Box>
              </Stack>
            </Paper>
            {saved && <LandingVisits appId={app.id} landingId={saved.id} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}

/** One of the app's links (of the chosen campaign, when one is), optional. */
function LinkSelect({ appId, campaignId, value, disabled, error, onChange }: { appId: string; campaignId: string | null; value: string | null; disabled: boolean; error?: string | undefined; onChange: (id: string | null) => void }) {
  const { t } = useT();
  const can = usePermissions('app');
  const allowed = can({ or: ['route:/acquisition/links', 'route:/acquisition/powlinks'] });
  const links = useApiQuery('links', { params: { appId }, query: campaignId ? { campaignId } : {}, scope: 'app', enabled: allowed });
  const data = useMemo(() => (links.data?.links ?? []).map((l) => ({ value: l.id, label: `${l.name} · ${l.code}` })), [links.data]);
  return (
    <Select
      label={t('landings.fields.link')}
      placeholder={links.state === 'loading' && !links.data ? t('landings.linkLoading') : t('landings.linkPlaceholder')}
      nothingFoundMessage={t('landings.noLinkOptions')}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      searchable
      disabled={disabled || !allowed}
      error={error}
      data-testid="landing-link"
    />
  );
}
