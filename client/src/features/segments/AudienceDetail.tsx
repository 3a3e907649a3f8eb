/**
 * One audience (/behavior/audiences?audience=<id>): its state (and failure), person count, source,
 * when it was counted and will be next, the conditions as last counted (read-only tree), a sample
 * of its members, and its actions: refresh now, export (CSV or zip, the exports feature's button), settings, deactivate or reactivate, clone,
 * share to ad platforms (and the shares' state: share/AudienceShares.tsx) and delete. Asked again while it is being counted.
 */
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconRefresh, IconUsers } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { formatNumber, fromNow } from '../../entities/person/format.ts';
import { BackBlock } from './BackBlock.tsx';
import { AudienceExportButton } from './AudienceExportButton.tsx';
import { SamplePeople } from './SamplePeople.tsx';
import { refreshLabel } from './SaveAudienceDialog.tsx';
import { SegmentTree } from './SegmentTree.tsx';
import { useSegmentOptions } from '../../entities/segment/useSegmentOptions.ts';
import { AudienceActions, refreshAudience, useAudienceAbilities } from './AudienceActions.tsx';
import { POLL_BUSY_MS, POLL_IDLE_MS } from './AudienceList.tsx';
import { usePolling } from '../../state/usePolling.ts';
import { AudienceStatusBadge, errorNameText } from '../../entities/audience/AudienceStatus.tsx';
import { SourceLabel } from './SourceLabel.tsx';
import { AudienceShares } from './share/AudienceShares.tsx';

const BACK = '.';
const noop = () => undefined;

export function AudienceDetail({ audienceId }: { audienceId: string }) {
  const { t } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const query = useApiQuery('getAudience', { params: { appId, audienceId }, scope: 'app', enabled: appId !== '' });
  const audience = query.data?.audience;
  const busy = audience !== undefined && (audience.status === 'new' || audience.status === 'in_progress' || audience.status === 'sync');
  usePolling(query.refetch, busy ? POLL_BUSY_MS : POLL_IDLE_MS, query.state === 'loading');
  usePageTitle(audience?.name ?? t('nav.audiences'));

  if (query.state === 'error' && !query.data) {
    const missing = query.error instanceof ApiError && query.error.code === ErrorCode.NO_PERMISSION;
    return (
      <BackBlock backHref={BACK} backLabel={t('audiences.detail.back')}>
        <ErrorBlock error={missing ? new ApiError(ErrorCode.NO_PERMISSION, t('audiences.detail.notFound')) : query.error} onRetry={missing ? undefined : query.refetch} />
      </BackBlock>
    );
  }
  if (!query.data || !audience) return <ListSkeleton rows={6} />;
  return <Detail audience={audience} sample={query.data.sample} refetch={query.refetch} />;
}

function Detail({ audience, sample, refetch }: { audience: AudienceSummary; sample: NonNullable<ReturnType<typeof useApiQuery<'getAudience'>>['data']>['sample']; refetch: () => void }) {
  const { t, lang } = useT();
  const navigate = useNavigate();
  const abilities = useAudienceAbilities(audience);
  const options = useSegmentOptions();
  const inactive = audience.status === 'inactive';

  return (
    <Stack gap="md" data-testid="audience-detail" data-audience-id={audience.id}>
      <Paper withBorder radius="md" px="md" py="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 320px' }}>
            <Tooltip label={t('audiences.detail.back')} withArrow>
              <ActionIcon component={Link} to={BACK} variant="subtle" color="gray" size="lg" aria-label={t('audiences.detail.back')}>
                <IconArrowLeft size={18} />
              </ActionIcon>
            </Tooltip>
            <Group gap={8} wrap="nowrap" miw={0}>
              <Title order={1} fz={22} lineClamp={1} title={audience.name} data-testid="audience-name">
                {audience.name}
              </Title>
              <AudienceStatusBadge status={audience.status} />
              {audience.isTest && (
                <Tooltip label={t('audiences.testHint')} withArrow>
                  <Badge variant="outline" color="orange" radius="sm" style={{ flexShrink: 0 }}>
                    {t('audiences.test')}
                  </Badge>
                </Tooltip>
              )}
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              disabled={!abilities.edit || inactive || audience.status === 'in_progress'}
              onClick={() => void refreshAudience(t, audience).then(refetch)}
              data-testid="refresh-audience"
            >
              {t('audiences.refresh')}
            </Button>
            <AudienceExportButton appId={audience.appId} audienceId={audience.id} />
            <AudienceActions
              audience={audience}
              withRefresh={false}
              onChanged={refetch}
              onDeleted={() => void navigate(BACK)}
              onCloned={(clone) => void navigate(`?${new URLSearchParams({ audience: clone.id }).toString()}`)}
            />
          </Group>
        </Group>
      </Paper>

      {audience.status === 'error' && audience.errorName && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={`${audience.errorName}: ${errorNameText(t, audience.errorName)}`} data-testid="audience-error">
          {audience.errorMessage}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Fact label={t('audiences.detail.people')}>
          <Group gap={8} wrap="nowrap">
            <IconUsers size={20} color="var(--mantine-color-blue-6)" aria-hidden />
            <Text fz={26} fw={700} lh={1.1} data-testid="audience-person-count" data-count={audience.personCount ?? ''}>
              {audience.personCount === null ? t('audiences.notCounted') : formatNumber(audience.personCount, lang)}
            </Text>
          </Group>
        </Fact>
        <Fact label={t('audiences.detail.source')}>
          <SourceLabel audience={audience} />
          {audience.sourceType === 'segment' && !audience.segmentId && (
            <Text size="xs" c="dimmed">
              {t('audiences.detail.segmentDeleted')}
            </Text>
          )}
        </Fact>
        <Fact label={t('audiences.detail.refreshed')}>
          <Text size="sm" fw={500}>
            {audience.refreshedAt ? formatDateTime(audience.refreshedAt, lang) : t('audiences.neverRefreshed')}
          </Text>
          {audience.refreshedAt && (
            <Text size="xs" c="dimmed">
              {fromNow(audience.refreshedAt, lang)}
            </Text>
          )}
        </Fact>
        <Fact label={t('audiences.detail.nextRefresh')}>
          <Text size="sm" fw={500}>
            {inactive ? t('audiences.detail.paused') : audience.nextRefreshAt ? formatDateTime(audience.nextRefreshAt, lang) : '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {refreshLabel(t, audience.refreshEveryMinutes)}
          </Text>
        </Fact>
      </SimpleGrid>

      <AudienceShares appId={audience.appId} audienceId={audience.id} version={`${audience.status}:${audience.updatedAt}`} />

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{t('audiences.detail.conditions')}</Text>
              {audience.segmentId && (
                <Anchor component={Link} to={`?${new URLSearchParams({ segment: audience.segmentId }).toString()}`} size="sm" data-testid="open-segment">
                  {t('audiences.detail.openSegment')}
                </Anchor>
              )}
            </Group>
            {audience.definition && audience.definition.nodes.some((n) => n.kind === 'condition') ? (
              <SegmentTree segment={audience.definition} problems={new Map()} readOnly options={options} peers={[]} onOp={noop} onFocusNode={noop} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('audiences.detail.noConditions')}
              </Text>
            )}
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Text fw={600}>{t('audiences.detail.members')}</Text>
            {sample.length > 0 ? (
              <SamplePeople people={sample} label={t('audiences.detail.members')} testId="audience-members" />
            ) : (
              <Text size="sm" c="dimmed" py="xs">
                {audience.refreshedAt ? t('audiences.detail.membersEmpty') : t('audiences.detail.membersNotCounted')}
              </Text>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>

      <Text size="xs" c="dimmed">
        {t('audiences.detail.owner')}: {audience.createdByName ?? t('audiences.unknownOwner')} · {t('audiences.detail.created')}: {formatDateTime(audience.createdAt, lang)}
      </Text>
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap={4}>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.4 }}>
          {label}
        </Text>
        {children}
      </Stack>
    </Paper>
  );
}
