/**
 * One entry of a person into a journey (schemas/journeyRun.ts JourneyEntryTrace): its status,
 * where it is and what it waits for (or how it ended), the conversion, then every step passed with
 * when, the path taken, why, and what the step did. Shown by the journey editor's "Find a person"
 * panel and by the person profile's journeys tab (a feature never imports another: entities/).
 */
import { useState, type ReactNode } from 'react';
import { Anchor, Badge, Group, Paper, Stack, Text, Timeline, UnstyledButton } from '@mantine/core';
import { IconCheck, IconFlag, IconPlayerPlay, IconPoint, IconTargetArrow } from '@tabler/icons-react';
import type { JourneyEntryTrace, JourneyPassage } from '@gd/shared/schemas/journeyRun';
import type { TFunction } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { formatAt } from '../person/format.ts';
import { STATUS_COLOR, effectText, endReasonText, reasonText, waitingForKey, type EffectTone } from './traceText.ts';
import './entryTrace.css';

const STEP_TYPES = new Set([
  'sourceAudience', 'sourceEvents', 'flowWait', 'flowInteraction', 'flowEvent', 'flowRandom', 'flowSplit', 'flowJoin', 'flowWaitInteraction',
  'actionMessagePush', 'actionMessageInApp', 'actionMessageEmail', 'actionPostback', 'updateTagCount', 'end',
]);

/** A step's type as people read it, or null for an unknown or missing type. */
export function stepTypeText(t: TFunction, stepType: string | null | undefined): string | null {
  if (!stepType || !STEP_TYPES.has(stepType)) return null;
  return t(`stepType.${stepType as 'end'}`);
}

export interface EntryTraceProps {
  entry: JourneyEntryTrace;
  /** The app's time zone for times. */
  zone?: string;
  /** A step's name (the journey's own, when known); default: its type's name. */
  stepName?: (stepId: string, stepType: string | null) => string | null;
  /** A path's label, when the journey is known. */
  pathName?: (stepId: string, pathId: string) => string | null;
  /** A title line above the status (the journey's name and a link in the profile). */
  title?: ReactNode;
  /** Passages become buttons that show their step (on the canvas). */
  onShowStep?: (stepId: string) => void;
  /** The step shown, marked in the list. */
  shownStepId?: string | null;
}

const TONE_COLOR: Record<EffectTone, string> = { ok: 'teal', warn: 'orange', neutral: 'gray' };
/** Long traces show their latest passages first folded: the most recent ones are what is asked about. */
const FOLDED = 12;

export function EntryTrace({ entry, zone, stepName, pathName, title, onShowStep, shownStepId }: EntryTraceProps) {
  const { t, lang } = useT();
  const [unfolded, setUnfolded] = useState(false);
  const at = (iso: string | null) => formatAt(iso, zone, lang, 'dateTimeSeconds');
  const typeOf = (stepId: string) => [...entry.passages].reverse().find((p) => p.stepId === stepId)?.stepType ?? null;
  const nameOf = (stepId: string, stepType: string | null) => stepName?.(stepId, stepType) ?? stepTypeText(t, stepType);
  const current = nameOf(entry.stepId, typeOf(entry.stepId));
  const open = entry.status === 'active' || entry.status === 'waiting';
  const hidden = unfolded ? 0 : Math.max(0, entry.passages.length - FOLDED);
  const passages = entry.passages.slice(hidden);

  let state: string | null = null;
  if (entry.status === 'waiting' && entry.wakeAt) {
    state = t('journeyRun.trace.waitingUntil', { time: at(entry.wakeAt) });
    if (entry.waitingFor) state += ` ${t(`journeyRun.trace.waitingFor.${entry.waitingFor}`)}`;
  } else if (entry.status === 'waiting' && entry.waitingFor) state = t(waitingForKey(entry.waitingFor));
  else if (!open && entry.endedAt) {
    const why = endReasonText(t, entry.endReason);
    state = `${t(entry.status === 'exited' ? 'journeyRun.trace.exitedAt' : 'journeyRun.trace.endedAt', { time: at(entry.endedAt) })}${why ? ` · ${why}` : ''}`;
  }

  return (
    <Paper withBorder radius="md" p="sm" className="gd-entry-trace" data-testid="entry-trace" data-status={entry.status} data-entry-id={entry.entryId}>
      <Stack gap={6}>
        {title}
        <Group gap={6} wrap="wrap">
          <Badge size="sm" variant="light" color={STATUS_COLOR[entry.status]} tt="none" data-testid="entry-status">
            {t(`journeyRun.trace.status.${entry.status}`)}
          </Badge>
          <Badge size="sm" variant="outline" color="gray" tt="none">
            {t('journeyRun.trace.version', { version: entry.version })}
          </Badge>
          {entry.entryKey && (
            <Badge size="sm" variant="default" tt="none" fw={500} maw={180} title={entry.entryKey}>
              {t('journeyRun.trace.key', { key: entry.entryKey })}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {t('journeyRun.trace.entered', { time: at(entry.enteredAt) })}
          </Text>
        </Group>
        {open && current && (
          <Text size="sm" fw={600} data-testid="entry-current">
            {t('journeyRun.trace.at', { step: current })}
          </Text>
        )}
        {state && (
          <Text size="xs" c="dimmed" data-testid="entry-state">
            {state}
          </Text>
        )}
        {entry.convertedAt && (
          <Group gap={4} wrap="nowrap">
            <IconTargetArrow size={14} color="var(--mantine-color-teal-7)" aria-hidden />
            <Text size="xs" c="teal.8" fw={600}>
              {t('journeyRun.trace.convertedAt', { time: at(entry.convertedAt) })}
            </Text>
          </Group>
        )}
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt={4} style={{ letterSpacing: '0.04em' }}>
          {t('journeyRun.trace.passages')}
        </Text>
        {entry.passages.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('journeyRun.trace.noPassages')}
          </Text>
        ) : (
          <>
            {hidden > 0 && (
              <Anchor component="button" type="button" size="xs" onClick={() => setUnfolded(true)} style={{ alignSelf: 'flex-start' }}>
                {`+${hidden}`}
              </Anchor>
            )}
            <Timeline bulletSize={18} lineWidth={2} active={passages.length - 1} color="brand" className="gd-entry-trace__timeline">
              {passages.map((p, i) => (
                <Timeline.Item key={`${hidden + i}`} bullet={<PassageIcon passage={p} />} data-testid="passage">
                  <PassageRow
                    passage={p}
                    step={nameOf(p.stepId, p.stepType) ?? p.stepId}
                    path={p.pathId ? (pathName?.(p.stepId, p.pathId) ?? null) : null}
                    time={formatAt(p.at, zone, lang, 'dateTime')}
                    fullTime={at(p.at)}
                    shown={shownStepId === p.stepId}
                    onShow={onShowStep}
                  />
                </Timeline.Item>
              ))}
            </Timeline>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function PassageIcon({ passage }: { passage: JourneyPassage }) {
  if (passage.reason === 'entered') return <IconPlayerPlay size={10} />;
  if (passage.reason === 'end') return <IconFlag size={10} />;
  if (passage.reason === 'goal') return <IconTargetArrow size={10} />;
  if (passage.effect?.kind === 'send' && passage.effect.status === 'queued') return <IconCheck size={10} />;
  return <IconPoint size={10} />;
}

interface PassageRowProps {
  passage: JourneyPassage;
  step: string;
  path: string | null;
  /** Minutes shown, seconds on hover. */
  time: string;
  fullTime: string;
  shown: boolean;
  onShow?: (stepId: string) => void;
}

function PassageRow({ passage, step, path, time, fullTime, shown, onShow }: PassageRowProps) {
  const { t } = useT();
  const effect = effectText(t, passage.effect);
  const body = (
    <Stack gap={2} className={shown ? 'gd-entry-trace__row is-shown' : 'gd-entry-trace__row'}>
      <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
        <Text size="sm" fw={600} lh={1.3} truncate="end" title={step} style={{ minWidth: 0 }}>
          {step}
        </Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0, whiteSpace: 'nowrap' }} title={fullTime}>
          {time}
        </Text>
      </Group>
      <Text size="xs" c="gray.7" lh={1.35}>
        {reasonText(t, passage.reason, passage.detail)}
        {path ? ` · ${t('journeyRun.trace.path', { path })}` : ''}
      </Text>
      {effect && (
        <Badge size="xs" variant="light" color={TONE_COLOR[effect.tone]} tt="none" style={{ alignSelf: 'flex-start' }} data-testid="passage-effect">
          {effect.text}
        </Badge>
      )}
    </Stack>
  );
  if (!onShow) return body;
  return (
    <UnstyledButton onClick={() => onShow(passage.stepId)} w="100%" title={t('journeyRun.trace.showOnCanvas')} aria-pressed={shown} className="gd-entry-trace__button">
      {body}
    </UnstyledButton>
  );
}
