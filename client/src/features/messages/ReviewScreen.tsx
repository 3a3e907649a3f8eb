/**
 * The review of one submission (`?id=<messageId>&review=<submissionId>`): the frozen draft as it was
 * submitted, read-only (MessageForm without onChange) beside its preview; who else reviews it now
 * (reviewPresence.ts); comments pinned to a field and general ones; the decisions so far; Approve and
 * Reject (with a reason) for approvers. The message's live document is opened read-only (this screen
 * never writes it): when it has edits beyond the submission's state vector, the submission is stale:
 * a banner lists the changes field by field (diffDrafts of the snapshot against the live draft), the
 * form marks them, and Approve is disabled (the API refuses it too). The submission and the summary
 * are asked again every POLL_MS, so others' comments and decisions show without a reload.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  ActionIcon, Alert, Avatar, Badge, Box, Button, Group, Indicator, Paper, Popover, ScrollArea, Stack, Table, Text, Textarea, Title, Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconArrowLeft, IconCheck, IconLock, IconMessageCircle, IconMessagePlus, IconX } from '@tabler/icons-react';
import { diffDrafts, type DraftChange } from '@gd/shared/message/diff';
import type { DraftViolation } from '@gd/shared/message/validate';
import { can } from '@gd/shared/permissions/can';
import type { MessageComment, MessageSummary, SubmissionDetail } from '@gd/shared/schemas/messages';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { PresenceAvatars } from '../../sync/PresenceAvatars.tsx';
import { useCollabDoc } from '../../sync/useCollabDoc.ts';
import { FormModal } from '../../ui/FormModal.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageLoader } from '../../ui/Loading.tsx';
import { ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { initials } from '../../ui/initials.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { MessageForm } from './editor/MessageForm.tsx';
import { MessagePreview } from './editor/MessagePreview.tsx';
import { isMissing, MissingMessage, POLL_MS } from './MessageScreen.tsx';
import { usePolling } from '../../state/usePolling.ts';
import { MessageStatusBadge } from '../../entities/message/MessageStatus.tsx';
import { fieldLabel, lifecycleErrorText, useChangedSince, useLiveDraft, usePermissionSubject, valueText } from './messageUi.tsx';
import { useReviewers } from './reviewPresence.ts';

/** A frozen submission passed validation when it was submitted: the review shows no problems. */
const NO_PROBLEMS: readonly DraftViolation[] = [];

/** The variant a field path belongs to (`variants.<id>...`), for pinning a comment to it. */
const variantOf = (path: string): string | null => (path.startsWith('variants.') ? (path.split('.')[1] ?? null) : null);

export default function ReviewScreen({ messageId, submissionId }: { messageId: string; submissionId: string }) {
  const { t } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const messageQ = useApiQuery('getMessage', { params: { appId, messageId }, scope: 'app' });
  const submissionQ = useApiQuery('getSubmission', { params: { appId, messageId, submissionId }, scope: 'app' });
  usePolling(messageQ.refetch, POLL_MS, messageQ.state === 'loading');
  usePolling(submissionQ.refetch, POLL_MS, submissionQ.state === 'loading');
  const message = messageQ.data?.message;
  const submission = submissionQ.data?.submission;
  usePageTitle(message ? t('messages.review.title', { name: message.name }) : t('nav.messaging'));

  const failed = messageQ.state === 'error' && !message ? messageQ : submissionQ.state === 'error' && !submission ? submissionQ : null;
  if (failed) return isMissing(failed.error) ? <MissingMessage /> : <ErrorBlock error={failed.error} onRetry={failed.refetch} />;
  if (!message || !submission) return <PageLoader />;
  return <Review message={message} submission={submission} refetch={() => { messageQ.refetch(); submissionQ.refetch(); }} />;
}

function Review({ message, submission, refetch }: { message: MessageSummary; submission: SubmissionDetail; refetch: () => void }) {
  const { t, lang } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const subject = usePermissionSubject();
  const policy = useApiQuery('getApprovalPolicy');
  const definition = submission.definition;
  const [variantId, setVariantId] = useState(definition.variants[0]?.id ?? '');
  const [language, setLanguage] = useState(definition.defaultLanguage);
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  // The live draft, read-only: staleness from the state vectors, the changes from the drafts.
  const collab = useCollabDoc(message.docName);
  const liveDoc = collab.ready ? collab.doc : null;
  const live = useLiveDraft(liveDoc);
  const open = submission.outcome === 'open';
  const stale = useChangedSince(liveDoc, open ? submission.stateVector : null);
  const changes = useMemo(() => (stale ? diffDrafts(definition, live) : []), [stale, definition, live]);
  const changedPaths = useMemo(() => new Set(changes.map((c) => c.path)), [changes]);
  const reviewers = useReviewers(collab.awareness, collab.access === 'write', submission.id);

  const params = { appId, messageId: message.id };
  const me = subject.userId;
  const approvals = submission.decisions.filter((d) => d.decision === 'approve');
  const iApproved = approvals.some((d) => d.userId === me);
  const mayApprove = can(subject, 'ui:message.approve');
  const ownForbidden = policy.data ? !policy.data.policy.authorsMayApprove && (message.ownerId === me || submission.submittedBy === me) : false;
  let approveReason: string | undefined;
  if (!mayApprove) approveReason = t('messages.review.cannotApprove');
  else if (!open) approveReason = t('messages.review.notOpen', { outcome: t(`messages.header.outcome.${submission.outcome}`) });
  else if (stale) approveReason = t('messages.review.staleApprove');
  else if (iApproved) approveReason = t('messages.review.alreadyDecided');
  else if (ownForbidden) approveReason = t('messages.review.ownMessage');

  const approve = async () => {
    setApproving(true);
    setFailure(null);
    try {
      await api.call('approveMessage', { params, body: { submissionId: submission.id } });
      notifySuccess(t('messages.review.approvedToast'));
    } catch (error) {
      setFailure(lifecycleErrorText(t, error));
    } finally {
      setApproving(false);
      refetch();
    }
  };

  const comments = submission.comments;
  const commentsOn = (path: string) => comments.filter((c) => c.path === path);
  const post = async (path: string, body: string) => {
    await api.call('commentSubmission', { params: { ...params, submissionId: submission.id }, body: { path, variantId: variantOf(path), body } });
    refetch();
  };
  const renderFieldExtra = (path: string) => <CommentPin path={path} label={fieldLabel(t, path, definition)} comments={commentsOn(path)} onPost={(body) => post(path, body)} />;
  const variant = definition.variants.find((v) => v.id === variantId) ?? definition.variants[0];
  const content = variant?.content[language] ?? variant?.content[definition.defaultLanguage];
  const backHref = `?${new URLSearchParams({ id: message.id }).toString()}`;

  return (
    <Stack gap="md" data-testid="review-screen" data-stale={stale} data-outcome={submission.outcome}>
      <Paper withBorder radius="md" px="md" py="xs" data-testid="review-header">
        <Group justify="space-between" wrap="wrap" gap="md">
          <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 380px' }}>
            <Tooltip label={t('messages.review.back')} withArrow>
              <ActionIcon component={Link} to={backHref} variant="subtle" color="gray" size="lg" aria-label={t('messages.review.back')}>
                <IconArrowLeft size={18} />
              </ActionIcon>
            </Tooltip>
            <Stack gap={2} miw={0} style={{ flex: 1 }}>
              <Group gap={8} wrap="nowrap" miw={0}>
                <Title order={1} fz={20} lineClamp={1} title={message.name} data-testid="message-title">
                  {message.name}
                </Title>
                <MessageStatusBadge status={message.status} />
                <Badge variant="outline" color="gray" tt="none" radius="sm" leftSection={<IconLock size={12} />} style={{ flexShrink: 0 }}>
                  {t('messages.review.frozen')}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" lineClamp={2}>
                {t('messages.review.subtitle', { number: submission.number, name: submission.submittedByName ?? t('messages.unknownOwner'), time: formatDateTime(submission.submittedAt, lang) })}
              </Text>
            </Stack>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Group gap={6} wrap="nowrap" data-testid="reviewers" data-count={reviewers.length}>
              {reviewers.length > 0 && <Text size="xs" c="dimmed">{t('messages.review.reviewers')}</Text>}
              <PresenceAvatars peers={reviewers} />
            </Group>
            {mayApprove && (
              <>
                <GatedButton allowed={open} reason={approveReason} variant="default" color="red" leftSection={<IconX size={16} />} onClick={() => setRejecting(true)} data-testid="reject-submission">
                  {t('messages.review.reject')}
                </GatedButton>
                <GatedButton allowed={approveReason === undefined} reason={approveReason} color="teal" leftSection={<IconCheck size={16} />} loading={approving} onClick={() => void approve()} data-testid="approve-submission">
                  {t('messages.review.approve')}
                </GatedButton>
              </>
            )}
          </Group>
        </Group>
        {failure && (
          <Alert color="red" variant="light" mt="xs" role="alert" withCloseButton onClose={() => setFailure(null)} data-testid="review-failure">
            {failure}
          </Alert>
        )}
      </Paper>

      {!open && (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} data-testid="review-closed">
          {t('messages.review.notOpen', { outcome: t(`messages.header.outcome.${submission.outcome}`) })}
          {message.submission && message.submission.id !== submission.id && message.submission.outcome === 'open' && (
            <>
              {' '}
              <Link to={`?${new URLSearchParams({ id: message.id, review: message.submission.id }).toString()}`}>{t('messages.review.openNewer')}</Link>
            </>
          )}
        </Alert>
      )}
      {open && stale && <StaleBanner changes={changes} draft={definition} />}

      {/* The editor's layout: the form, and the preview beside it (under it on narrow screens). */}
      <Group gap="md" align="flex-start" wrap="wrap">
        <Box style={{ flex: '1 1 540px', minWidth: 0 }} data-testid="review-form">
          <MessageForm
            draft={definition}
            problems={NO_PROBLEMS}
            variantId={variant?.id ?? ''}
            language={language}
            onVariantChange={setVariantId}
            onLanguageChange={setLanguage}
            changedPaths={changedPaths}
            renderFieldExtra={renderFieldExtra}
          />
        </Box>
        <Stack gap="md" style={{ flex: '0 1 360px', minWidth: 300 }}>
          {content && <MessagePreview content={content} language={language} />}
          <Decisions submission={submission} />
          <Paper withBorder radius="md" p="md" data-testid="general-comments">
            <Text fw={600} mb="sm">{t('messages.review.general')}</Text>
            <CommentThread comments={commentsOn('')} onPost={(body) => post('', body)} />
          </Paper>
        </Stack>
      </Group>

      {rejecting && (
        <RejectDialog
          onClose={() => setRejecting(false)}
          onReject={async (reason) => {
            await api.call('rejectMessage', { params, body: { submissionId: submission.id, reason } });
            notifySuccess(t('messages.review.rejectedToast'));
            setRejecting(false);
            refetch();
          }}
        />
      )}
    </Stack>
  );
}

/** "Changed since submission": every change between the snapshot and the live draft, field by field. */
function StaleBanner({ changes, draft }: { changes: DraftChange[]; draft: SubmissionDetail['definition'] }) {
  const { t } = useT();
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('messages.review.stale')} data-testid="stale-banner">
      <Stack gap="xs">
        <Text size="sm">{t('messages.review.staleBody')}</Text>
        {changes.length > 0 && (
          <Paper withBorder radius="sm" style={{ overflow: 'hidden' }}>
            <Table verticalSpacing={6} horizontalSpacing="sm" fz="sm" data-testid="stale-diff" layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="30%">{t('messages.review.field')}</Table.Th>
                  <Table.Th>{t('messages.review.before')}</Table.Th>
                  <Table.Th>{t('messages.review.after')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {changes.map((c) => (
                  <Table.Tr key={c.path} data-testid="stale-change" data-path={c.path}>
                    <Table.Td fw={600} style={{ wordBreak: 'break-word' }}>
                      {fieldLabel(t, c.path, draft)}
                      {c.kind !== 'changed' && <Text span size="xs" c="dimmed"> ({t(`messages.review.${c.kind}`)})</Text>}
                    </Table.Td>
                    <Table.Td c="dimmed" style={{ textDecoration: c.kind === 'added' ? undefined : 'line-through', wordBreak: 'break-word' }}>{c.kind === 'added' ? '—' : valueText(t, c.before)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{c.kind === 'removed' ? '—' : valueText(t, c.after)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
      </Stack>
    </Alert>
  );
}

function Decisions({ submission }: { submission: SubmissionDetail }) {
  const { t, lang } = useT();
  const approvals = submission.decisions.filter((d) => d.decision === 'approve').length;
  return (
    <Paper withBorder radius="md" p="md" data-testid="decisions">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('messages.review.decisions')}</Text>
        <Badge variant="light" color={approvals >= submission.required ? 'teal' : 'yellow'} tt="none" radius="sm" data-testid="approval-count" data-count={approvals}>
          {t('messages.review.needed', { count: approvals, required: submission.required })}
        </Badge>
      </Group>
      {submission.decisions.length === 0 ? (
        <Text size="sm" c="dimmed">{t('messages.review.noDecisions')}</Text>
      ) : (
        <Stack gap="xs">
          {submission.decisions.map((d, i) => (
            <Group key={i} gap="sm" wrap="nowrap" align="flex-start" data-testid="decision" data-decision={d.decision}>
              <Avatar size={26} radius="xl" color={d.decision === 'approve' ? 'teal' : 'red'}>{d.decision === 'approve' ? <IconCheck size={14} /> : <IconX size={14} />}</Avatar>
              <Stack gap={0}>
                <Text size="sm">
                  <b>{d.name ?? t('messages.unknownOwner')}</b> {t(d.decision === 'approve' ? 'messages.review.approved' : 'messages.review.rejected')}
                </Text>
                {d.reason && <Text size="sm" c="dimmed">“{d.reason}”</Text>}
                <Text size="xs" c="dimmed">{formatDateTime(d.at, lang)}</Text>
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** A field's comments: a pin with the count that opens the thread and a box to add one. */
function CommentPin({ path, label, comments, onPost }: { path: string; label: string; comments: MessageComment[]; onPost: (body: string) => Promise<void> }) {
  const { t } = useT();
  const [opened, setOpened] = useState(false);
  const hint = comments.length > 0 ? t('messages.review.pin', { count: comments.length }) : t('messages.review.pinEmpty');
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} withArrow shadow="md" trapFocus>
      <Popover.Target>
        <Tooltip label={hint} withArrow disabled={opened}>
          <Indicator label={comments.length} size={16} disabled={comments.length === 0} color="orange" offset={4}>
            <ActionIcon
              variant={comments.length > 0 ? 'light' : 'subtle'} color={comments.length > 0 ? 'orange' : 'gray'} size="sm" aria-label={hint}
              onClick={() => setOpened((o) => !o)} data-testid="comment-pin" data-path={path} data-count={comments.length}
            >
              {comments.length > 0 ? <IconMessageCircle size={14} /> : <IconMessagePlus size={14} />}
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown data-testid="comment-popover">
        <Text size="sm" fw={600} mb="xs">{t('messages.review.commentOn', { field: label })}</Text>
        <CommentThread comments={comments} onPost={onPost} />
      </Popover.Dropdown>
    </Popover>
  );
}

function CommentThread({ comments, onPost }: { comments: MessageComment[]; onPost: (body: string) => Promise<void> }) {
  const { t, lang } = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ initialValues: { body: '' }, validate: { body: (v) => (v.trim() === '' ? t('validation.required') : null) } });
  const submit = form.onSubmit(async ({ body }) => {
    setFailure(null);
    try {
      await onPost(body.trim());
      form.reset();
    } catch (error) {
      setFailure(lifecycleErrorText(t, error));
    }
  });
  return (
    <Stack gap="sm" data-testid="comment-thread">
      {comments.length === 0 ? (
        <Text size="sm" c="dimmed">{t('messages.review.noComments')}</Text>
      ) : (
        <ScrollArea.Autosize mah={260}>
          <Stack gap="sm">
            {comments.map((c) => (
              <Group key={c.id} gap="sm" wrap="nowrap" align="flex-start" data-testid="comment">
                <Avatar size={26} radius="xl" color="indigo">{initials(c.authorName ?? '?')}</Avatar>
                <Stack gap={0} miw={0}>
                  <Text size="xs" c="dimmed"><b>{c.authorName ?? t('messages.unknownOwner')}</b> · {formatDateTime(c.at, lang)}</Text>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{c.body}</Text>
                </Stack>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap={6}>
          <Textarea autosize minRows={2} maxRows={6} maxLength={2000} placeholder={t('messages.review.commentPlaceholder')} aria-label={t('messages.review.comment')} {...form.getInputProps('body')} data-testid="comment-body" />
          {failure && <Text size="xs" c="red" role="alert">{failure}</Text>}
          <Group justify="flex-end">
            <Button type="submit" size="xs" loading={form.submitting} data-testid="post-comment">{t('messages.review.comment')}</Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function RejectDialog({ onClose, onReject }: { onClose: () => void; onReject: (reason: string) => Promise<void> }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { reason: '' }, validate: { reason: (v) => (v.trim() === '' ? t('validation.required') : null) } });
  const submit = form.onSubmit(async ({ reason }) => {
    setFailure(null);
    try {
      await onReject(reason.trim());
    } catch (error) {
      setFailure(error);
    }
  });
  return (
    <FormModal title={t('messages.review.rejectTitle')} intro={t('messages.review.rejectHint')} failure={failure} submitLabel={t('messages.review.reject')} submitting={form.submitting} onSubmit={submit} onClose={onClose} submitTestId="confirm-reject">
      <Textarea label={t('messages.review.reason')} withAsterisk autosize minRows={3} maxLength={1000} data-autofocus {...form.getInputProps('reason')} data-testid="reject-reason" />
    </FormModal>
  );
}
