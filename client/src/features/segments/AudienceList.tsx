/**
 * The audiences of the current app: created by me or anyone, each with its state (an error names
 * its failure), person count, source (the segment it follows, or the import type), when it was
 * last counted and who created it, and its actions. The list asks again while an audience is
 * being counted (every POLL_BUSY_MS) and otherwise every POLL_IDLE_MS, so scheduled refreshes show.
 */
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Anchor, Badge, Group, Paper, SegmentedControl, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { usePolling } from '../../state/usePolling.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { formatNumber, fromNow } from '../../entities/person/format.ts';
import { AudienceActions } from './AudienceActions.tsx';
import { AudienceState } from '../../entities/audience/AudienceStatus.tsx';
import { SourceLabel } from './SourceLabel.tsx';

export const POLL_BUSY_MS = 3_000;
export const POLL_IDLE_MS = 60_000;

const busy = (a: AudienceSummary) => a.status === 'new' || a.status === 'in_progress' || a.status === 'sync';

export function AudienceList({ newAction }: { newAction: React.ReactNode }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const [params, setParams] = useSearchParams();
  const owner = params.get('owner') === 'me' ? 'me' : 'all';
  const list = useApiQuery('listAudiences', { params: { appId }, query: { owner }, scope: 'app', enabled: appId !== '' });
  const audiences = list.data?.audiences;
  usePolling(list.refetch, audiences?.some(busy) ? POLL_BUSY_MS : POLL_IDLE_MS, list.state === 'loading');

  const setOwner = (value: string) => {
    const next = new URLSearchParams(params);
    next.set('owner', value);
    setParams(next, { replace: true });
  };
  const openHref = (id: string) => `?${new URLSearchParams({ audience: id }).toString()}`;

  const filters = (
    <Group gap="lg" mb="md">
      <Stack gap={4}>
        <Text size="xs" fw={600} c="dimmed" id="audiences-owner-label">
          {t('audiences.owner.label')}
        </Text>
        <SegmentedControl
          size="sm"
          aria-labelledby="audiences-owner-label"
          value={owner}
          onChange={setOwner}
          data={[
            { value: 'me', label: t('audiences.owner.me') },
            { value: 'all', label: t('audiences.owner.all') },
          ]}
          data-testid="owner-filter"
        />
      </Stack>
    </Group>
  );

  if (!can('ui:audience.view')) return <Paper withBorder><EmptyBlock icon={<IconUsersGroup size={28} />} title={t('permissions.denied')} /></Paper>;
  if (list.state === 'error' && !audiences) return <>{filters}<ErrorBlock error={list.error} onRetry={list.refetch} /></>;
  if (!audiences) return <>{filters}<ListSkeleton rows={5} /></>;

  if (audiences.length === 0) {
    return (
      <>
        {filters}
        <Paper withBorder>
          {owner === 'me' ? (
            <EmptyBlock icon={<IconUsersGroup size={28} />} title={t('audiences.emptyFilteredTitle')} description={t('audiences.emptyFilteredBody')} />
          ) : (
            <EmptyBlock icon={<IconUsersGroup size={28} />} title={t('audiences.emptyTitle')} description={t('audiences.emptyBody')} action={newAction} />
          )}
        </Paper>
      </>
    );
  }

  return (
    <>
      {filters}
      <Paper withBorder>
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label={t('nav.audiences')} highlightOnHover verticalSpacing="sm" data-testid="audience-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('audiences.col.name')}</Table.Th>
                <Table.Th w={140}>{t('audiences.col.status')}</Table.Th>
                <Table.Th w={110} ta="right">
                  {t('audiences.col.people')}
                </Table.Th>
                <Table.Th miw={180}>{t('audiences.col.source')}</Table.Th>
                <Table.Th w={150}>{t('audiences.col.refreshed')}</Table.Th>
                <Table.Th w={150}>{t('audiences.col.owner')}</Table.Th>
                <Table.Th w={60} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audiences.map((a) => (
                <Table.Tr key={a.id} data-testid="audience-row" data-audience-id={a.id} style={{ cursor: 'pointer' }} onClick={() => void navigate(openHref(a.id))}>
                  <Table.Td miw={200}>
                    <Group gap={6} wrap="nowrap">
                      <Anchor component={Link} to={openHref(a.id)} fw={600} size="sm" aria-label={t('audiences.open', { name: a.name })} onClick={(e) => e.stopPropagation()} style={{ wordBreak: 'break-word' }}>
                        {a.name}
                      </Anchor>
                      {a.isTest && (
                        <Tooltip label={t('audiences.testHint')} withArrow>
                          <Badge size="xs" variant="outline" color="orange" radius="sm" style={{ flexShrink: 0 }}>
                            {t('audiences.test')}
                          </Badge>
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <AudienceState audience={a} />
                  </Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="audience-count">
                    <Text size="sm" fw={600}>
                      {a.personCount === null ? t('audiences.notCounted') : formatNumber(a.personCount, lang)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <SourceLabel audience={a} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" title={a.refreshedAt ? formatDateTime(a.refreshedAt, lang) : undefined}>
                      {a.refreshedAt ? fromNow(a.refreshedAt, lang) : t('audiences.neverRefreshed')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={1}>
                      {a.createdByName ?? t('audiences.unknownOwner')}
                    </Text>
                  </Table.Td>
                  <Table.Td onClick={(e) => e.stopPropagation()}>
                    <AudienceActions audience={a} onChanged={list.refetch} onDeleted={list.refetch} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </>
  );
}
