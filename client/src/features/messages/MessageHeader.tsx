/**
 * The message screen's header: name, status, owner, where its submission stands ("Waiting for
 * approvals: 1 of 2", who approved or rejected, "Changed since submission: resubmit" the moment the
 * live draft has edits the snapshot lacks), and the actions its status offers to this person
 * (`actionsIn` filtered by `mayAct`), each calling its endpoint. Approve and reject happen on the
 * review screen, where the approver sees what they approve.
 */
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ActionIcon, Alert, Badge, Button, Group, List, Menu, Modal, Paper, Select, Stack, Text, Title, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp, IconArrowLeft, IconChevronDown, IconCopy, IconEye, IconHistory, IconPlayerPause, IconPlayerPlay, IconSend, IconTestPipe, IconTrash, IconUserShare,
} from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import { can } from '@gd/shared/permissions/can';
import { actionsIn, mayAct, type MessageAction } from '@gd/shared/message/lifecycle';
import { NAME_MAX } from '@gd/shared/schemas/common';
import type { MessageStatusAction, MessageSummary } from '@gd/shared/schemas/messages';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { hasKey } from '../../i18n/i18n.ts';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useSession } from '../../session/store.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { MessageHistory } from './MessageHistory.tsx';
import { MessageStatusBadge } from '../../entities/message/MessageStatus.tsx';
import { fieldLabel, lifecycleErrorText, usePermissionSubject } from './messageUi.tsx';

/** Status actions with a confirmation first (the others act at once). */
const CONFIRMED = new Set<MessageAction>(['delete', 'play', 'pause', 'draft']);
/** Shown as buttons; the rest go in the "More actions" menu. */
const PRIMARY = new Set<MessageAction>(['submit', 'play', 'pause']);
const ICONS: Partial<Record<MessageAction, typeof IconSend>> = {
  submit: IconSend, play: IconPlayerPlay, pause: IconPlayerPause, draft: IconArrowBackUp, toValidate: IconEye, test: IconTestPipe,
  clone: IconCopy, assign: IconUserShare, delete: IconTrash,
};

type Dialog = { kind: 'confirm'; action: MessageStatusAction } | { kind: 'clone' } | { kind: 'assign' } | { kind: 'problems'; problems: { path: string; message: string }[] } | null;

/** A submit refused for problems: each problem as "field: what is wrong". */
function problemText(t: TFunction, message: string): string {
  for (const key of [`messageEditor.problem.${message}`]) if (hasKey(key)) return t(key as TKey);
  return message.replaceAll('_', ' ');
}

export function MessageHeader({ message, changed, onChanged }: { message: MessageSummary; changed: boolean; onChanged: () => void }) {
  const { t, lang } = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const subject = usePermissionSubject();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const [dialog, setDialog] = useState<Dialog>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [busy, setBusy] = useState<MessageAction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const msgParams = { appId, messageId: message.id };
  const submission = message.submission;
  const open = submission?.outcome === 'open';

  // What this person may do now. A resubmit (submit from To validate) only when the draft changed.
  const actions = actionsIn(message.status).filter(
    (a) => a !== 'edit' && a !== 'approve' && a !== 'reject' && mayAct(subject, a, message.status, message.ownerId) && !(a === 'submit' && message.status === 'To validate' && !changed),
  );
  const canHistory = can(subject, 'ui:message.history');

  const listHref = () => {
    const next = new URLSearchParams(params);
    next.delete('id');
    next.delete('review');
    return `?${next.toString()}`;
  };
  const reviewHref = submission ? `?${new URLSearchParams({ id: message.id, review: submission.id }).toString()}` : '';

  const transition = async (action: MessageStatusAction) => {
    await api.call('transitionMessage', { params: msgParams, body: { action } });
    notifySuccess(t(`messages.actionDone.${action}`));
    if (action === 'delete') void navigate(listHref());
    else onChanged();
  };

  const run = async (action: MessageAction) => {
    setFailure(null);
    if (action === 'clone') return setDialog({ kind: 'clone' });
    if (action === 'assign') return setDialog({ kind: 'assign' });
    if (action !== 'submit' && CONFIRMED.has(action)) return setDialog({ kind: 'confirm', action: action as MessageStatusAction });
    setBusy(action);
    try {
      if (action === 'submit') {
        await api.call('submitMessage', { params: msgParams });
        notifySuccess(t('messages.actionDone.submit'));
        onChanged();
      } else {
        await transition(action as MessageStatusAction);
      }
    } catch (error) {
      if (action === 'submit' && error instanceof ApiError && error.code === ErrorCode.MANDATORY && error.details.length > 0) {
        setDialog({ kind: 'problems', problems: error.details.map((d) => ({ path: d.path, message: d.message })) });
      } else {
        setFailure(lifecycleErrorText(t, error));
        onChanged();
      }
    } finally {
      setBusy(null);
    }
  };

  const button = (action: MessageAction) => {
    const Icon = ICONS[action];
    const label = action === 'submit' && message.status === 'To validate' ? t('messages.header.resubmit') : t(`messages.action.${action}`);
    return (
      <Button
        key={action}
        variant={action === 'submit' || action === 'play' ? 'filled' : 'default'}
        leftSection={Icon ? <Icon size={16} /> : undefined}
        loading={busy === action}
        onClick={() => void run(action)}
        data-testid={`message-action-${action}`}
      >
        {label}
      </Button>
    );
  };
  const primary = actions.filter((a) => PRIMARY.has(a));
  const more = actions.filter((a) => !PRIMARY.has(a));

  const approvals = submission?.decisions.filter((d) => d.decision === 'approve') ?? [];
  const rejection = submission?.decisions.find((d) => d.decision === 'reject');
  let submissionLine: string;
  if (!submission) submissionLine = t('messages.header.noSubmission');
  else if (submission.outcome === 'open') submissionLine = t('messages.header.waiting', { count: approvals.length, required: submission.required });
  else if (submission.outcome === 'rejected' && rejection) submissionLine = t('messages.header.rejectedBy', { name: rejection.name ?? t('messages.unknownOwner'), reason: rejection.reason ?? '' });
  else if (submission.outcome === 'approved') submissionLine = t('messages.header.approvedBy', { names: approvals.map((d) => d.name ?? t('messages.unknownOwner')).join(', ') });
  else submissionLine = t(`messages.header.outcome.${submission.outcome}`);

  return (
    <Paper withBorder radius="md" px="md" py="xs" data-testid="message-header">
      <Group justify="space-between" wrap="wrap" gap="md">
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 380px' }}>
          <Tooltip label={t('messages.back')} withArrow>
            <ActionIcon component={Link} to={listHref()} variant="subtle" color="gray" size="lg" aria-label={t('messages.back')}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Stack gap={2} miw={0} style={{ flex: 1 }}>
            <Group gap={8} wrap="nowrap" miw={0}>
              <Title order={1} fz={20} lineClamp={1} title={message.name} data-testid="message-title">
                {message.name}
              </Title>
              <MessageStatusBadge status={message.status} />
              <Badge variant="outline" color="gray" tt="none" radius="sm" style={{ flexShrink: 0 }}>{t(`messages.type.${message.type}`)}</Badge>
            </Group>
            <Group gap={6} wrap="wrap">
              <Text size="xs" c="dimmed">
                <span
                  data-testid="submission-state" data-outcome={submission?.outcome ?? 'none'} data-approvals={approvals.length}
                  title={submission ? t('messages.header.submittedBy', { number: submission.number, name: submission.submittedByName ?? t('messages.unknownOwner'), time: formatDateTime(submission.submittedAt, lang) }) : undefined}
                >
                  {submissionLine}
                  {open && approvals.length > 0 ? ` · ${t('messages.header.approvedBy', { names: approvals.map((d) => d.name ?? t('messages.unknownOwner')).join(', ') })}` : ''}
                </span>
                {` · ${message.campaignName} · ${t('messages.header.owner', { name: message.ownerName ?? t('messages.unknownOwner') })}`}
                {message.approvedVersion !== null ? ` · ${t('messages.header.approvedVersion', { version: message.approvedVersion })}` : ''}
              </Text>
              {open && changed && (
                <Tooltip label={t('messages.header.changedHint')} multiline w={320} withArrow>
                  <Badge color="orange" variant="light" size="sm" tt="none" radius="sm" tabIndex={0} data-testid="changed-since-submission">
                    {t('messages.header.changed')}
                  </Badge>
                </Tooltip>
              )}
            </Group>
          </Stack>
        </Group>

        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          {canHistory && (
            <Button variant="subtle" color="gray" leftSection={<IconHistory size={16} />} onClick={() => setHistoryOpen(true)} data-testid="open-history">
              {t('messages.header.history')}
            </Button>
          )}
          {open && (
            <Button component={Link} to={reviewHref} variant="light" leftSection={<IconEye size={16} />} data-testid="open-review">
              {t('messages.header.review')}
            </Button>
          )}
          {more.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={14} />} data-testid="message-more">
                  {t('messages.header.more')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {more.map((a) => {
                  const Icon = ICONS[a];
                  return (
                    <Menu.Item key={a} leftSection={Icon ? <Icon size={14} /> : undefined} color={a === 'delete' ? 'red' : undefined} onClick={() => void run(a)} data-testid={`message-action-${a}`}>
                      {t(`messages.action.${a}`)}
                    </Menu.Item>
                  );
                })}
              </Menu.Dropdown>
            </Menu>
          )}
          {primary.map(button)}
        </Group>
      </Group>
      {failure && (
        <Alert color="red" variant="light" mt="xs" role="alert" withCloseButton onClose={() => setFailure(null)} data-testid="action-failure">
          {failure}
        </Alert>
      )}

      <ConfirmDialog
        opened={dialog?.kind === 'confirm'}
        title={dialog?.kind === 'confirm' ? t(`messages.confirm.${dialog.action === 'delete' ? 'deleteTitle' : dialog.action === 'play' ? 'playTitle' : dialog.action === 'pause' ? 'pauseTitle' : 'draftTitle'}`) : ''}
        message={
          dialog?.kind === 'confirm'
            ? dialog.action === 'delete'
              ? t('messages.confirm.deleteBody', { name: message.name })
              : dialog.action === 'play'
                ? t('messages.confirm.playBody', { name: message.name, version: message.approvedVersion ?? 1 })
                : dialog.action === 'pause'
                  ? t('messages.confirm.pauseBody', { name: message.name })
                  : t('messages.confirm.draftBody')
            : ''
        }
        confirmLabel={dialog?.kind === 'confirm' ? t(`messages.action.${dialog.action}`) : ''}
        danger={dialog?.kind === 'confirm' && dialog.action === 'delete'}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'confirm') return;
          // A refusal (someone changed the status meanwhile) shows under the header, with the new status.
          try {
            await transition(dialog.action);
          } catch (error) {
            setFailure(lifecycleErrorText(t, error));
            onChanged();
          }
        }}
      />
      {dialog?.kind === 'clone' && (
        <NameDialog
          title={t('messages.cloneTitle', { name: message.name })}
          hint={t('messages.cloneHint')}
          submitLabel={t('messages.action.clone')}
          initialName={t('messages.cloneName', { name: message.name }).slice(0, NAME_MAX)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { message: copy } = await api.call('cloneMessage', { params: msgParams, body: { name } });
            notifySuccess(t('messages.actionDone.clone', { name: copy.name }));
            setDialog(null);
            void navigate(`?${new URLSearchParams({ id: copy.id }).toString()}`);
          }}
        />
      )}
      {dialog?.kind === 'assign' && <AssignDialog message={message} onClose={() => setDialog(null)} onDone={() => { setDialog(null); onChanged(); }} />}
      <Modal opened={dialog?.kind === 'problems'} onClose={() => setDialog(null)} title={<Text fw={600}>{t('messages.submitProblemsTitle')}</Text>} size="lg">
        {dialog?.kind === 'problems' && (
          <Stack gap="sm" data-testid="submit-problems">
            <Text size="sm">{t('messages.submitProblemsBody')}</Text>
            <List size="sm" spacing={4}>
              {dialog.problems.map((p, i) => (
                <List.Item key={i} data-testid="submit-problem" data-path={p.path}>
                  {t('messages.problemField', { field: fieldLabel(t, p.path), problem: problemText(t, p.message) })}
                </List.Item>
              ))}
            </List>
            <Group justify="flex-end">
              <Button onClick={() => setDialog(null)}>{t('common.close')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <MessageHistory messageId={message.id} opened={historyOpen} onClose={() => setHistoryOpen(false)} />
    </Paper>
  );
}

/** Change the owner: a user of the account (`listUsers`). */
function AssignDialog({ message, onClose, onDone }: { message: MessageSummary; onClose: () => void; onDone: () => void }) {
  const { t } = useT();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const users = useApiQuery('listUsers');
  const [userId, setUserId] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [submitting, setSubmitting] = useState(false);
  const options = (users.data?.users ?? []).filter((u) => u.active && u.id !== message.ownerId).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));
  return (
    <FormModal
      title={t('messages.assignTitle', { name: message.name })}
      intro={t('messages.assignHint')}
      failure={failure ?? (users.state === 'error' ? users.error : null)}
      submitLabel={t('messages.action.assign')}
      submitting={submitting}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        if (!userId) return;
        setSubmitting(true);
        setFailure(null);
        api.call('assignMessage', { params: { appId, messageId: message.id }, body: { userId } })
          .then(({ message: m }) => {
            notifySuccess(t('messages.actionDone.assign', { name: m.ownerName ?? '' }));
            onDone();
          })
          .catch(setFailure)
          .finally(() => setSubmitting(false));
      }}
    >
      <Select label={t('messages.assignUser')} data={options} value={userId} onChange={setUserId} searchable data-autofocus data-testid="assign-user" />
    </FormModal>
  );
}
