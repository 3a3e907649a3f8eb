/** The selected person: header with key facts, then the profile, events, devices, messages and journeys tabs. */
import { Alert, Badge, Paper, Stack, Tabs } from '@mantine/core';
import { IconGitMerge, IconUserQuestion, IconUserScan } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import type { MetaApp } from '@gd/shared/schemas/account';
import { isApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { AttributesPanel } from './AttributesPanel.tsx';
import { DevicesTable } from './DevicesTable.tsx';
import { JourneysTab } from './JourneysTab.tsx';
import { MessagesTable } from './MessagesTable.tsx';
import { ProfileHeader } from './ProfileHeader.tsx';
import { Timeline } from './Timeline.tsx';
import { PROFILE_TABS, type ProfileTab } from './tabs.ts';

export function SelectPersonPrompt() {
  const { t } = useT();
  return (
    <Paper withBorder>
      <EmptyBlock icon={<IconUserScan size={28} />} title={t('people.profile.selectTitle')} description={t('people.profile.selectBody')} />
    </Paper>
  );
}

function NotFound({ id }: { id: string }) {
  const { t } = useT();
  return (
    <Paper withBorder data-testid="person-not-found">
      <EmptyBlock icon={<IconUserQuestion size={28} />} title={t('people.profile.notFoundTitle')} description={t('people.profile.notFoundBody', { id })} />
    </Paper>
  );
}

export function PersonView({ app, personId, valid, tab, onTab }: { app: MetaApp; personId: string; valid: boolean; tab: ProfileTab; onTab: (tab: ProfileTab) => void }) {
  if (!valid) return <NotFound id={personId} />;
  return <LoadedPerson app={app} personId={personId} tab={tab} onTab={onTab} />;
}

function LoadedPerson({ app, personId, tab, onTab }: { app: MetaApp; personId: string; tab: ProfileTab; onTab: (tab: ProfileTab) => void }) {
  const { t } = useT();
  const query = useApiQuery('getPerson', { params: { appId: app.id, personId }, scope: 'app' });
  if (query.state === 'error' && isApiError(query.error) && query.error.code === ErrorCode.NOT_EXIST) return <NotFound id={personId} />;
  if (query.state === 'error') {
    return (
      <Paper withBorder>
        <ErrorBlock error={query.error} onRetry={query.refetch} />
      </Paper>
    );
  }
  const detail = query.data;
  if (!detail) {
    return (
      <Paper withBorder p="lg">
        <ListSkeleton rows={6} />
      </Paper>
    );
  }
  const count = (n: number) => (
    <Badge size="sm" variant="light" color="gray" circle={n < 10}>
      {n}
    </Badge>
  );
  return (
    <Stack gap="md" data-testid="person-profile">
      {detail.merged && (
        <Alert variant="light" color="blue" icon={<IconGitMerge size={18} />}>
          {t('people.profile.merged', { id: detail.requestedId })}
        </Alert>
      )}
      <ProfileHeader detail={detail} zone={app.timezone} />
      <Tabs value={tab} onChange={(value) => onTab(PROFILE_TABS.find((x) => x === value) ?? 'overview')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="overview">{t('people.profile.tabs.overview')}</Tabs.Tab>
          <Tabs.Tab value="timeline" rightSection={count(detail.summary.events)}>
            {t('people.profile.tabs.timeline')}
          </Tabs.Tab>
          <Tabs.Tab value="devices" rightSection={count(detail.devices.length)}>
            {t('people.profile.tabs.devices')}
          </Tabs.Tab>
          <Tabs.Tab value="messages" rightSection={count(detail.messages.length)}>
            {t('people.profile.tabs.messages')}
          </Tabs.Tab>
          <Tabs.Tab value="journeys" data-testid="person-journeys-tab">
            {t('journeyRun.personTab.title')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <AttributesPanel detail={detail} zone={app.timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="timeline">
          <Timeline appId={app.id} personId={detail.person.id} eventNames={detail.eventNames} zone={app.timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="devices">
          <DevicesTable devices={detail.devices} zone={app.timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="messages">
          <MessagesTable messages={detail.messages} zone={app.timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="journeys">
          <JourneysTab appId={app.id} personId={detail.person.id} zone={app.timezone} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
