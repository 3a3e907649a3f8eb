/**
 * One message (`?id=<messageId>`): its co-edited draft (the editor) under the lifecycle header. The
 * summary is asked again every POLL_MS, so approvals and status changes made by others show without
 * a reload; "changed since submission" comes from the open document at once (useEditedSinceLaunch
 * compares its state vector with the submission's).
 */
import { Link } from 'react-router';
import { Button, Paper } from '@mantine/core';
import { IconArrowLeft, IconMessageOff } from '@tabler/icons-react';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { usePolling } from '../../state/usePolling.ts';
import { useCollabDoc } from '../../sync/useCollabDoc.ts';
import { PageLoader } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import MessageEditor from './editor/MessageEditor.tsx';
import { DeliveryPanel } from './DeliveryPanel.tsx';
import { MetricsPanel } from './MetricsPanel.tsx';
import { MessageHeader } from './MessageHeader.tsx';
import { MessageCategories } from './MessageCategories.tsx';
import { useChangedSince } from './messageUi.tsx';
import { POLL_MS } from './messagePolling.ts';

export { POLL_MS } from './messagePolling.ts';

/** The message is not in this app (or not visible to this person). */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.httpStatus === 404 || error.details.some((d) => d.message === 'not_found'));
}

export function MissingMessage() {
  const { t } = useT();
  return (
    <Paper withBorder data-testid="message-missing">
      <EmptyBlock
        icon={<IconMessageOff size={28} />}
        title={t('messages.notFound')}
        action={<Button component={Link} to="?" variant="default" leftSection={<IconArrowLeft size={16} />}>{t('messages.back')}</Button>}
      />
    </Paper>
  );
}

export default function MessageScreen({ messageId }: { messageId: string }) {
  const { t } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const query = useApiQuery('getMessage', { params: { appId, messageId }, scope: 'app' });
  usePolling(query.refetch, POLL_MS, query.state === 'loading');
  const message = query.data?.message;
  usePageTitle(message?.name ?? t('nav.messaging'));
  const collab = useCollabDoc(message?.docName ?? null);
  const submission = message?.submission;
  const changed = useChangedSince(collab.ready ? collab.doc : null, submission?.outcome === 'open' ? submission.stateVector : null);

  if (!message) {
    if (query.state === 'error') return isMissing(query.error) ? <MissingMessage /> : <ErrorBlock error={query.error} onRetry={query.refetch} />;
    return <PageLoader />;
  }
  return (
    <div data-testid="message-screen">
      <MessageEditor
        messageId={messageId} message={message} onChanged={query.refetch}
        header={<><MessageHeader message={message} changed={changed} onChanged={query.refetch} /><MessageCategories appId={appId} message={message} /><DeliveryPanel messageId={messageId} status={message.status} /><MetricsPanel message={message} /></>}
      />
    </div>
  );
}
