/**
 * A simulation's answer: who ran it and when, how it ended (or where the person still was at the
 * horizon), the conversion, then the timeline: each step passed with its offset from the start
 * ("+1 d 2 h"), the path taken, why, and what message would be sent. A row marks its step on the
 * canvas.
 */
import { Alert, Badge, Group, Paper, Stack, Switch, Text, Timeline, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconFlag, IconInfoCircle, IconPlayerPlay, IconTargetArrow, IconUsers } from '@tabler/icons-react';
import type { Journey, JourneyStep } from '@gd/shared/journey/model';
import type { JourneySimulationEntry } from '@gd/shared/schemas/journeySimulation';
import type { TFunction, TKey } from '../../../i18n/keys.ts';
import { useT } from '../../../i18n/useT.ts';
import { useMeta } from '../../../session/store.ts';
import { fromNow } from '../../../entities/person/format.ts';
import { stepTypeText } from '../../../entities/journey/EntryTrace.tsx';
import { reasonText } from '../../../entities/journey/traceText.ts';
import { EmptyBlock } from '../../../ui/States.tsx';
import { pathLabelText, stepLabel } from '../canvas/labels.ts';
import { STEP_VISUALS } from '../canvas/stepVisuals.ts';
import { pathLabel } from '../canvas/toFlow.ts';
import { useJourneyMessages } from '../useJourneyMessages.ts';
import { formatOffset, type OffsetUnits } from './format.ts';
import type { StoredSimulation } from './simulationDoc.ts';

interface Props {
  journey: Journey;
  simulation: StoredSimulation | null;
  /** Why only this person sees it, when it is not the shared one. */
  localNote: string | null;
  showPath: boolean;
  onShowPath: (show: boolean) => void;
  focus: string | null;
  onFocus: (stepId: string) => void;
}

export const offsetUnits = (t: TFunction): OffsetUnits => ({ d: t('journeyRun.offset.d'), h: t('journeyRun.offset.h'), min: t('journeyRun.offset.min'), s: t('journeyRun.offset.s') });

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

const END_KEYS: Record<string, TKey> = {
  end: 'journeyRun.simulation.endedAt',
  exit: 'journeyRun.simulation.exitedAt',
  dangling: 'journeyRun.simulation.danglingAt',
  loop: 'journeyRun.simulation.loopAt',
};

export function SimulationResult({ journey, simulation, localNote, showPath, onShowPath, focus, onFocus }: Props) {
  const { t, lang } = useT();
  const meta = useMeta();
  const messages = useJourneyMessages();
  if (!simulation) {
    return (
      <Paper withBorder radius="md" data-testid="simulation-empty">
        <EmptyBlock icon={<IconPlayerPlay size={26} />} title={t('journeyRun.simulation.emptyTitle')} description={t('journeyRun.simulation.emptyBody')} />
      </Paper>
    );
  }
  const { answer, by, at } = simulation;
  const units = offsetUnits(t);
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const source = answer.version === null ? t('journeyRun.simulation.sourceDraft') : t('journeyRun.simulation.sourceVersion', { version: answer.version });
  const when = fromNow(at, lang);
  const ranBy = by.userId === meta.user.id ? t('journeyRun.simulation.ranByYou', { source, time: when }) : t('journeyRun.simulation.ranBy', { source, name: by.name, time: when });
  const nameOf = (stepId: string | null, type?: string) => {
    const step = stepId ? byId.get(stepId) : undefined;
    return step ? stepLabel(t, step) : (stepTypeText(t, type) ?? t('journeyRun.simulation.stepGone'));
  };

  let outcome: string;
  if (answer.ended === 'no_entry') outcome = t('journeyRun.simulation.noEntry');
  else if (answer.ended !== null && answer.endedAt) outcome = t(END_KEYS[answer.ended] ?? 'journeyRun.simulation.endedAt', { offset: formatOffset(seconds(answer.startAt, answer.endedAt), units) });
  else outcome = t('journeyRun.simulation.truncated', { offset: formatOffset(seconds(answer.startAt, answer.horizonAt), units), step: nameOf(answer.stepId) });

  return (
    <Stack gap="sm" data-testid="simulation-result" data-ended={answer.ended ?? 'truncated'} data-at={at}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={700}>
          {t('journeyRun.simulation.result')}
        </Text>
        <Switch size="xs" label={t('journeyRun.simulation.showPath')} checked={showPath} onChange={(e) => onShowPath(e.currentTarget.checked)} data-testid="simulation-show-path" />
      </Group>
      <Group gap={6} wrap="nowrap">
        <IconUsers size={14} color="var(--mantine-color-gray-6)" aria-hidden />
        <Text size="xs" c="dimmed" data-testid="simulation-by">
          {ranBy}
        </Text>
      </Group>
      {localNote && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={16} />} p="xs">
          <Text size="xs">{localNote}</Text>
        </Alert>
      )}
      <Paper withBorder radius="md" p="sm" bg={answer.ended === 'end' || answer.ended === 'exit' ? 'gray.0' : 'yellow.0'}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconFlag size={16} style={{ flexShrink: 0, marginTop: 2 }} color="var(--mantine-color-gray-7)" aria-hidden />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} data-testid="simulation-outcome">
              {outcome}
            </Text>
            {answer.converted && (
              <Badge size="sm" color="teal" variant="light" tt="none" leftSection={<IconTargetArrow size={12} />} data-testid="simulation-converted">
                {t('journeyRun.simulation.converted', { offset: formatOffset(seconds(answer.startAt, answer.converted.at), units) })}
              </Badge>
            )}
          </Stack>
        </Group>
      </Paper>
      {answer.segmentProblems.length > 0 && (
        <Alert variant="light" color="orange" icon={<IconAlertTriangle size={16} />} p="xs">
          <Text size="xs">{t('journeyRun.simulation.segmentProblems')}</Text>
        </Alert>
      )}
      {answer.timeline.length > 0 && (
        <Timeline bulletSize={22} lineWidth={2} active={answer.timeline.length - 1} color="violet" className="gd-sim-timeline" data-testid="simulation-timeline">
          {answer.timeline.map((e, i) => (
            <Timeline.Item key={i} bullet={<EntryIcon entry={e} />} data-testid="simulation-entry" data-step-id={e.stepId}>
              <TimelineRow
                entry={e}
                step={byId.get(e.stepId)}
                name={nameOf(e.stepId, e.stepType)}
                messageName={e.message ? (messages.find(e.message.campaignId, e.message.messageId)?.name ?? e.message.messageId) : null}
                units={units}
                focused={focus === e.stepId}
                onFocus={onFocus}
              />
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}

function EntryIcon({ entry }: { entry: JourneySimulationEntry }) {
  const Icon = STEP_VISUALS[entry.stepType].icon;
  return <Icon size={12} />;
}

interface RowProps {
  entry: JourneySimulationEntry;
  step: JourneyStep | undefined;
  name: string;
  messageName: string | null;
  units: OffsetUnits;
  focused: boolean;
  onFocus: (stepId: string) => void;
}

function TimelineRow({ entry, step, name, messageName, units, focused, onFocus }: RowProps) {
  const { t } = useT();
  const index = step && 'paths' in step && entry.pathId ? step.paths.findIndex((p) => p.id === entry.pathId) : -1;
  const path = step && index >= 0 ? pathLabelText(t, pathLabel(step, index)) : null;
  const message = entry.message;
  return (
    <UnstyledButton className="gd-sim-item" onClick={() => onFocus(entry.stepId)} aria-pressed={focused} title={t('journeyRun.trace.showOnCanvas')}>
      <Stack gap={2}>
        <Group gap={8} wrap="nowrap" justify="space-between" align="baseline">
          <Text size="sm" fw={600} truncate="end" title={name} style={{ minWidth: 0 }}>
            {name}
          </Text>
          <Text size="xs" className="gd-sim-offset" data-testid="simulation-offset">
            {formatOffset(entry.offsetSeconds, units)}
          </Text>
        </Group>
        <Text size="xs" c="gray.7">
          {reasonText(t, entry.reason, entry.detail)}
          {path ? ` · ${t('journeyRun.trace.path', { path })}` : ''}
        </Text>
        {message && messageName && (
          <Text size="xs" c="violet.8" fw={500} data-testid="simulation-message">
            {t('journeyRun.simulation.wouldSend', { channel: t(`journeyRun.simulation.channel.${message.channel}`), name: messageName })}
          </Text>
        )}
      </Stack>
    </UnstyledButton>
  );
}
