/**
 * The live estimate beside the conditions: how many people match now (dimmed with "Updating…"
 * while a newer answer is on its way; offline, dimmed with a note that it is from before the latest
 * changes, since nothing is asked until the connection returns), what was left out (incomplete conditions), a failure with
 * a retry, and a sample of the matching people.
 */
import { Alert, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh, IconUsers } from '@tabler/icons-react';
import { LivePanel } from '../../ui/LivePanel.tsx';
import { useT } from '../../i18n/useT.ts';
import { errorText } from '../../ui/errorText.ts';
import { formatNumber } from '../../entities/person/format.ts';
import { SamplePeople } from './SamplePeople.tsx';
import { estimateStanding, type Estimate } from './useEstimate.ts';

export function EstimatePanel({ estimate, leftOut, empty, offline }: { estimate: Estimate; leftOut: number; empty: boolean; offline: boolean }) {
  const { t, lang } = useT();
  const { result, pending, current, error } = estimate;
  const { updating, stale } = estimateStanding(estimate, offline);
  return (
    <LivePanel title={t('segments.estimate.title')} updating={updating} updatingLabel={t('segments.estimate.updating')} data-testid="estimate" data-count={result && current && !pending ? result.count : ''}>
      <Group gap="sm" wrap="nowrap" align="center">
        <IconUsers size={28} color="var(--mantine-color-blue-6)" aria-hidden />
        <Text fz={32} fw={700} lh={1.1} style={{ opacity: updating || stale ? 0.45 : 1, transition: 'opacity 120ms' }} data-testid="estimate-count" aria-live="polite">
          {result ? formatNumber(result.count, lang) : '—'}
        </Text>
        {result && (
          <Text size="sm" c="dimmed" mt={8}>
            {t('segments.estimate.unit', { count: result.count })}
          </Text>
        )}
      </Group>
      {empty && (
        <Text size="xs" c="dimmed">
          {t('segments.estimate.everybody')}
        </Text>
      )}
      {leftOut > 0 && (
        <Text size="xs" c="orange.8" data-testid="estimate-left-out">
          {t('segments.estimate.partial', { count: leftOut })}
        </Text>
      )}
      {stale && (
        <Text size="xs" c="dimmed" data-testid="estimate-stale">
          {t('segments.estimate.offlineStale')}
        </Text>
      )}
      {offline && result === null && (
        <Text size="xs" c="dimmed">
          {t('segments.estimate.offline')}
        </Text>
      )}
      {error !== null && error !== undefined && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} title={t('segments.estimate.failed')} p="xs" data-testid="estimate-error">
          <Stack gap={6} align="flex-start">
            <Text size="xs">{errorText(t, error)}</Text>
            <Button size="compact-xs" variant="default" leftSection={<IconRefresh size={12} />} onClick={estimate.retry}>
              {t('segments.estimate.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {result && (
        <Stack gap={4}>
          <Text size="xs" fw={600} c="dimmed">
            {t('segments.estimate.sample')}
          </Text>
          {result.sample.length === 0 ? (
            <Text size="sm" c="dimmed" py="xs">
              {t('segments.estimate.sampleEmpty')}
            </Text>
          ) : (
            <ScrollArea.Autosize mah="min(420px, 50vh)" type="auto" offsetScrollbars style={{ opacity: updating ? 0.55 : 1 }}>
              <SamplePeople compact people={result.sample} label={t('segments.estimate.sample')} testId="estimate-sample" />
            </ScrollArea.Autosize>
          )}
        </Stack>
      )}
    </LivePanel>
  );
}
