/**
 * /acquisition/apptracker: the campaigns of the current app with their source, provider, channel,
 * pricing, status and figures over the shell's date range; new / edit / clone / delete, the list as
 * CSV, the fraud export, the campaign scope (current/all) and ownership (me/all) filters of SPEC §2,
 * and the app's sources (a drawer). A campaign's name opens its page (details, postbacks). Each
 * campaign shows its categories, chosen in its dialog; the category filter narrows the list.
 */
import { useState } from 'react';
import { Button, Group, SegmentedControl, Tooltip } from '@mantine/core';
import { IconCopy, IconDownload, IconEye, IconLayersLinked, IconPlus, IconRoute, IconShieldSearch, IconSpeakerphone } from '@tabler/icons-react';
import { Link } from 'react-router';
import { rangeQuery } from '@gd/shared/apiBase';
import { endpointRoutes, fillPath } from '@gd/shared/endpointRoutes';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { Campaign } from '@gd/shared/schemas/acquisition';
import { api, apiBaseUrl } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { CampaignDialog } from './CampaignDialog.tsx';
import { CampaignDrawer } from './CampaignDrawer.tsx';
import { CampaignTable } from './CampaignTable.tsx';
import { SourcesDrawer } from './SourcesDrawer.tsx';
import { CategoryFilter } from '../../entities/category/CategoryFilter.tsx';
import { EntityCategoryBadges } from '../../entities/category/CategoryPicker.tsx';
import { useCategories, useCategoryAssignments } from '../../entities/category/categories.ts';

type Dialog = { kind: 'add' | 'sources' } | { kind: 'edit' | 'clone' | 'delete' | 'open'; campaign: Campaign } | null;

export default function ApptrackerPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.apptracker')} descriptionNoApp={t('acquisition.apptracker.descriptionNoApp')}>{(app) => <Apptracker app={app} />}</AppScreen>;
}

function Apptracker({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const range = useDateRange((s) => s.range);
  const [scope, setScope] = useState<'current' | 'all'>('current');
  const [owner, setOwner] = useState<'me' | 'all'>('all');
  const [categoryId, setCategoryId] = useState<string | undefined>(undefined);
  const [dialog, setDialog] = useState<Dialog>(null);
  const canView = can({ or: ['ui:apptracker.view', 'ui:apptracker.edit:owner'] });
  const params = { appId: app.id };
  const query = { scope, owner, startDay: range.startDay, endDay: range.endDay, ...(categoryId ? { categoryId } : {}) };
  const campaigns = useApiQuery('campaigns', { params, query, scope: 'app', range: true, enabled: canView });
  const sources = useApiQuery('sources', { params, scope: 'app', enabled: canView });
  const channels = useApiQuery('channels', { params, scope: 'app', enabled: canView });
  const providers = useApiQuery('accountProviders', { enabled: can('route:/acquisition/providers') });
  const categories = useCategories('campaign');
  const assignments = useCategoryAssignments(app.id, 'campaign', canView);
  const fileUrl = (name: 'campaignsDownload' | 'fraudExport', q: Record<string, string>) => `${apiBaseUrl()}${fillPath(endpointRoutes[name].path, params)}?${rangeQuery(q)}`;
  const refetchAll = () => {
    campaigns.refetch();
    sources.refetch();
    channels.refetch();
    assignments.refetch();
  };
  const noSources = sources.data?.sources.length === 0;

  const addButton = (
    <GatedButton allowed={can('ui:apptracker.create') && !noSources} reason={noSources ? t('acquisition.apptracker.emptySources') : undefined} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="campaign-add">
      {t('acquisition.apptracker.add')}
    </GatedButton>
  );
  const header = (
    <PageHeader
      title={t('nav.apptracker')}
      description={t('acquisition.apptracker.description', { app: app.name })}
      actions={canView ? (
        <>
          <Button variant="default" leftSection={<IconRoute size={16} />} onClick={() => setDialog({ kind: 'sources' })} data-testid="sources-open">
            {t('acquisition.apptracker.sources')}
          </Button>
          {addButton}
        </>
      ) : undefined}
    />
  );
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('acquisition.apptracker.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <Group justify="space-between" mb="md" gap="sm">
        <Group gap="sm">
          <SegmentedControl aria-label={t('acquisition.scopeLabel')} value={scope} onChange={(v) => setScope(v)} data={[{ value: 'current', label: t('acquisition.scope.current') }, { value: 'all', label: t('acquisition.scope.all') }]} />
          <SegmentedControl aria-label={t('acquisition.ownerLabel')} value={owner} onChange={(v) => setOwner(v)} data={[{ value: 'all', label: t('acquisition.owner.all') }, { value: 'me', label: t('acquisition.owner.me') }]} />
          <CategoryFilter entityType="campaign" value={categoryId} onChange={setCategoryId} w={210} hideLabel />
        </Group>
        <Group gap="xs">
          <Button component={Link} to="/acquisition/apptracker/channels" variant="subtle" size="sm" leftSection={<IconLayersLinked size={16} />}>
            {t('acquisition.apptracker.channels')}
          </Button>
          <Button component={Link} to="/acquisition/apptracker-provider-view" variant="subtle" size="sm" leftSection={<IconEye size={16} />}>
            {t('acquisition.apptracker.providerView')}
          </Button>
          {can('ui:apptracker.download') ? (
            <Button component="a" href={fileUrl('campaignsDownload', query)} download variant="default" size="sm" leftSection={<IconDownload size={16} />} data-testid="campaigns-download">
              {t('acquisition.apptracker.download')}
            </Button>
          ) : (
            <GatedButton allowed={false} variant="default" size="sm" leftSection={<IconDownload size={16} />}>{t('acquisition.apptracker.download')}</GatedButton>
          )}
          {can('ui:apptracker.exportFraud') ? (
            <Tooltip label={t('acquisition.apptracker.exportFraudHint')} multiline w={320}>
              <Button component="a" href={fileUrl('fraudExport', { startDay: range.startDay, endDay: range.endDay })} download variant="default" size="sm" leftSection={<IconShieldSearch size={16} />} data-testid="fraud-export">
                {t('acquisition.apptracker.exportFraud')}
              </Button>
            </Tooltip>
          ) : (
            <GatedButton allowed={false} variant="default" size="sm" leftSection={<IconShieldSearch size={16} />}>{t('acquisition.apptracker.exportFraud')}</GatedButton>
          )}
        </Group>
      </Group>
      <DataState query={campaigns}>
        {({ campaigns: list, figures }) => (
          <CampaignTable
            campaigns={list}
            figures={figures}
            onOpen={(campaign) => setDialog({ kind: 'open', campaign })}
            categories={(c) => <EntityCategoryBadges all={categories.data?.categories} ids={assignments.byEntity.get(c.id)} />}
            empty={categoryId
              ? <EmptyBlock icon={<IconSpeakerphone size={28} />} title={t('categories.emptyFilteredTitle')} description={t('categories.emptyFilteredBody')} action={<Button variant="default" onClick={() => setCategoryId(undefined)}>{t('categories.clearFilter')}</Button>} />
              : <EmptyBlock icon={<IconSpeakerphone size={28} />} title={t('acquisition.apptracker.emptyTitle')} description={noSources ? t('acquisition.apptracker.emptySources') : t('acquisition.apptracker.emptyBody')} action={noSources ? undefined : addButton} />}
            actions={(c) => (
              <EditDeleteIcons
                before={
                  <GatedIcon allowed={can('ui:apptracker.clone')} label={t('acquisition.apptracker.clone')} onClick={() => setDialog({ kind: 'clone', campaign: c })}>
                    <IconCopy size={16} />
                  </GatedIcon>
                }
                edit={{ allowed: can('ui:apptracker.edit', { ownerId: c.createdBy }), onClick: () => setDialog({ kind: 'edit', campaign: c }) }}
                remove={{ allowed: can('ui:apptracker.delete', { ownerId: c.createdBy }), onClick: () => setDialog({ kind: 'delete', campaign: c }) }}
              />
            )}
          />
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <CampaignDialog
          appId={app.id}
          campaign={dialog.kind === 'edit' ? dialog.campaign : undefined}
          categoryIds={dialog.kind === 'edit' ? assignments.byEntity.get(dialog.campaign.id) ?? [] : []}
          sources={sources.data?.sources ?? []}
          channels={channels.data?.channels ?? []}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('acquisition.apptracker.created') : t('common.saved'));
            setDialog(null);
            refetchAll();
          }}
        />
      )}
      {dialog?.kind === 'clone' && (
        <NameDialog
          title={t('acquisition.apptracker.cloneTitle')}
          hint={t('acquisition.apptracker.cloneHint')}
          submitLabel={t('acquisition.apptracker.clone')}
          initialName={t('acquisition.apptracker.cloneName', { name: dialog.campaign.name })}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await api.call('cloneCampaign', { params: { appId: app.id, campaignId: dialog.campaign.id }, body: { name } });
            notifySuccess(t('acquisition.apptracker.cloned'));
            setDialog(null);
            refetchAll();
          }}
        />
      )}
      {dialog?.kind === 'open' && (
        <CampaignDrawer appId={app.id} campaign={dialog.campaign} figures={campaigns.data?.figures[dialog.campaign.id]} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'sources' && (
        <SourcesDrawer
          appId={app.id}
          appName={app.name}
          sources={sources.data?.sources ?? []}
          providers={providers.data?.providers ?? []}
          can={{ create: can('ui:sources.create'), edit: can('ui:sources.edit'), remove: can('ui:sources.delete') }}
          onClose={() => setDialog(null)}
          onChanged={refetchAll}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('acquisition.apptracker.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('acquisition.apptracker.deleteBody', { name: dialog.campaign.name, count: dialog.campaign.activeLinks }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteCampaign', { params: { appId: app.id, campaignId: dialog.campaign.id } });
          notifySuccess(t('acquisition.apptracker.deleted'));
          refetchAll();
        }}
      />
    </>
  );
}
