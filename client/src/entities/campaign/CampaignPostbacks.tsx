/**
 * A campaign's provider postbacks (issue 16, piece D): every call made to its provider (installs
 * and tracked events), newest first, with time, kind, URL, status, attempts and the receiver's
 * answer code or the error; totals by status and a status filter. The apptracker shows it on a
 * campaign's page; `CampaignPostbacks({ appId, campaignId })`.
 */
import { useState } from 'react';
import { Badge, Group, SegmentedControl, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { AcqPostback, PostbackStatus } from '@gd/shared/schemas/postbacks';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';

const COLOR: Record<PostbackStatus, string> = { ok: 'teal', failed: 'red', pending: 'yellow' };
type Filter = 'all' | PostbackStatus;
/** A badge keeps its whole word when the drawer is narrow. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export function CampaignPostbacks({ appId, campaignId }: { appId: string; campaignId: string }) {
  const { t, lang } = useT();
  const [filter, setFilter] = useState<Filter>('all');
  const calls = useApiQuery('campaignPostbacks', { params: { appId, campaignId }, query: filter === 'all' ? {} : { status: filter }, scope: 'app' });
  const answer = (p: AcqPostback) => (p.responseStatus !== null ? String(p.responseStatus) : '—');
  return (
    <Stack gap="sm" data-testid="campaign-postbacks">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={4}>{t('campaignPostbacks.title')}</Title>
          <Text size="sm" c="dimmed">{t('campaignPostbacks.description')}</Text>
        </div>
        <SegmentedControl
          size="xs"
          aria-label={t('campaignPostbacks.filter')}
          value={filter}
          onChange={(v) => setFilter(v)}
          data={[{ value: 'all', label: t('campaignPostbacks.all') }, ...(['ok', 'failed', 'pending'] as const).map((s) => ({ value: s, label: t(`campaignPostbacks.status.${s}`) }))]}
        />
      </Group>
      <DataState query={calls} rows={3}>
        {({ postbacks, totals }) => (
          <>
            <Text size="xs" c="dimmed" data-testid="campaign-postbacks-totals">
              {t('campaignPostbacks.totals', { ok: totals.ok.toLocaleString(lang), failed: totals.failed.toLocaleString(lang), pending: totals.pending.toLocaleString(lang) })}
            </Text>
            <ListTable
              isEmpty={postbacks.length === 0}
              empty={<EmptyBlock icon={<IconSend size={28} />} title={t('campaignPostbacks.emptyTitle')} description={t('campaignPostbacks.emptyBody')} />}
              label={t('campaignPostbacks.title')}
              minWidth={560}
              head={
                <>
                  <Table.Th>{t('campaignPostbacks.fields.time')}</Table.Th>
                  <Table.Th>{t('campaignPostbacks.fields.url')}</Table.Th>
                  <Table.Th>{t('campaignPostbacks.fields.status')}</Table.Th>
                </>
              }
            >
              {postbacks.map((p) => (
                <Table.Tr key={p.id} data-testid="postback-row">
                  <Table.Td maw={210}>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.lastAttemptAt ?? p.createdAt, lang)}</Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {t(`campaignPostbacks.kind.${p.kind}`)}{p.eventName ? ` · ${p.trackerName ? `${p.eventName} · ${p.trackerName}` : p.eventName}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td maw={260}>
                    <Tooltip label={p.body ? `${p.url}\n${p.body}` : p.url} multiline maw={520} openDelay={300} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                      <Text size="xs" ff="monospace" truncate="end">{p.method} {p.url}</Text>
                    </Tooltip>
                    {p.error && (
                      <Tooltip label={p.error} multiline maw={520} openDelay={300}>
                        <Text size="xs" c="red" truncate="end">{p.error}</Text>
                      </Tooltip>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={COLOR[p.status]} tt="none" style={WHOLE}>{t(`campaignPostbacks.status.${p.status}`)}</Badge>
                    <Text size="xs" c="dimmed" className="gd-num" style={{ whiteSpace: 'nowrap' }}>
                      {t('campaignPostbacks.attemptsAnswer', { attempts: p.attempts, answer: answer(p) })}
                    </Text>
                    {p.nextAt && <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{t('campaignPostbacks.nextAttempt', { time: formatDateTime(p.nextAt, lang) })}</Text>}
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          </>
        )}
      </DataState>
    </Stack>
  );
}
