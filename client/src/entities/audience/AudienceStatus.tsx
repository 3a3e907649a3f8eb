/**
 * An audience's state (SPEC.md section 4: new, in progress, ready, sync, error, inactive) as a badge
 * with a tooltip saying what it means; an error also names the failure (the spec's error name).
 */
import { Badge, Loader, Stack, Text, Tooltip } from '@mantine/core';
import type { AudienceStatus } from '@gd/shared/segment/audience';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { useT } from '../../i18n/useT.ts';
import { hasKey } from '../../i18n/i18n.ts';
import type { TKey } from '../../i18n/keys.ts';

const COLOR: Record<AudienceStatus, string> = {
  new: 'gray',
  in_progress: 'blue',
  ready: 'teal',
  sync: 'violet',
  error: 'red',
  inactive: 'gray',
};

export function AudienceStatusBadge({ status }: { status: AudienceStatus }) {
  const { t } = useT();
  return (
    <Tooltip label={t(`audiences.statusHint.${status}`)} multiline w={240} withArrow>
      <Badge
        color={COLOR[status]}
        variant={status === 'inactive' ? 'outline' : 'light'}
        radius="sm"
        tt="none"
        fw={600}
        leftSection={status === 'in_progress' || status === 'sync' ? <Loader size={10} color={COLOR[status]} /> : undefined}
        tabIndex={0}
        data-testid="audience-status"
        data-status={status}
        style={{ flexShrink: 0 }}
      >
        {t(`audiences.status.${status}`)}
      </Badge>
    </Tooltip>
  );
}

/** The readable text of a recorded failure name (the name itself when the catalogue does not know it). */
export function errorNameText(t: ReturnType<typeof useT>['t'], name: string): string {
  const key = `audiences.errorName.${name}`;
  return hasKey(key) ? t(key as TKey) : name;
}

/** The badge, and under it the error's name for an audience in error. */
export function AudienceState({ audience }: { audience: Pick<AudienceSummary, 'status' | 'errorName' | 'errorMessage'> }) {
  const { t } = useT();
  return (
    <Stack gap={2} align="flex-start">
      <AudienceStatusBadge status={audience.status} />
      {audience.status === 'error' && audience.errorName && (
        <Tooltip label={audience.errorMessage ?? errorNameText(t, audience.errorName)} multiline w={320} withArrow>
          <Text size="xs" c="red.7" fw={500} tabIndex={0} data-testid="audience-error-name">
            {audience.errorName}
          </Text>
        </Tooltip>
      )}
    </Stack>
  );
}
