/**
 * One journey's editor (/communication/journeys?id=<journeyId>): the collaborative document opened
 * through the sync layer (browser copy first, so it opens offline), the journey derived from it on
 * every change, the canvas in the centre, the selected step's settings on the right and the
 * problems below. Header: name (renamed inline when allowed), status, sync status, who else is
 * here, undo/redo (this person's edits only), stop and launch.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ActionIcon, Badge, Button, Center, Group, Loader, Paper, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconChevronDown, IconChevronUp, IconCircleCheck, IconCloudOff, IconPointer } from '@tabler/icons-react';
import { docName as buildDocName } from '@gd/shared/docs/names';
import { ErrorCode } from '@gd/shared/errors';
import type { JourneySummary } from '@gd/shared/schemas/journeys';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { useMeta, useSession } from '../../session/store.ts';
import { peerDrags as toPeerDrags, type Peer, type View } from '../../sync/presence.ts';
import { useCollabDoc } from '../../sync/useCollabDoc.ts';
import { useLastKnown } from '../../sync/useLastKnown.ts';
import { usePresence } from '../../sync/usePresence.ts';
import { useUndo } from '../../sync/useUndo.ts';
import { ErrorBlock } from '../../ui/States.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { JourneyCanvas } from './canvas/JourneyCanvas.tsx';
import type { PeerPresence } from './canvas/types.ts';
import { StepInspector } from './inspector/StepInspector.tsx';
import { EditorHeader } from './JourneyEditorHeader.tsx';
import { ProblemsPanel } from './problems/ProblemsPanel.tsx';
import { JOURNEY_UNDO_ROOTS, useJourneyDoc } from './useJourneyDoc.ts';
import { isNetworkError } from '../../api/errors.ts';
import { useJourney } from './useJourneys.ts';
import { DocNotices } from '../../sync/DocNotices.tsx';
import { restoreJourney } from '@gd/shared/docs/restore';
import { revertKeepingStepsConnected } from '@gd/shared/docs/structuralUndo';
import type * as Y from 'yjs';
import { REPAIR_ORIGIN } from '../../sync/origins.ts';
import { ConflictNotice } from './ConflictNotice.tsx';
import { useJourneyConflicts } from './useJourneyConflicts.ts';
import { useEditedSinceLaunch } from './useEditedSinceLaunch.ts';
import { usePeerNames } from '../../sync/usePeerNames.ts';
import { RemovedStepNotice } from './RemovedStepNotice.tsx';
import { useRemovedWhileOpen } from './useRemovedWhileOpen.ts';
import type { JourneyStep } from '@gd/shared/journey/model';
import { referenceViolations } from '@gd/shared/journey/references';
import { useSegmentOptions } from '../../entities/segment/useSegmentOptions.ts';
import { useJourneyMessages } from './useJourneyMessages.ts';
import type { CanvasMarks } from './canvas/types.ts';
import { PersonSearchPanel } from './run/PersonSearchPanel.tsx';
import { RunBar, type RunPanel } from './run/RunBar.tsx';
import { RunSidePanel } from './run/RunSidePanel.tsx';
import { SettingsPanel } from './run/SettingsPanel.tsx';
import { SimulationPanel } from './run/SimulationPanel.tsx';
import { useStoredSimulation } from './run/simulationDoc.ts';
import { useStepCounts } from './run/useStepCounts.ts';

const INSPECTOR_WIDTH = 340;
/** The settings, simulation and person panels need a little more room than a step's settings. */
const PANEL_WIDTH = 400;

/** Everything between the app header and the bottom of the window (the shell pads the main area). */
const FULL_HEIGHT = 'calc(100dvh - var(--app-shell-header-offset, 60px) - 2 * var(--mantine-spacing-lg))';

export default function JourneyEditor({ journeyId }: { journeyId: string }) {
  const { t } = useT();
  const meta = useMeta();
  const appId = useSession((s) => s.currentAppId);
  const summary = useJourney(journeyId);
  const [params] = useSearchParams();
  const backHref = useMemo(() => {
    const next = new URLSearchParams(params);
    next.delete('id');
    const query = next.toString();
    return query ? `?${query}` : '.';
  }, [params]);

  // The document name: from the journey's summary; when the server is unreachable and this browser
  // has no copy of the list, from the ids (the name is derived from them).
  const listUnreachable = summary.state === 'error' && isNetworkError(summary.error);
  // Kept while the list reloads when the connection returns (useLastKnown: the editor stays mounted).
  const name = useLastKnown(summary.journey?.docName ?? (listUnreachable && appId ? buildDocName(meta.account.id, appId, 'journey', journeyId) : null), journeyId);
  const notFound = summary.state === 'loaded' && summary.journey === undefined && summary.offlineSince === null;
  usePageTitle(summary.journey?.name ?? t('nav.journeys'));

  if (notFound) {
    return (
      <Center h={FULL_HEIGHT}>
        <Stack align="center">
          <ErrorBlock error={new ApiError(ErrorCode.NO_PERMISSION, t('journeys.editor.notFound'))} />
          <Button component={Link} to={backHref} variant="default" leftSection={<IconArrowLeft size={16} />}>
            {t('journeys.editor.back')}
          </Button>
        </Stack>
      </Center>
    );
  }
  if (summary.state === 'error' && !listUnreachable) return <ErrorBlock error={summary.error} onRetry={summary.refetch} />;
  if (!name) return <Opening />;
  return <Editor docName={name} journeyId={journeyId} summary={summary.journey} offline={summary.offlineSince !== null || listUnreachable} backHref={backHref} refetch={summary.refetch} />;
}

function Opening() {
  const { t } = useT();
  return (
    <Center h={FULL_HEIGHT}>
      <Stack align="center" gap="xs" role="status">
        <Loader />
        <Text size="sm" c="dimmed">
          {t('journeys.editor.opening')}
        </Text>
      </Stack>
    </Center>
  );
}

interface EditorProps {
  docName: string;
  journeyId: string;
  summary: JourneySummary | undefined;
  /** The journey's summary comes from the browser's copy (the API is unreachable). */
  offline: boolean;
  backHref: string;
  refetch: () => void;
}

/** Undo and redo as the opposite edits: nobody's step is left cut off (shared docs/structuralUndo.ts). */
const keepStepsConnected = (doc: Y.Doc, revert: () => void) => revertKeepingStepsConnected(doc, revert, REPAIR_ORIGIN);

function Editor({ docName, journeyId, summary, offline, backHref, refetch }: EditorProps) {
  const { t } = useT();
  const collab = useCollabDoc(docName);
  const readOnly = !collab.canWrite;
  // The app's messages: message steps must name one of them, of their channel (as launch checks).
  const messages = useJourneyMessages();
  const { journey, layout, violations: ruleViolations, onOp, onMoveEnd, onSettings } = useJourneyDoc(collab.doc, collab.canWrite, collab, messages.keys);
  const { find: findMessage, loaded: messagesLoaded } = messages;
  const messageName = useCallback(
    (campaignId: string, messageId: string) => findMessage(campaignId, messageId)?.name ?? (messagesLoaded ? null : undefined),
    [findMessage, messagesLoaded],
  );
  // What the journey names must exist in the app: checked against the lists once loaded (launch
  // checks again with the database), shown on the steps like any other problem.
  const options = useSegmentOptions();
  const { knownAudiences, knownEvents } = options;
  const audienceName = useCallback((id: string) => options.audiences.find((a) => a.value === id)?.label, [options.audiences]);
  const violations = useMemo(() => {
    if (!knownAudiences && !knownEvents) return ruleViolations;
    const missing = referenceViolations(journey, { audienceExists: (id) => !knownAudiences || knownAudiences.has(id), eventExists: (name) => !knownEvents || knownEvents.has(name) });
    return missing.length === 0 ? ruleViolations : [...ruleViolations, ...missing];
  }, [journey, ruleViolations, knownAudiences, knownEvents]);
  const { peers, setLocalPresence } = usePresence(collab.awareness, collab.access === 'write');
  const undo = useUndo(collab.doc, JOURNEY_UNDO_ROOTS, collab.canWrite, keepStepsConnected);
  const names = usePeerNames(collab.awareness);
  const overwritten = useJourneyConflicts(collab.doc, collab.canWrite, names);
  const [selected, setSelectedStep] = useState<string | null>(null);
  // A run panel (settings, simulation, finding a person) takes the inspector's place; selecting a
  // step brings the inspector back.
  const [panel, setPanel] = useState<RunPanel | null>(null);
  const setSelected = useCallback((stepId: string | null) => {
    setSelectedStep(stepId);
    if (stepId !== null) setPanel(null);
  }, []);
  const openPanel = useCallback((next: RunPanel | null) => {
    setPanel(next);
    if (next !== null) setSelectedStep(null);
  }, []);
  const [simulationMarks, setSimulationMarks] = useState<CanvasMarks | null>(null);
  const [passageFocus, setPassageFocus] = useState<string | null>(null);
  const storedSimulation = useStoredSimulation(collab.doc);
  const removedWhileOpen = useRemovedWhileOpen(collab.doc, journey, selected);
  const { keepDraft } = removedWhileOpen;
  // The inspector's edits; one for a step that is gone (removed by someone else while it was open,
  // the inspector committing what was being typed as it closes) is kept for putting it back.
  // The step's own notice (in the settings panel) tells of its removal; not listed twice.
  const removedId = removedWhileOpen.removed?.step.id ?? null;
  const shownConflicts = useMemo(() => (removedId === null ? overwritten.conflicts : overwritten.conflicts.filter((c) => c.stepId !== removedId)), [overwritten.conflicts, removedId]);
  const doc = collab.doc;
  const onStepChange = useCallback(
    (step: JourneyStep) => {
      if (doc?.getMap('steps').has(step.id)) onOp({ kind: 'update', step });
      else keepDraft(step);
    },
    [doc, onOp, keepDraft],
  );
  // Following another person's view of the canvas (clicked on their avatar); ends when they leave.
  const [followingId, setFollowingId] = useState<number | null>(null);
  const followedPeer = followingId === null ? undefined : peers.find((p) => p.clientId === followingId);
  const follow = useMemo(() => ({ following: followedPeer ? followingId : null, onFollow: setFollowingId }), [followedPeer, followingId]);
  const followed = useMemo(() => (followedPeer ? { name: followedPeer.name, color: followedPeer.color, view: followedPeer.view } : null), [followedPeer]);
  const stopFollowing = useCallback(() => setFollowingId(null), []);
  const onView = useCallback((view: View) => setLocalPresence({ view }), [setLocalPresence]);
  const selectedStep = journey.steps.find((s) => s.id === selected) ?? null;
  const selectedStepId = selectedStep?.id ?? null;
  // Open while there are problems, unless the person chose otherwise.
  const [problemsOpen, setProblemsOpen] = useState<boolean | null>(null);
  const showProblems = problemsOpen ?? violations.length > 0;

  useEffect(() => setLocalPresence({ selectedStepId }), [selectedStepId, setLocalPresence]);

  // Edited since launch: from the open document, as it changes.
  const editedSinceLaunch = useEditedSinceLaunch(collab.doc, summary?.liveStateVector ?? null, summary?.draftChanged ?? false);
  const shownSummary = useMemo(() => (summary ? { ...summary, draftChanged: summary.liveVersion !== null && editedSinceLaunch } : summary), [summary, editedSinceLaunch]);
  const stepCounts = useStepCounts(journeyId, summary, journey);
  // A journey-level problem of the settings opens the settings; a step's problem selects the step.
  const settingsProblem = violations.some((v) => v.stepId === null && v.path[0] === 'settings');
  const showProblem = useCallback((stepId: string | null) => (stepId === null && settingsProblem ? openPanel('settings') : setSelected(stepId)), [settingsProblem, openPanel, setSelected]);
  const marks = useMemo<CanvasMarks | null>(() => {
    if (panel === 'simulation') return simulationMarks;
    if (panel === 'people' && passageFocus) return { path: null, focus: passageFocus };
    return null;
  }, [panel, simulationMarks, passageFocus]);

  // Launched or stopped by someone else: the summary (Live, edited since launch, Launch) follows.
  const summarySeen = useRef(0);
  useEffect(() => {
    if (collab.summaryChanges <= summarySeen.current) return;
    summarySeen.current = collab.summaryChanges;
    refetch();
  }, [collab.summaryChanges, refetch]);

  // Back online (or connected for the first time): what happened meanwhile (a launch, a stop) is
  // read again, since the live announcement was missed while away.
  const wasOnline = useRef(false);
  useEffect(() => {
    const online = collab.status === 'online';
    if (online && !wasOnline.current) refetch();
    wasOnline.current = online;
  }, [collab.status, refetch]);


  const canvasPeers = useMemo<PeerPresence[]>(
    () => peers.map((p: Peer) => ({ clientId: p.clientId, name: p.name, color: p.color, selectedStepId: p.selectedStepId, pointer: p.pointer })),
    [peers],
  );
  const drags = useMemo(() => toPeerDrags(peers), [peers]);
  const onPointerMove = useCallback((pointer: { x: number; y: number } | null) => setLocalPresence({ pointer }), [setLocalPresence]);
  const onDragPosition = useCallback(
    (stepId: string, pos: { x: number; y: number } | null) => setLocalPresence({ dragging: pos ? { stepId, x: Math.round(pos.x), y: Math.round(pos.y) } : null }),
    [setLocalPresence],
  );

  if (collab.error) {
    const message = collab.error.kind === 'rejected_again' ? t('journeys.editor.rejectedAgain') : t('journeys.editor.refused', { reason: collab.error.reason });
    return (
      <Center h={FULL_HEIGHT}>
        <Stack align="center">
          <ErrorBlock error={new ApiError(ErrorCode.GENERIC, message)} onRetry={collab.retry} />
          <Button component={Link} to={backHref} variant="subtle" leftSection={<IconArrowLeft size={16} />}>
            {t('journeys.editor.back')}
          </Button>
        </Stack>
      </Center>
    );
  }
  if (!collab.ready) {
    if (collab.status !== 'offline') return <Opening />;
    return (
      <Center h={FULL_HEIGHT}>
        <Stack align="center" maw={460} gap="sm" data-testid="no-offline-copy">
          <IconCloudOff size={32} color="var(--mantine-color-orange-6)" aria-hidden />
          <Text ta="center">{t('journeys.editor.noOfflineCopy')}</Text>
          <Button component={Link} to={backHref} variant="default" leftSection={<IconArrowLeft size={16} />}>
            {t('journeys.editor.back')}
          </Button>
        </Stack>
      </Center>
    );
  }

  return (
    <Stack h={FULL_HEIGHT} gap="sm" data-testid="journey-editor" data-read-only={readOnly}>
      <EditorHeader
        journeyId={journeyId}
        summary={shownSummary}
        offline={offline}
        backHref={backHref}
        refetch={refetch}
        status={collab.status}
        unsynced={collab.unsynced}
        readOnly={readOnly}
        peers={peers}
        follow={follow}
        undo={undo}
        violations={violations}
        journey={journey}
        onSelect={setSelected}
      />
      <DocNotices
        docName={docName}
        collab={collab}
        readOnly={readOnly}
        restoreInto={restoreJourney}
        texts={{ tooNew: t('journeys.editor.tooNew'), reloaded: t('journeys.editor.reloaded') }}
      />
      <RunBar counts={stepCounts} draftChanged={shownSummary?.draftChanged ?? false} panel={panel} onPanel={openPanel} hasSimulation={storedSimulation !== null} />
      <ConflictNotice
        conflicts={shownConflicts}
        journey={journey}
        readOnly={readOnly}
        onShow={setSelected}
        onRestore={overwritten.restore}
        onDismiss={overwritten.dismiss}
      />
      {/* On phones the inspector goes under the canvas (app/global.css). */}
      <Group gap="sm" align="stretch" wrap="nowrap" style={{ flex: 1, minHeight: 0 }} className="gd-journey-body">
        <Stack gap="sm" style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          <Paper withBorder radius="md" style={{ flex: 1, minHeight: 0, overflow: 'hidden', position: 'relative' }} data-testid="journey-canvas">
            <JourneyCanvas
              journey={journey}
              layout={layout}
              violations={violations}
              readOnly={readOnly}
              selectedStepId={selectedStepId}
              onSelect={setSelected}
              onOp={onOp}
              onMoveEnd={onMoveEnd}
              onDragPosition={onDragPosition}
              peers={canvasPeers}
              peerDrags={drags}
              onPointerMove={onPointerMove}
              audienceName={audienceName}
              messageName={messageName}
              onView={onView}
              followed={followed}
              onStopFollowing={stopFollowing}
              counts={stepCounts.counts}
              countsVersion={stepCounts.data?.version ?? null}
              marks={marks}
            />
          </Paper>
          <Paper withBorder radius="md" data-testid="problems" pos="relative">
            {showProblems ? (
              <>
                <ScrollArea.Autosize mah="min(220px, 24vh)" type="auto" px="md" py="sm" pr={48} id="journey-problems">
                  <ProblemsPanel journey={journey} violations={violations} onSelect={showProblem} />
                </ScrollArea.Autosize>
                <Tooltip label={t('journeys.editor.hideProblems')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    pos="absolute"
                    top={8}
                    right={8}
                    aria-label={t('journeys.editor.hideProblems')}
                    aria-expanded
                    aria-controls="journey-problems"
                    onClick={() => setProblemsOpen(false)}
                  >
                    <IconChevronDown size={16} />
                  </ActionIcon>
                </Tooltip>
              </>
            ) : (
              <UnstyledButton onClick={() => setProblemsOpen(true)} aria-expanded={false} aria-label={t('journeys.editor.showProblems')} w="100%" px="md" py={8}>
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="xs" wrap="nowrap">
                    {violations.length > 0 ? (
                      <IconAlertTriangle size={16} color="var(--mantine-color-red-6)" aria-hidden />
                    ) : (
                      <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />
                    )}
                    <Text size="sm" fw={600}>
                      {t('journeyEditor.problems.title')}
                    </Text>
                    <Badge size="sm" color={violations.length > 0 ? 'red' : 'teal'} variant="light" data-testid="problem-count">
                      {violations.length}
                    </Badge>
                  </Group>
                  <IconChevronUp size={16} aria-hidden />
                </Group>
              </UnstyledButton>
            )}
          </Paper>
        </Stack>
        <Paper withBorder radius="md" w={panel ? PANEL_WIDTH : INSPECTOR_WIDTH} style={{ flexShrink: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }} className="gd-journey-inspector">
          {panel === 'settings' ? (
            <RunSidePanel title={t('journeyRun.settings.title')} onClose={() => openPanel(null)} testId="settings-panel">
              <SettingsPanel journey={journey} violations={violations} readOnly={readOnly} onSettings={onSettings} />
            </RunSidePanel>
          ) : panel === 'simulation' ? (
            <RunSidePanel title={t('journeyRun.simulation.title')} onClose={() => openPanel(null)} testId="simulation-side">
              <SimulationPanel journeyId={journeyId} journey={journey} summary={summary} doc={collab.doc} canWrite={collab.canWrite} onMarks={setSimulationMarks} />
            </RunSidePanel>
          ) : panel === 'people' ? (
            <RunSidePanel title={t('journeyRun.search.title')} onClose={() => openPanel(null)} testId="people-panel">
              <PersonSearchPanel journeyId={journeyId} journey={journey} focus={passageFocus} onFocus={setPassageFocus} />
            </RunSidePanel>
          ) : selectedStep ? (
            <ScrollArea style={{ flex: 1 }} type="auto" p="md">
              <StepInspector
                journey={journey}
                step={selectedStep}
                violations={violations}
                readOnly={readOnly}
                onChange={onStepChange}
                onRemove={() => {
                  onOp({ kind: 'remove', stepId: selectedStep.id });
                  setSelected(null);
                }}
                onOp={onOp}
              />
            </ScrollArea>
          ) : removedWhileOpen.removed ? (
            <RemovedStepNotice
              removed={removedWhileOpen.removed}
              by={removedWhileOpen.removed.byClient === null ? null : (names.get(removedWhileOpen.removed.byClient) ?? null)}
              readOnly={readOnly}
              onPutBack={() => {
                const { step, into } = removedWhileOpen.removed ?? { step: null, into: [] };
                if (step) {
                  onOp({ kind: 'putBack', step, into });
                  // What the removal replaced of this person's comes back with the step.
                  for (const c of overwritten.conflicts) if (c.stepId === step.id) overwritten.dismiss(c.key);
                }
                removedWhileOpen.dismiss();
              }}
              onDismiss={() => {
                removedWhileOpen.dismiss();
                setSelected(null);
              }}
            />
          ) : (
            <Center style={{ flex: 1 }} p="lg">
              <Stack align="center" gap="xs" maw={240}>
                <IconPointer size={28} color="var(--mantine-color-dimmed)" aria-hidden />
                <Text size="sm" fw={600}>
                  {t('journeys.editor.selectStepTitle')}
                </Text>
                <Text size="sm" c="dimmed" ta="center">
                  {t('journeys.editor.selectStep')}
                </Text>
              </Stack>
            </Center>
          )}
        </Paper>
      </Group>
    </Stack>
  );
}
