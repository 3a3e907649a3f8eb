/**
 * "Schedule": opens /main/reports with the new-report dialog filled with what a screen shows (its
 * kind and query, without the days: a report's range is relative, chosen in the dialog). Hidden
 * from people who may not schedule reports (`api:reports.edit`).
 */
import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { withoutRange } from '@gd/shared/dashboard/model';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';

export function reportLink(kind: 'explore' | 'funnel' | 'cohort', query: unknown): string {
  return `/main/reports?${new URLSearchParams({ kind, query: JSON.stringify(withoutRange(query)) }).toString()}`;
}

export function ScheduleReportLink({ kind, query }: { kind: 'explore' | 'funnel' | 'cohort'; query: unknown }) {
  const { t } = useT();
  const can = usePermissions('app');
  if (!can('api:reports.edit')) return null;
  return (
    <Button component={Link} to={reportLink(kind, query)} size="xs" variant="default" leftSection={<IconCalendarTime size={14} />} data-testid="schedule-report">
      {t('reports.scheduleThis')}
    </Button>
  );
}
