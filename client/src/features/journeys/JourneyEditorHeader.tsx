/** The journey editor's header (name, status, sync, presence, undo/redo, stop and launch) and its dialogs. */
import { useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconEye, IconPencil, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import type { Journey } from '@gd/shared/journey/model';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import type { JourneySummary } from '@gd/shared/schemas/journeys';
import { NAME_MAX } from '@gd/shared/schemas/common';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { CollabStatus } from '../../sync/CollabStatus.tsx';
import { type Peer } from '../../sync/presence.ts';
import type { Follow } from '../../sync/PresenceAvatars.tsx';
import type { useCollabDoc } from '../../sync/useCollabDoc.ts';
import type { useUndo } from '../../sync/useUndo.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { errorText } from '../../ui/errorText.ts';
import { formatDateTime } from '../../ui/format.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { JourneyStatusBadge } from '../../entities/journey/JourneyStatus.tsx';
import { launchViolations } from './launchProblems.ts';
import { LaunchReview } from './LaunchReview.tsx';
import { ProblemsPanel } from './problems/ProblemsPanel.tsx';

export interface HeaderProps {
  journeyId: string;
  summary: JourneySummary | undefined;
  offline: boolean;
  backHref: string;
  refetch: () => void;
  status: ReturnType<typeof useCollabDoc>['status'];
  unsynced: number;
  readOnly: boolean;
  peers: Peer[];
  /** Following another person's view of the canvas (their avatar is the button). */
  follow: Follow;
  undo: ReturnType<typeof useUndo>;
  violations: JourneyViolation[];
  journey: Journey;
  onSelect: (stepId: string | null) => void;
}

export function EditorHeader(props: HeaderProps) {
  const { journeyId, summary, offline, backHref, refetch, status, unsynced, readOnly, peers, undo, violations, journey, onSelect, follow } = props;
  const { t, lang } = useT();
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const ctx = { ownerId: summary?.createdBy ?? null };
  const [renaming, setRenaming] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [confirmStop, setConfirmStop] = useState(false);
  const [refusal, setRefusal] = useState<JourneyViolation[] | null>(null);
  const params = { appId, journeyId };

  const canLaunch = can('ui:journey.launch', ctx) && !readOnly;
  let launchReason: string | undefined;
  if (!canLaunch) launchReason = t('journeys.editor.launchReadOnly');
  else if (violations.length > 0) launchReason = t('journeys.editor.launchBlocked', { count: violations.length });
  else if (status !== 'online' || offline) launchReason = t('journeys.editor.launchOffline');

  // Live and unchanged: nothing to launch (the button says so instead of "Launch").
  const upToDate = summary?.status === 'live' && !summary.draftChanged;
  if (launchReason === undefined && upToDate) launchReason = t('journeys.editor.upToDateHint');
  let launchLabel = t('journeys.editor.launch');
  if (upToDate) launchLabel = t('journeys.editor.upToDate');
  else if (summary?.status === 'live') launchLabel = t('journeys.editor.launchChanges');

  const onLaunched = (version: number) => {
    setReviewing(false);
    notifySuccess(t('journeys.editor.launched', { version }));
    refetch();
  };
  const onRefused = (error: ApiError) => {
    setReviewing(false);
    const problems = error.code === ErrorCode.MANDATORY ? launchViolations(error.details, journey.steps.map((s) => s.id)) : [];
    if (problems.length > 0) setRefusal(problems);
    else notifyError(t, error);
  };

  let launchInfo = t('journeys.editor.neverLaunched');
  if (summary?.liveVersion != null) {
    launchInfo =
      summary.status === 'live' && summary.launchedAt
        ? t('journeys.editor.lastLaunch', { version: summary.liveVersion, time: formatDateTime(summary.launchedAt, lang) })
        : t('journeys.editor.lastVersion', { version: summary.liveVersion });
  }

  return (
    <Paper withBorder radius="md" px="md" py="xs">
      <Group justify="space-between" wrap="nowrap" gap="md" className="gd-journey-header">
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
          <Tooltip label={t('journeys.editor.back')} withArrow>
            <ActionIcon component={Link} to={backHref} variant="subtle" color="gray" size="lg" aria-label={t('journeys.editor.back')}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Stack gap={0} miw={0} style={{ flex: 1 }}>
            <Group gap={6} wrap="nowrap" miw={0}>
              {renaming && summary ? (
                <RenameField
                  initial={summary.name}
                  onDone={() => setRenaming(false)}
                  onSave={async (name) => {
                    await api.call('renameJourney', { params, body: { name } });
                    refetch();
                  }}
                />
              ) : (
                <>
                  <Title order={1} fz={20} lineClamp={1} data-testid="journey-name" title={summary?.name} style={{ minWidth: 80 }}>
                    {summary?.name ?? '…'}
                  </Title>
                  {summary && (
                    <GatedIcon
                      allowed={can('ui:journey.edit', ctx) && !offline}
                      reason={offline ? t('journeys.offlineCopyHint') : undefined}
                      label={t('journeys.editor.renameAction')}
                      size="sm"
                      onClick={() => setRenaming(true)}
                    >
                      <IconPencil size={14} />
                    </GatedIcon>
                  )}
                </>
              )}
              {summary && <JourneyStatusBadge status={summary.status} />}
              {readOnly && (
                <Tooltip label={t('journeys.editor.readOnlyHint')} multiline w={260} withArrow>
                  <Badge color="gray" variant="outline" tt="none" radius="sm" leftSection={<IconEye size={12} />} tabIndex={0} data-testid="read-only" style={{ flexShrink: 0 }}>
                    {t('journeys.editor.readOnly')}
                  </Badge>
                </Tooltip>
              )}
            </Group>
            <Text size="xs" c="dimmed" lineClamp={1} data-testid="launch-info">
              {launchInfo}
              {summary?.draftChanged ? ` · ${t('journeys.draftChanged')}` : ''}
            </Text>
          </Stack>
        </Group>

        <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
          <CollabStatus
            peers={peers} status={status} unsynced={unsynced} readOnly={readOnly} undo={undo} follow={follow}
            labels={{ undo: t('journeys.editor.undo'), undoHint: t('journeys.editor.undoHint'), redo: t('journeys.editor.redo'), redoHint: t('journeys.editor.redoHint') }}
          />
          {summary?.status === 'live' && (
            <GatedButton
              allowed={can('ui:journey.stop', ctx) && !offline}
              variant="default"
              color="red"
              leftSection={<IconPlayerStop size={16} />}
              onClick={() => setConfirmStop(true)}
              data-testid="stop-journey"
            >
              {t('journeys.editor.stop')}
            </GatedButton>
          )}
          <GatedButton
            allowed={launchReason === undefined}
            reason={launchReason}
            leftSection={upToDate ? <IconCircleCheck size={16} /> : <IconPlayerPlay size={16} />}
            rightSection={
              violations.length > 0 ? (
                <Badge size="xs" circle={violations.length < 10} color="red" variant="filled" aria-hidden>
                  {violations.length}
                </Badge>
              ) : undefined
            }
            onClick={() => setReviewing(true)}
            data-testid="launch-journey"
            data-problems={violations.length}
            data-up-to-date={upToDate}
          >
            {launchLabel}
          </GatedButton>
        </Group>
      </Group>

      <ConfirmDialog
        opened={confirmStop}
        title={t('journeys.editor.stopTitle')}
        message={t('journeys.editor.stopBody', { name: summary?.name ?? '' })}
        confirmLabel={t('journeys.editor.stop')}
        danger
        onClose={() => setConfirmStop(false)}
        onConfirm={async () => {
          await api.call('stopJourney', { params });
          notifySuccess(t('journeys.editor.stopped'));
          refetch();
        }}
      />
      {/* Mounted while open only: it never shows the next version's (loading) review as it fades out. */}
      {reviewing && summary && (
        <LaunchReview opened journey={journey} summary={summary} onClose={() => setReviewing(false)} onLaunched={onLaunched} onRefused={onRefused} />
      )}
      <LaunchRefusal
        journey={journey}
        problems={refusal}
        onClose={() => setRefusal(null)}
        onSelect={(stepId) => {
          setRefusal(null);
          onSelect(stepId);
        }}
      />
    </Paper>
  );
}

/** The journey's name as a field: Enter saves, Escape cancels; a refusal (name taken) shows inline. */
function RenameField({ initial, onSave, onDone }: { initial: string; onSave: (name: string) => Promise<void>; onDone: () => void }) {
  const { t } = useT();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const name = value.trim();
    if (name === initial) return onDone();
    if (name === '') return setError(t('validation.required'));
    setBusy(true);
    try {
      await onSave(name);
      notifySuccess(t('journeys.renamed'));
      onDone();
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <TextInput
      aria-label={t('journeys.editor.nameLabel')}
      value={value}
      onChange={(e) => {
        setValue(e.currentTarget.value);
        setError(null);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void save();
        if (e.key === 'Escape') onDone();
      }}
      onBlur={() => void save()}
      error={error}
      disabled={busy}
      maxLength={NAME_MAX}
      size="sm"
      w={320}
      data-autofocus
      autoFocus
      data-testid="rename-journey"
    />
  );
}

/** The problems the server found when it refused a launch (it validated the live document). */
export function LaunchRefusal({ journey, problems, onClose, onSelect }: { journey: Journey; problems: JourneyViolation[] | null; onClose: () => void; onSelect: (stepId: string | null) => void }) {
  const { t } = useT();
  return (
    <Modal opened={problems !== null} onClose={onClose} title={<Text fw={600}>{t('journeys.editor.refusedTitle')}</Text>} size="lg">
      {problems && (
        <Stack gap="sm" data-testid="launch-refusal">
          <Text size="sm">{t('journeys.editor.refusedBody', { count: problems.length })}</Text>
          <ProblemsPanel journey={journey} violations={problems} onSelect={onSelect} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
