/**
 * The message's metrics (issue 13), beside its sends: KPI tiles for the whole message, a table per
 * variant when it has more than one, and why sends failed. Asked again every 2 s while the message
 * runs, slowly once approved, never on a draft (messagePollMs). Hidden until the message has figures or is on its way.
 */
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import type { MessageSummary } from '@gd/shared/schemas/messages';
import type { Metrics } from '@gd/shared/schemas/messageAnalytics';
import { KPI_ORDER, formatKpi, type KpiKey } from '../../entities/messageMetrics/format.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { usePolling } from '../../state/usePolling.ts';
import { ON_ITS_WAY, messagePollMs } from './messagePolling.ts';

const HELP = new Set<KpiKey>(['delivered', 'opens', 'clicks', 'ctr', 'conversionsDirect', 'conversionsIndirect']);

function Tile({ kpi, value }: { kpi: KpiKey; value: number | null }) {
  const { t, lang } = useT();
  const label = <Text size="xs" c="dimmed">{t(`messageAnalytics.kpi.${kpi}`)}</Text>;
  return (
    <div data-testid={`metric-${kpi}`}>
      {HELP.has(kpi) ? <Tooltip label={t(`messageAnalytics.kpiHelp.${kpi as 'delivered'}`)} multiline w={240}><span>{label}</span></Tooltip> : label}
      <Text fw={600} size="lg" data-testid={`metric-${kpi}-value`}>{formatKpi(kpi, value, lang)}</Text>
    </div>
  );
}

const anything = (m: Metrics) => KPI_ORDER.some((k) => k !== 'ctr' && (m[k] ?? 0) > 0);

export function MetricsPanel({ message }: { message: MessageSummary }) {
  const { t, lang } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const query = useApiQuery('messageMetrics', { params: { appId, messageId: message.id }, scope: 'app' });
  usePolling(query.refetch, messagePollMs(message.status), query.state === 'loading');
  const metrics = query.data?.metrics;
  if (!metrics) {
    if (query.state !== 'error' || !ON_ITS_WAY.has(message.status)) return null;
    return (
      <Alert color="red" variant="light" data-testid="metrics-error">
        <Group justify="space-between">
          <Text size="sm">{t('messageAnalytics.panel.failed')}</Text>
          <Button size="xs" variant="default" onClick={query.refetch}>{t('messageAnalytics.panel.retry')}</Button>
        </Group>
      </Alert>
    );
  }
  if (!anything(metrics.total) && !ON_ITS_WAY.has(message.status)) return null;
  const variants = Object.entries(metrics.variants).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('messageAnalytics.panel.title')} data-testid="metrics-panel">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} fz="md" fw={600}>{t('messageAnalytics.panel.title')}</Title>
        <Text size="xs" c="dimmed">
          {t('messageAnalytics.panel.goal', { event: metrics.conversion.eventName, days: metrics.conversion.windowDays })}
          {message.status === 'Sending' ? ` · ${t('messageAnalytics.panel.live')}` : ''}
        </Text>
      </Group>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 6 }} spacing="sm" verticalSpacing="xs">
          {KPI_ORDER.map((k) => <Tile key={k} kpi={k} value={metrics.total[k]} />)}
        </SimpleGrid>
        {variants.length > 1 && (
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder fz="sm" data-testid="metrics-variants">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('messageAnalytics.panel.variant')}</Table.Th>
                  {KPI_ORDER.map((k) => <Table.Th key={k} ta="right">{t(`messageAnalytics.kpi.${k}`)}</Table.Th>)}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {variants.map(([id, m]) => (
                  <Table.Tr key={id} data-testid="metrics-variant" data-variant={id}>
                    <Table.Td fw={600}>{id}</Table.Td>
                    {KPI_ORDER.map((k) => <Table.Td key={k} ta="right">{formatKpi(k, m[k], lang)}</Table.Td>)}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {variants.length < 2 && message.type === 'test_ab' && (
          <Text size="xs" c="dimmed" data-testid="metrics-variants-pending">{t('messageAnalytics.panel.variantsPending')}</Text>
        )}
        {metrics.total.failReasons.length > 0 && (
          <Stack gap={2} data-testid="metrics-fails">
            <Text size="xs" fw={600}>{t('messageAnalytics.panel.failReasons')}</Text>
            {metrics.total.failReasons.map((f) => (
              <Text key={`${f.status}:${f.reason}`} size="xs">
                <Text span fw={600} c={f.status === 'failed' ? 'red.8' : 'orange.8'}>{t(`messageAnalytics.panel.status.${f.status}`)}</Text>
                {' · '}{f.reason || '—'}{' '}<Text span c="dimmed">({f.count.toLocaleString(lang)})</Text>
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
