/** A message's history in a drawer: every creation, status change, submission, decision, comment and approved version, newest first. */
import { Drawer, Stack, Text, Timeline } from '@mantine/core';
import { IconArrowsExchange, IconCheck, IconCopy, IconMessageCircle, IconPencil, IconPlus, IconSend, IconStack2, IconUserShare, IconX } from '@tabler/icons-react';
import type { MessageHistoryEntry } from '@gd/shared/schemas/messages';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { fieldLabel } from './messageUi.tsx';

const ICONS: Record<MessageHistoryEntry['kind'], typeof IconPlus> = {
  created: IconPlus, status: IconArrowsExchange, submitted: IconSend, approved: IconCheck, rejected: IconX,
  commented: IconMessageCircle, versioned: IconStack2, assigned: IconUserShare, cloned: IconCopy, renamed: IconPencil,
};
/** Kinds whose detail is a person's words (a reason, a comment, a name). */
const QUOTED = new Set<MessageHistoryEntry['kind']>(['rejected', 'renamed', 'cloned']);
const COLORS: Partial<Record<MessageHistoryEntry['kind'], string>> = { approved: 'teal', versioned: 'teal', rejected: 'red', submitted: 'yellow' };

export function MessageHistory({ messageId, opened, onClose }: { messageId: string; opened: boolean; onClose: () => void }) {
  const { t, lang } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const history = useApiQuery('messageHistory', { params: { appId, messageId }, scope: 'app', enabled: opened });
  const entries = history.data?.history;

  const what = (e: MessageHistoryEntry) => {
    const parts: string[] = [];
    if (e.fromStatus && e.toStatus) parts.push(t('messages.history.statusChange', { from: t(`messages.status.${e.fromStatus}`), to: t(`messages.status.${e.toStatus}`) }));
    else if (e.toStatus) parts.push(t(`messages.status.${e.toStatus}`));
    if (e.submissionNumber !== null) parts.push(t('messages.history.submission', { number: e.submissionNumber }));
    if (e.version !== null) parts.push(t('messages.history.version', { version: e.version }));
    // An approval's detail is "count/required"; a resubmission says so.
    const count = e.kind === 'approved' && e.detail ? /^(\d+)\/(\d+)$/.exec(e.detail) : null;
    if (count) parts.push(t('messages.review.needed', { count: Number(count[1]), required: Number(count[2]) }));
    if (e.kind === 'submitted' && e.detail === 'resubmitted') parts.push(t('messages.history.resubmitted'));
    // A comment's detail is the field it is pinned to (none: a general comment).
    if (e.kind === 'commented' && e.detail) parts.push(t('messages.history.onField', { field: fieldLabel(t, e.detail) }));
    return parts.join(' · ');
  };

  let body;
  if (history.state === 'error' && !entries) body = <ErrorBlock error={history.error} onRetry={history.refetch} />;
  else if (!entries) body = <ListSkeleton rows={6} />;
  else if (entries.length === 0) body = <EmptyBlock icon={<IconStack2 size={28} />} title={t('messages.history.empty')} />;
  else {
    body = (
      <Timeline bulletSize={26} lineWidth={2} active={-1}>
        {entries.map((e) => {
          const Icon = ICONS[e.kind];
          return (
            <Timeline.Item key={e.id} bullet={<Icon size={14} />} color={COLORS[e.kind] ?? 'gray'} title={<Text size="sm" fw={600}>{t(`messages.history.kind.${e.kind}`)}</Text>} data-testid="history-entry" data-kind={e.kind}>
              <Stack gap={2}>
                {what(e) && <Text size="sm">{what(e)}</Text>}
                {e.detail && QUOTED.has(e.kind) && <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>“{e.detail}”</Text>}
                <Text size="xs" c="dimmed">
                  {e.actorName ?? t('messages.history.someone')} · {formatDateTime(e.at, lang)}
                </Text>
              </Stack>
            </Timeline.Item>
          );
        })}
      </Timeline>
    );
  }
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="md" title={<Text fw={600}>{t('messages.history.title')}</Text>} data-testid="message-history">
      {body}
    </Drawer>
  );
}
