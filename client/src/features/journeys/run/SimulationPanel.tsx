/**
 * The simulation panel: one person through the draft or the launched version on a simulated clock
 * (simulateJourney; nothing is sent). The person is described (events with their time, interactions
 * after messages, split memberships) or is a person of the app (their segments decide the splits).
 * The last run is kept in the journey's document (simulationDoc.ts), so every open editor shows the
 * same one; viewers, who cannot write the document, see theirs only. The simulated path is marked
 * on the canvas while the panel is open.
 */
import { useEffect, useMemo, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Select, SegmentedControl, Stack, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import type * as Y from 'yjs';
import { InteractionType, type Journey } from '@gd/shared/journey/model';
import type { JourneySummary } from '@gd/shared/schemas/journeys';
import { api } from '../../../api/client.ts';
import { useT } from '../../../i18n/useT.ts';
import { useMeta, useSession } from '../../../session/store.ts';
import { errorText } from '../../../ui/errorText.ts';
import { stepLabel, pathLabelText } from '../canvas/labels.ts';
import { pathLabel } from '../canvas/toFlow.ts';
import type { CanvasMarks } from '../canvas/types.ts';
import { DurationField } from '../inspector/DurationField.tsx';
import { EventPicker } from '../inspector/Pickers.tsx';
import { simulatedPath } from './format.ts';
import { SimulationResult } from './SimulationResult.tsx';
import { HOUR, emptyForm, fromRequest, messageSteps, personIdValid, splitPaths, toRequest, type SimForm } from './simulationForm.ts';
import { readSimulation, useStoredSimulation, writeSimulation, type StoredSimulation } from './simulationDoc.ts';

export interface SimulationPanelProps {
  journeyId: string;
  journey: Journey;
  summary: JourneySummary | undefined;
  doc: Y.Doc | null;
  /** This person may write the document (share the simulation). */
  canWrite: boolean;
  onMarks: (marks: CanvasMarks | null) => void;
}

let keys = 0;
const nextKey = () => `k${++keys}`;

export function SimulationPanel({ journeyId, journey, summary, doc, canWrite, onMarks }: SimulationPanelProps) {
  const { t } = useT();
  const meta = useMeta();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const stored = useStoredSimulation(doc);
  // The form starts from the shared simulation's request (what was simulated), else empty.
  const [form, setForm] = useState<SimForm>(() => {
    const first = doc ? readSimulation(doc) : null;
    return first ? fromRequest(first.request) : emptyForm();
  });
  const [local, setLocal] = useState<{ sim: StoredSimulation; why: 'notShared' | 'tooLarge' } | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [showPath, setShowPath] = useState(true);
  const [focus, setFocus] = useState<string | null>(null);

  const launched = summary?.liveVersion != null;
  const shownLocal = local && (!stored || local.sim.at >= stored.at) ? local : null;
  const shown = shownLocal?.sim ?? stored;

  const path = useMemo(() => (shown ? simulatedPath(shown.answer.timeline, shown.answer.stepId) : null), [shown]);
  useEffect(() => {
    onMarks(shown && (showPath || focus) ? { path: showPath ? path : null, focus } : null);
  }, [onMarks, shown, path, showPath, focus]);
  useEffect(() => () => onMarks(null), [onMarks]);

  const splits = splitPaths(journey);
  const messages = messageSteps(journey);
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const personOk = personIdValid(form.personId);
  const set = (patch: Partial<SimForm>) => setForm((f) => ({ ...f, ...patch }));

  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      const request = toRequest(form);
      const answer = await api.call('simulateJourney', { params: { appId, journeyId }, body: request });
      const sim: StoredSimulation = { request, answer, by: { userId: meta.user.id, name: meta.user.name }, at: new Date().toISOString() };
      setFocus(null);
      if (!canWrite || !doc) setLocal({ sim, why: 'notShared' });
      else if (!writeSimulation(doc, sim)) setLocal({ sim, why: 'tooLarge' });
      else setLocal(null);
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Stack gap="md" data-testid="simulation-panel">
      <Text size="sm" c="dimmed">
        {t('journeyRun.simulation.description')}
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('journeyRun.simulation.source')}
        </Text>
        <SegmentedControl
          fullWidth
          size="sm"
          value={form.source}
          onChange={(v) => set({ source: v === 'launched' ? 'launched' : 'draft' })}
          data={[
            { value: 'draft', label: t('journeyRun.simulation.draft') },
            {
              value: 'launched',
              label: launched ? `${t('journeyRun.simulation.launched')} · v${summary?.liveVersion ?? ''}` : t('journeyRun.simulation.launched'),
              disabled: !launched,
            },
          ]}
          data-testid="simulation-source"
        />
        {!launched && (
          <Text size="xs" c="dimmed">
            {t('journeyRun.simulation.launchedNone')}
          </Text>
        )}
      </Stack>
      <TextInput
        label={t('journeyRun.simulation.person')}
        placeholder={t('journeyRun.simulation.personPlaceholder')}
        description={t('journeyRun.simulation.personHint')}
        value={form.personId}
        inputMode="numeric"
        error={personOk ? undefined : t('journeyRun.simulation.personInvalid')}
        onChange={(e) => set({ personId: e.currentTarget.value })}
        data-testid="simulation-person"
      />

      <Stack gap="xs" component="section" aria-label={t('journeyRun.simulation.events')}>
        <Title order={3} fz="sm" fw={700}>
          {t('journeyRun.simulation.events')}
        </Title>
        {form.events.length === 0 && (
          <Text size="xs" c="dimmed">
            {t('journeyRun.simulation.eventsEmpty')}
          </Text>
        )}
        {form.events.map((e, i) => (
          <Stack key={e.key} gap={6} className="gd-sim-row" data-testid="simulation-event">
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <div style={{ flex: 1, minWidth: 0 }}>
                <EventPicker
                  value={e.eventId}
                  label={t('journeyEditor.inspector.eventId')}
                  testId="simulation-event-name"
                  size="sm"
                  onChange={(eventId) => set({ events: form.events.map((x, j) => (j === i ? { ...x, eventId } : x)) })}
                />
              </div>
              <RemoveButton onClick={() => set({ events: form.events.filter((_, j) => j !== i) })} />
            </Group>
            <DurationField
              label={t('journeyRun.simulation.eventAt')}
              seconds={e.atSeconds}
              onCommit={(s) => setForm((f) => ({ ...f, events: f.events.map((x) => (x.key === e.key ? { ...x, atSeconds: s ?? 0 } : x)) }))}
            />
          </Stack>
        ))}
        <Button
          variant="default"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={() => set({ events: [...form.events, { key: nextKey(), eventId: null, atSeconds: HOUR }] })}
          data-testid="simulation-add-event"
        >
          {t('journeyRun.simulation.addEvent')}
        </Button>
      </Stack>

      <Stack gap="xs" component="section" aria-label={t('journeyRun.simulation.interactions')}>
        <Title order={3} fz="sm" fw={700}>
          {t('journeyRun.simulation.interactions')}
        </Title>
        {form.interactions.length === 0 && (
          <Text size="xs" c="dimmed">
            {t('journeyRun.simulation.interactionsEmpty')}
          </Text>
        )}
        {form.interactions.map((x, i) => (
          <Stack key={x.key} gap={6} className="gd-sim-row" data-testid="simulation-interaction">
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <Select
                label={t('journeyRun.simulation.interactionKind')}
                value={x.kind}
                allowDeselect={false}
                data={InteractionType.options.map((k) => ({ value: k, label: t(`journeyEditor.interaction.${k}`) }))}
                onChange={(v) => {
                  const kind = InteractionType.safeParse(v);
                  if (kind.success) set({ interactions: form.interactions.map((y, j) => (j === i ? { ...y, kind: kind.data } : y)) });
                }}
                w={128}
                style={{ flexShrink: 0 }}
              />
              <Select
                label={t('journeyRun.simulation.interactionStep')}
                value={x.stepId ?? ''}
                allowDeselect={false}
                data={[{ value: '', label: t('journeyRun.simulation.anyMessage') }, ...messages.map((s) => ({ value: s.id, label: stepLabel(t, s) }))]}
                onChange={(v) => set({ interactions: form.interactions.map((y, j) => (j === i ? { ...y, stepId: v ? v : null } : y)) })}
                style={{ flex: 1, minWidth: 0 }}
              />
              <RemoveButton onClick={() => set({ interactions: form.interactions.filter((_, j) => j !== i) })} />
            </Group>
            <DurationField
              label={t('journeyRun.simulation.interactionAfter')}
              seconds={x.afterSeconds}
              onCommit={(s) => setForm((f) => ({ ...f, interactions: f.interactions.map((y) => (y.key === x.key ? { ...y, afterSeconds: s ?? 0 } : y)) }))}
            />
          </Stack>
        ))}
        <Button
          variant="default"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={() => set({ interactions: [...form.interactions, { key: nextKey(), kind: 'open', afterSeconds: HOUR, stepId: null }] })}
          data-testid="simulation-add-interaction"
        >
          {t('journeyRun.simulation.addInteraction')}
        </Button>
      </Stack>

      {splits.length > 0 && (
        <Stack gap="xs" component="section" aria-label={t('journeyRun.simulation.splits')}>
          <Title order={3} fz="sm" fw={700}>
            {t('journeyRun.simulation.splits')}
          </Title>
          <Text size="xs" c="dimmed">
            {form.personId.trim() !== '' ? t('journeyRun.simulation.splitsFromPerson') : t('journeyRun.simulation.splitsHint')}
          </Text>
          {splits.map(({ stepId, pathId, index }) => {
            const step = byId.get(stepId);
            if (!step) return null;
            const key = `${stepId}:${pathId}`;
            return (
              <Switch
                key={key}
                size="sm"
                disabled={form.personId.trim() !== ''}
                checked={form.segments[key] === true}
                label={`${stepLabel(t, step)} · ${pathLabelText(t, pathLabel(step, index))}`}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setForm((f) => ({ ...f, segments: { ...f.segments, [key]: on } }));
                }}
              />
            );
          })}
        </Stack>
      )}

      <Button
        leftSection={<IconPlayerPlay size={16} />}
        loading={running}
        disabled={!personOk}
        onClick={() => void run()}
        data-testid="run-simulation"
      >
        {running ? t('journeyRun.simulation.running') : t('journeyRun.simulation.run')}
      </Button>
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} title={t('journeyRun.simulation.failed')} role="alert" p="xs">
          <Text size="sm">{error}</Text>
        </Alert>
      )}

      <SimulationResult
        journey={journey}
        simulation={shown}
        localNote={shownLocal ? t(shownLocal.why === 'tooLarge' ? 'journeyRun.simulation.tooLarge' : 'journeyRun.simulation.notShared') : null}
        showPath={showPath}
        onShowPath={setShowPath}
        focus={focus}
        onFocus={(stepId) => setFocus((f) => (f === stepId ? null : stepId))}
      />
    </Stack>
  );
}

function RemoveButton({ onClick }: { onClick: () => void }) {
  const { t } = useT();
  return (
    <Tooltip label={t('journeyRun.simulation.remove')} withArrow>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('journeyRun.simulation.remove')} onClick={onClick} mb={2}>
        <IconTrash size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
