/** A journey's status (draft, live, stopped) and its live version, as the list and the editor show them. */
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconPencilExclamation } from '@tabler/icons-react';
import type { JourneyStatus as Status, JourneySummary } from '@gd/shared/schemas/journeys';
import { useT } from '../../i18n/useT.ts';

const COLORS: Record<Status, string> = { draft: 'gray', live: 'teal', stopped: 'orange' };

export function JourneyStatusBadge({ status }: { status: Status }) {
  const { t } = useT();
  return (
    <Badge
      color={COLORS[status]}
      variant={status === 'live' ? 'filled' : 'light'}
      tt="none"
      radius="sm"
      data-testid="journey-status"
      data-status={status}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t(`journeys.status.${status}`)}
    </Badge>
  );
}

/** "v3" and, when the draft has edits the live version lacks, a marker saying so. */
export function JourneyVersion({ journey }: { journey: Pick<JourneySummary, 'liveVersion' | 'draftChanged'> }) {
  const { t } = useT();
  if (journey.liveVersion === null) {
    return (
      <Text size="sm" c="dimmed">
        {t('journeys.notLaunched')}
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      <Text size="sm" fw={500}>
        {t('journeys.version', { version: journey.liveVersion })}
      </Text>
      {journey.draftChanged && (
        <Tooltip label={t('journeys.draftChangedHint')} multiline w={260} withArrow>
          <Badge color="yellow" variant="light" tt="none" radius="sm" leftSection={<IconPencilExclamation size={12} />} tabIndex={0} data-testid="draft-changed" style={{ minWidth: 'max-content' }}>
            {t('journeys.draftChanged')}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}
