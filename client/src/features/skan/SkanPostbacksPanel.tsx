/** The postbacks received in the shell's date range, newest first, 100 a page, with their filters. */
import { useState } from 'react';
import { Badge, Group, Pagination, Paper, Select, Table, Text, Tooltip } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { SKAN_LIMITS } from '@gd/shared/schemas/skan';
import { useT } from '../../i18n/useT.ts';
import { useDateRange } from '../../state/dateRangeStore.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useFreshOnMount } from './useFreshOnMount.ts';
import { DataState } from '../../ui/DataState.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { EmptyBlock } from '../../ui/States.tsx';

const ALL = 'all';

export function SkanPostbacksPanel({ app }: { app: MetaApp }) {
  const { t, lang } = useT();
  const range = useDateRange((s) => s.range);
  const [win, setWin] = useState(ALL);
  const [fidelity, setFidelity] = useState(ALL);
  const [verified, setVerified] = useState(ALL);
  const [page, setPage] = useState(1);
  const query = {
    startDay: range.startDay, endDay: range.endDay, offset: (page - 1) * SKAN_LIMITS.pageSize,
    ...(win !== ALL ? { window: win } : {}), ...(fidelity !== ALL ? { fidelity } : {}), ...(verified !== ALL ? { verified } : {}),
  };
  const postbacks = useApiQuery('skanPostbacks', { params: { appId: app.id }, scope: 'app', range: true, query });
  useFreshOnMount(postbacks);
  const filter = (label: string, value: string, set: (v: string) => void, data: { value: string; label: string }[], testId: string) => (
    <Select
      label={label} value={value} allowDeselect={false} w={180} data={[{ value: ALL, label: t('skan.all') }, ...data]} data-testid={testId}
      onChange={(v) => { set(v ?? ALL); setPage(1); }}
    />
  );
  return (
    <>
      <Group gap="md" mb="md" align="flex-end" wrap="wrap">
        {filter(t('skan.window'), win, setWin, [0, 1, 2].map((w) => ({ value: String(w), label: t('skan.windowShort', { n: w + 1 }) })), 'skan-filter-window')}
        {filter(t('skan.fidelity'), fidelity, setFidelity, [{ value: '1', label: t('skan.fidelityType.1') }, { value: '0', label: t('skan.fidelityType.0') }], 'skan-filter-fidelity')}
        {filter(t('skan.verification'), verified, setVerified, [{ value: 'true', label: t('skan.verified') }, { value: 'false', label: t('skan.rejected') }], 'skan-filter-verified')}
      </Group>
      <DataState query={postbacks} rows={8}>
        {(answer) => (
          <>
            <ListTable
              isEmpty={answer.postbacks.length === 0}
              empty={<Paper withBorder><EmptyBlock icon={<IconInbox size={28} />} title={t('skan.postbacksEmptyTitle')} description={t('skan.postbacksEmptyBody')} /></Paper>}
              label={t('skan.tabs.postbacks')}
              minWidth={1100}
              head={
                <>
                  <Table.Th>{t('skan.received')}</Table.Th>
                  <Table.Th>{t('skan.campaign')}</Table.Th>
                  <Table.Th>{t('skan.window')}</Table.Th>
                  <Table.Th>{t('skan.fidelity')}</Table.Th>
                  <Table.Th>{t('skan.value')}</Table.Th>
                  <Table.Th>{t('skan.conversions')}</Table.Th>
                  <Table.Th>{t('skan.verification')}</Table.Th>
                </>
              }
            >
              {answer.postbacks.map((p) => (
                <Table.Tr key={p.id} data-testid="skan-postback-row">
                  <Table.Td>
                    <Text size="sm">{formatDateTime(p.receivedAt, lang)}</Text>
                    <Text size="xs" c="dimmed">{t('skan.versionN', { version: p.version })}{p.didWin === false ? ` · ${t('skan.notWinning')}` : ''}{p.redownload ? ` · ${t('skan.redownload')}` : ''}</Text>
                  </Table.Td>
                  <Table.Td maw={280}>
                    <Text size="sm" fw={600} truncate="end" c={p.campaignName ? undefined : 'dimmed'}>{p.campaignName ?? t('skan.unmapped')}</Text>
                    <Text size="xs" c="dimmed" truncate="end">{p.adNetworkId} · {p.sourceIdentifier}</Text>
                  </Table.Td>
                  <Table.Td><Text size="sm">{t('skan.windowShort', { n: p.window + 1 })}</Text></Table.Td>
                  <Table.Td><Text size="sm">{p.fidelity === null ? '—' : t(`skan.fidelityType.${p.fidelity}`)}</Text></Table.Td>
                  <Table.Td>
                    {p.fineValue !== null ? <Badge variant="light" color="blue" tt="none">{t('skan.fine', { value: p.fineValue })}</Badge>
                      : p.coarseValue !== null ? <Badge variant="light" color="grape" tt="none">{t(`skan.coarseValue.${p.coarseValue}`)}</Badge>
                        : <Text size="sm" c="dimmed">{t('skan.none')}</Text>}
                  </Table.Td>
                  <Table.Td maw={260}><Text size="sm" truncate="end">{p.events.length ? p.events.join(', ') : '—'}</Text></Table.Td>
                  <Table.Td>
                    {p.verified ? <Badge color="teal" variant="light" tt="none">{t('skan.verified')}</Badge> : (
                      <Tooltip label={t(`skan.reason.${p.rejectReason ?? 'bad_signature'}`)}>
                        <Badge color="red" variant="light" tt="none">{t('skan.rejected')}</Badge>
                      </Tooltip>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            {answer.total > SKAN_LIMITS.pageSize && (
              <Group justify="space-between" mt="sm">
                <Text size="sm" c="dimmed">{t('skan.count', { count: answer.total.toLocaleString(lang) })}</Text>
                <Pagination value={page} onChange={setPage} total={Math.ceil(answer.total / SKAN_LIMITS.pageSize)} size="sm" />
              </Group>
            )}
          </>
        )}
      </DataState>
    </>
  );
}
