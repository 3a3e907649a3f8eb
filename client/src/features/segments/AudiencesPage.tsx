/**
 * /behavior/audiences: the audiences and segments of the current app, one audience's detail
 * (`?audience=<id>`) or one segment's editor (`?segment=<id>`). Both live on this route, so the
 * address is shareable and the route's permission, the navigation and app switching (which drops
 * the query) behave as for the list. The editor is its own chunk (Yjs, the provider).
 *
 * Creating: "New audience" → "From a new segment" names a segment and opens its editor, where the
 * team adds conditions and "Save as audience" makes the audience. Imports are set up under import
 * tasks (their audiences appear here with their type as source).
 */
import { lazy, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Menu, Stack, Tabs, Text } from '@mantine/core';
import { IconChevronDown, IconFileImport, IconFilter, IconPlus } from '@tabler/icons-react';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { SegmentList, segmentHref } from './SegmentList.tsx';
import { AudienceDetail } from './AudienceDetail.tsx';
import { AudienceList } from './AudienceList.tsx';

const SegmentEditor = lazy(() => import('./SegmentEditor.tsx'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function AudiencesPage() {
  const [params] = useSearchParams();
  const segment = params.get('segment');
  const audience = params.get('audience');
  if (segment && UUID.test(segment)) return <SegmentEditor key={segment} segmentId={segment.toLowerCase()} />;
  if (audience && UUID.test(audience)) return <AudienceDetail key={audience} audienceId={audience.toLowerCase()} />;
  return <Overview />;
}

type View = 'audiences' | 'segments';

function Overview() {
  const { t } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'segments' ? 'segments' : 'audiences';
  const [naming, setNaming] = useState(false);
  const canCreate = can({ and: ['ui:segment.modify', 'ui:audience.create'] });

  const setView = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === 'segments') next.set('view', 'segments');
    else next.delete('view');
    setParams(next, { replace: true });
  };

  const newMenu = (
    <Menu position="bottom-end" withinPortal shadow="md" width={280}>
      <Menu.Target>
        <Button leftSection={<IconPlus size={16} />} rightSection={<IconChevronDown size={14} />} data-testid="new-audience">
          {t('audiences.new')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFilter size={16} />} disabled={!canCreate} onClick={() => setNaming(true)} data-testid="new-from-segment">
          {t('audiences.newFromSegment')}
        </Menu.Item>
        <Menu.Item leftSection={<IconFileImport size={16} />} disabled>
          <Stack gap={0}>
            <Text size="sm">{t('audiences.newFromImport')}</Text>
            <Text size="xs" c="dimmed">
              {t('audiences.newFromImportHint')}
            </Text>
          </Stack>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
  const newSegment = (
    <GatedButton allowed={canCreate} leftSection={<IconPlus size={16} />} onClick={() => setNaming(true)} data-testid="new-segment">
      {t('segments.list.new')}
    </GatedButton>
  );

  return (
    <>
      <PageHeader title={t('nav.audiences')} description={t('audiences.description')} actions={view === 'segments' ? newSegment : newMenu} />
      <Tabs value={view} onChange={setView} mb="md" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="audiences" data-testid="tab-audiences">
            {t('audiences.tabs.audiences')}
          </Tabs.Tab>
          <Tabs.Tab value="segments" data-testid="tab-segments">
            {t('audiences.tabs.segments')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {view === 'segments' ? <SegmentList newAction={newSegment} /> : <AudienceList newAction={newSegment} />}

      {naming && (
        <NameDialog
          title={t('segments.list.newTitle')}
          submitLabel={t('segments.list.create')}
          onClose={() => setNaming(false)}
          onSubmit={async (name) => {
            const { segment } = await api.call('createSegment', { params: { appId }, body: { name } });
            notifySuccess(t('segments.list.created', { name: segment.name }));
            setNaming(false);
            void navigate(segmentHref(segment.id));
          }}
        />
      )}
    </>
  );
}
