/**
 * /communication/report/ab-analysis: pick one of the app's played A/B tests and a metric; each
 * variant's rates with their 95% intervals (a chart with error bars and a table), the z-test
 * against the control, the verdict (shared message/abStats.ts rule) and "Send winner to the rest",
 * confirmed, and disabled with the reason when the test held nobody back, is still sending, has no
 * winner, was already sent, or the person may not play the message. The test and the metric live
 * in the URL (`?message=…&metric=…`), next to the shell's range parameters.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Group, Paper, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconFlask, IconTrophy } from '@tabler/icons-react';
import { AbMetric, type AbAnalysis, type AbVariantResult } from '@gd/shared/schemas/abAnalysis';
import { AB_STATS } from '@gd/shared/message/abStats';
import type { MetaApp } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { MessageStatusBadge } from '../../entities/message/MessageStatus.tsx';
import { count, percent, points, pValueText, thresholdText } from './format.ts';
import { RateChart } from './RateChart.tsx';

export default function AbAnalysisPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.abAnalysis')} descriptionNoApp={t('abAnalysis.descriptionNoApp')}>{(app) => <Analysis app={app} />}</AppScreen>;
}

function Analysis({ app }: { app: MetaApp }) {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const messageId = params.get('message') ?? undefined;
  const metric = AbMetric.catch('click').parse(params.get('metric') ?? 'click');
  const query = useApiQuery('abAnalysis', { params: { appId: app.id }, query: { ...(messageId ? { messageId } : {}), metric }, scope: 'app' });
  const update = (change: Record<string, string>) => {
    const next = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader title={t('nav.abAnalysis')} description={t('abAnalysis.description')} />
      <DataState query={query} rows={6}>
        {({ tests, analysis }) => (!analysis ? (
          <Paper withBorder>
            <EmptyBlock icon={<IconFlask size={28} />} title={t('abAnalysis.emptyTitle')} description={t('abAnalysis.emptyBody')} />
          </Paper>
        ) : (
          <Stack gap="md">
            <Group gap="md" align="flex-end" wrap="wrap">
              <Select
                label={t('abAnalysis.test')}
                data={tests.map((x) => ({ value: x.id, label: x.name }))}
                value={analysis.message.id}
                allowDeselect={false}
                searchable
                onChange={(v) => v && update({ message: v })}
                style={{ flex: '1 1 260px', maxWidth: 420 }}
                data-testid="ab-test-select"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>{t('abAnalysis.metric')}</Text>
                <SegmentedControl
                  value={metric}
                  onChange={(v) => update({ metric: v })}
                  data={AbMetric.options.map((m) => ({ value: m, label: t(`abAnalysis.metrics.${m}`) }))}
                  aria-label={t('abAnalysis.metric')}
                />
              </Stack>
            </Group>
            <Result analysis={analysis} appId={app.id} onSent={query.refetch} />
          </Stack>
        ))}
      </DataState>
    </>
  );
}

function Result({ analysis, appId, onSent }: { analysis: AbAnalysis; appId: string; onSent: () => void }) {
  const { t, lang } = useT();
  const pct = percent(lang);
  const n = count(lang);
  const { metric, decision } = analysis;
  const nameOf = (id: string | null) => analysis.variants.find((v) => v.id === id)?.name ?? id ?? '';
  const metricName = t(`abAnalysis.metrics.${metric}`).toLowerCase();
  const verdict = t(`abAnalysis.verdict.${decision.reason}`, {
    name: nameOf(decision.bestId), metric: metricName, threshold: thresholdText(decision.threshold, lang), sends: AB_STATS.minSends,
  });

  return (
    <>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group gap="sm" wrap="wrap">
            <Title order={3} size="h4">{analysis.message.name}</Title>
            <MessageStatusBadge status={analysis.message.status} />
            <Badge variant="light" color="gray" style={{ textTransform: 'none' }}>{analysis.testPercent < 100 ? t('abAnalysis.testPortion', { percent: analysis.testPercent }) : t('abAnalysis.everyone')}</Badge>
            <Text size="sm" c="dimmed">{t('abAnalysis.started', { time: formatDateTime(analysis.startedAt, lang) })}</Text>
          </Group>
          <Alert
            color={decision.winnerId ? 'teal' : 'gray'}
            variant="light"
            icon={decision.winnerId ? <IconTrophy size={18} /> : undefined}
            data-testid="ab-verdict"
            data-reason={decision.reason}
          >
            <Text size="sm" fw={decision.winnerId ? 600 : undefined}>{verdict}</Text>
            <Text size="xs" c="dimmed" mt={4}>{t('abAnalysis.rule')}</Text>
          </Alert>
          <SendWinner analysis={analysis} appId={appId} onSent={onSent} />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={3} size="h5" mb="sm">{t('abAnalysis.chartTitle', { rate: t(`abAnalysis.rateOf.${metric}`) })}</Title>
        <RateChart analysis={analysis} />
      </Paper>
      <Paper withBorder>
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" data-testid="ab-variants">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('abAnalysis.variant')}</Table.Th>
                <Table.Th ta="right">{t('abAnalysis.sends')}</Table.Th>
                <Table.Th ta="right">{t('abAnalysis.opens')}</Table.Th>
                <Table.Th ta="right">{t('abAnalysis.clicks')}</Table.Th>
                <Table.Th ta="right">{t('abAnalysis.conversions')}</Table.Th>
                <Table.Th ta="right">{t(`abAnalysis.rateOf.${metric}`)}</Table.Th>
                <Table.Th ta="right">{t('abAnalysis.vsControl')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {analysis.variants.map((v, i) => (
                <VariantRow key={v.id} v={v} control={i === 0} winner={v.id === decision.winnerId} metric={metric} pct={pct} n={n} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </>
  );
}

function VariantRow({ v, control, winner, metric, pct, n }: {
  v: AbVariantResult; control: boolean; winner: boolean; metric: AbMetric; pct: (x: number) => string; n: (x: number) => string;
}) {
  const { t, lang } = useT();
  const rate = v.rates[metric];
  return (
    <Table.Tr data-testid="ab-variant" data-variant={v.id} data-winner={winner || undefined}>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text fw={600}>{v.name}</Text>
          {control && <Text size="xs" c="dimmed">({t('abAnalysis.control')})</Text>}
          {winner && <Badge color="teal" leftSection={<IconTrophy size={12} />} data-testid="winner-badge">{t('abAnalysis.winner')}</Badge>}
        </Group>
      </Table.Td>
      <Table.Td ta="right">{n(v.sends)}</Table.Td>
      <Table.Td ta="right">{n(v.opens)}</Table.Td>
      <Table.Td ta="right">{n(v.clicks)}</Table.Td>
      <Table.Td ta="right">{n(v.conversions)}</Table.Td>
      <Table.Td ta="right">
        <Text size="sm" fw={600}>{pct(rate.rate)}</Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{t('abAnalysis.interval', { low: pct(rate.low), high: pct(rate.high) })}</Text>
      </Table.Td>
      <Table.Td ta="right">
        {v.vsControl ? (
          <>
            <Text size="sm" c={v.vsControl.difference > 0 ? 'teal.8' : v.vsControl.difference < 0 ? 'red.8' : undefined}>{t('abAnalysis.difference', points(v.vsControl.difference, lang))}</Text>
            <Text size="xs" c="dimmed">{pValueText(v.vsControl.pValue, lang)}</Text>
          </>
        ) : '—'}
      </Table.Td>
    </Table.Tr>
  );
}

function SendWinner({ analysis, appId, onSent }: { analysis: AbAnalysis; appId: string; onSent: () => void }) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const [confirming, setConfirming] = useState(false);
  const winnerId = analysis.decision.winnerId;
  const winnerName = analysis.variants.find((v) => v.id === winnerId)?.name ?? '';
  const mayPlay = can('ui:message.play', { ownerId: analysis.message.ownerId });
  const reason = analysis.sendBlock ? t(`abAnalysis.block.${analysis.sendBlock}`) : !mayPlay ? t('abAnalysis.block.noPermission') : null;
  const run = analysis.winnerRun;
  const n = count(lang);

  return (
    <Stack gap={6}>
      {run && (
        <Text size="sm" data-testid="winner-run">
          {t('abAnalysis.winnerRun', {
            name: analysis.variants.find((v) => v.id === run.variantId)?.name ?? run.variantId, sent: n(run.sent), recipients: n(run.recipients), state: t(`abAnalysis.runState.${run.state}`),
          })}
        </Text>
      )}
      {analysis.testPercent < 100 && (
        <Group gap="sm" wrap="wrap">
          <GatedButton
            allowed={reason === null && winnerId !== null}
            reason={reason ?? undefined}
            leftSection={<IconTrophy size={16} />}
            onClick={() => setConfirming(true)}
            data-testid="send-winner"
          >
            {t('abAnalysis.sendWinner', { count: analysis.heldBack })}
          </GatedButton>
          {reason && <Text size="sm" c="dimmed" data-testid="send-winner-reason">{reason}</Text>}
        </Group>
      )}
      {winnerId && (
        <ConfirmDialog
          opened={confirming}
          title={t('abAnalysis.confirmTitle', { name: winnerName })}
          message={t('abAnalysis.confirmBody', { name: winnerName, count: analysis.heldBack })}
          confirmLabel={t('abAnalysis.confirm', { name: winnerName })}
          onConfirm={async () => {
            await api.call('sendAbWinner', { params: { appId, messageId: analysis.message.id }, body: { variantId: winnerId } });
            notifySuccess(t('abAnalysis.sentToast'));
            onSent();
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </Stack>
  );
}
