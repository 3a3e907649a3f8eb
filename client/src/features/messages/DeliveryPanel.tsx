/**
 * Where the message's sends stand (issue 13), under its header once it has been played or tested:
 * each run (the live send of an approved version, or a test send) with how many of its recipients
 * got it, still wait (a local-time wave, quiet hours, a retry, a pause), failed, had their address
 * retired or were skipped by the frequency cap, and why the rest did not go out. Asked again every
 * 2 s while the message runs, slowly once approved or while a test send is on its way, never on a
 * draft (messagePollMs).
 */
import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { DeliveryRun } from '@gd/shared/schemas/messages';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { formatDateTime } from '../../ui/format.ts';
import { usePolling } from '../../state/usePolling.ts';
import { messagePollMs } from './messagePolling.ts';

const SHOWN = 3;
const STATE_COLOR: Record<DeliveryRun['state'], string> = { resolving: 'blue', sending: 'blue', finished: 'green' };
const COUNTS = ['sent', 'queued', 'failed', 'retired', 'skipped'] as const;
const COUNT_COLOR: Record<(typeof COUNTS)[number], string> = { sent: 'teal', queued: 'gray', failed: 'red', retired: 'orange', skipped: 'yellow' };

function RunCard({ run, now }: { run: DeliveryRun; now: number }) {
  const { t, lang } = useT();
  const done = run.counts.sent + run.counts.failed + run.counts.retired + run.counts.skipped;
  const total = Math.max(run.recipients, done + run.counts.queued);
  const title = run.kind === 'test' ? t('messages.delivery.test')
    : run.kind === 'journey' || run.kind === 'rule' || run.kind === 'winner' ? t(`messages.delivery.${run.kind}`, { version: run.version ?? '' })
    : run.occurrence > 0 ? t('messages.delivery.occurrence', { number: run.occurrence + 1, version: run.version ?? '' })
      : t('messages.delivery.live', { version: run.version ?? '' });
  // A run whose time has not come: a scheduled send, a recurring message's next occurrence not yet
  // resolved, or one whose every recipient waits for a later time (their local time, quiet hours).
  const waitsFor = run.state === 'resolving' && run.recipients === 0 && Date.parse(run.startsAt) > now ? run.startsAt
    : run.state !== 'finished' && done === 0 && run.counts.queued > 0 && run.nextAt && Date.parse(run.nextAt) > now ? run.nextAt
      : null;
  const upcoming = waitsFor !== null;
  return (
    <Stack gap="xs" data-testid="delivery-run" data-kind={run.kind} data-state={run.state}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} size="sm">{title}</Text>
          <Badge variant="light" color={upcoming ? 'gray' : STATE_COLOR[run.state]} data-testid="delivery-state">
            {upcoming ? t('messages.delivery.upcoming') : t(`messages.delivery.state.${run.state}`)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" data-testid="delivery-time">
          {waitsFor !== null ? t('messages.delivery.startsAt', { time: formatDateTime(waitsFor, lang) }) : t('messages.delivery.started', { time: formatDateTime(run.createdAt, lang) })}
        </Text>
      </Group>
      <Progress.Root size="md" aria-label={t('messages.delivery.progress', { done, total })}>
        {COUNTS.filter((c) => c !== 'queued').map((c) => (
          <Progress.Section key={c} value={total ? (run.counts[c] / total) * 100 : 0} color={COUNT_COLOR[c]} />
        ))}
      </Progress.Root>
      <SimpleGrid cols={{ base: 3, md: 5 }} spacing="xs">
        {COUNTS.map((c) => (
          <div key={c} data-testid={`delivery-${c}`}>
            <Text size="xs" c="dimmed">{t(`messages.delivery.count.${c}`)}</Text>
            <Text fw={600} size="lg" c={run.counts[c] && c !== 'sent' && c !== 'queued' ? `${COUNT_COLOR[c]}.8` : undefined}>{run.counts[c].toLocaleString(lang)}</Text>
          </div>
        ))}
      </SimpleGrid>
      {run.state === 'finished' && run.recipients === 0 && (
        <Text size="xs" c="dimmed" data-testid="delivery-nobody">{t('messages.delivery.noRecipients')}</Text>
      )}
      {!upcoming && run.counts.queued > 0 && run.nextAt && (
        <Text size="xs" c="dimmed">{t('messages.delivery.nextAt', { time: formatDateTime(run.nextAt, lang) })}</Text>
      )}
      {run.problems.length > 0 && (
        <Stack gap={2} data-testid="delivery-problems">
          {run.problems.map((p) => (
            <Text key={`${p.status}:${p.reason}`} size="xs">
              <Text span fw={600} c={`${COUNT_COLOR[p.status]}.8`}>{t(`messages.delivery.count.${p.status}`)}</Text>
              {' · '}
              {p.reason}
              {' '}
              <Text span c="dimmed">({p.count.toLocaleString(lang)})</Text>
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function DeliveryPanel({ messageId, status }: { messageId: string; status: string }) {
  const { t } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const query = useApiQuery('messageDelivery', { params: { appId, messageId }, scope: 'app' });
  const runs = query.data?.runs ?? [];
  const moving = runs.some((r) => r.state !== 'finished');
  usePolling(query.refetch, messagePollMs(status, moving), query.state === 'loading');
  if (runs.length === 0) {
    return query.state === 'error' ? <Text size="sm" c="red" data-testid="delivery-error">{t('messages.delivery.failed')}</Text> : null;
  }
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('messages.delivery.title')} data-testid="delivery-panel">
      <Title order={2} fz="md" fw={600} mb="sm">{t('messages.delivery.title')}</Title>
      <Stack gap="lg">
        {runs.slice(0, SHOWN).map((run) => <RunCard key={run.id} run={run} now={query.loadedAt ?? 0} />)}
      </Stack>
    </Paper>
  );
}
