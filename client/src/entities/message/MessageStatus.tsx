/**
 * A message's status (SPEC.md section 4) as every screen shows it: the messages screens and the
 * journey editor's message picker. Draft and review are grey/yellow, approval lime, running green,
 * stopped orange, ended dark.
 */
import { Badge } from '@mantine/core';
import type { CommunicationStatus } from '@gd/shared/message/lifecycle';
import { useT } from '../../i18n/useT.ts';

export const STATUS_COLORS: Record<CommunicationStatus, string> = {
  Draft: 'gray', Testing: 'cyan', 'To validate': 'yellow', Approved: 'lime', Scheduled: 'indigo', Processing: 'blue',
  Ready: 'blue', Sending: 'teal', Active: 'teal', Paused: 'orange', Finished: 'dark', Deleted: 'red',
};

const RUNNING = new Set<CommunicationStatus>(['Active', 'Sending']);

export function MessageStatusBadge({ status }: { status: CommunicationStatus }) {
  const { t } = useT();
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant={RUNNING.has(status) ? 'filled' : 'light'}
      tt="none"
      radius="sm"
      data-testid="message-status"
      data-status={status}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t(`messages.status.${status}`)}
    </Badge>
  );
}
