/**
 * The journey's settings (shared journey/settings.ts): re-entry, the entry key, exit criteria and
 * the conversion goal. Each change goes straight into the collaborative document (the `settings`
 * map, shared writeJourneySettings through useJourneyDoc), so everyone editing sees it at once;
 * typed fields commit like the inspector's (ui/draft.tsx). Read-only for viewers.
 */
import { useMemo, type ReactNode } from 'react';
import { Alert, Divider, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { Journey } from '@gd/shared/journey/model';
import { DEFAULT_GOAL_WINDOW_SECONDS, DEFAULT_REENTRY_PERIOD_SECONDS, ReentryMode, settingsOf, type JourneySettings } from '@gd/shared/journey/settings';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { violationText } from '../../../entities/journey/violationText.ts';
import { useT } from '../../../i18n/useT.ts';
import { DraftTextInput } from '../../../ui/draft.tsx';
import { ConditionEditor } from '../inspector/ConditionEditor.tsx';
import { InspectorContext } from '../inspector/context.ts';
import { DurationField } from '../inspector/DurationField.tsx';
import { EventPicker, EventsPicker } from '../inspector/Pickers.tsx';
import { withFirstCondition } from '../inspector/segmentCondition.ts';

export interface SettingsPanelProps {
  journey: Journey;
  violations: readonly JourneyViolation[];
  readOnly: boolean;
  onSettings: (change: (settings: JourneySettings) => JourneySettings) => void;
}

const sameField = (a: readonly (string | number)[], b: readonly (string | number)[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} fz="sm" fw={700}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export function SettingsPanel({ journey, violations, readOnly, onSettings }: SettingsPanelProps) {
  const { t } = useT();
  const settings = settingsOf(journey);
  const entry = journey.steps.find((s) => s.id === journey.entryId);
  const eventSource = entry?.type === 'sourceEvents';
  const errorAt = (...path: string[]) => {
    const found = violations.filter((v) => v.stepId === null && sameField(v.path, ['settings', ...path]));
    return found.length > 0 ? found.map((v) => violationText(t, v)).join(' ') : undefined;
  };
  // The condition editor reads read-only from the inspector's context.
  const conditionContext = useMemo(() => ({ stepId: '', violations: [], readOnly }), [readOnly]);
  const { reentry, exit, goal } = settings;

  return (
    <Stack gap="md" data-testid="journey-settings">
      <Text size="sm" c="dimmed">
        {t('journeyRun.settings.description')}
      </Text>
      {readOnly && (
        <Alert variant="light" color="gray" icon={<IconLock size={16} />} p="xs">
          {t('journeyRun.settings.readOnly')}
        </Alert>
      )}
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <Section title={t('journeyRun.settings.reentry.title')}>
            <SegmentedControl
              fullWidth
              size="sm"
              aria-label={t('journeyRun.settings.reentry.label')}
              value={reentry.mode}
              disabled={readOnly}
              data={ReentryMode.options.map((mode) => ({ value: mode, label: t(`journeyRun.settings.reentry.${mode}`) }))}
              onChange={(value) => {
                const mode = ReentryMode.safeParse(value);
                if (!mode.success) return;
                onSettings((s) => ({
                  ...s,
                  reentry: { mode: mode.data, periodSeconds: mode.data === 'afterPeriod' && s.reentry.periodSeconds <= 0 ? DEFAULT_REENTRY_PERIOD_SECONDS : s.reentry.periodSeconds },
                }));
              }}
              data-testid="reentry-mode"
            />
            <Text size="xs" c="dimmed">
              {t(`journeyRun.settings.reentry.${reentry.mode}Hint`)}
            </Text>
            {reentry.mode === 'afterPeriod' && (
              <DurationField
                label={t('journeyRun.settings.reentry.period')}
                seconds={reentry.periodSeconds}
                error={errorAt('reentry', 'periodSeconds')}
                onCommit={(seconds) => onSettings((s) => ({ ...s, reentry: { ...s.reentry, periodSeconds: seconds ?? 0 } }))}
              />
            )}
          </Section>
          <Divider />
          <Section title={t('journeyRun.settings.entryKey.title')}>
            <DraftTextInput
              label={t('journeyRun.settings.entryKey.label')}
              placeholder={t('journeyRun.settings.entryKey.placeholder')}
              description={t('journeyRun.settings.entryKey.hint')}
              value={settings.entryKey ?? ''}
              maxLength={200}
              onCommit={(value) => onSettings((s) => ({ ...s, entryKey: value.trim() === '' ? null : value.trim() }))}
              data-testid="entry-key"
            />
            {!eventSource && (
              <Alert variant="light" color="blue" icon={<IconInfoCircle size={16} />} p="xs" data-testid="entry-key-unused">
                <Text size="xs">{t('journeyRun.settings.entryKey.noEventSource')}</Text>
              </Alert>
            )}
          </Section>
          <Divider />
          <Section title={t('journeyRun.settings.exit.title')}>
            <Stack gap={4}>
              <EventsPicker values={exit.eventIds} onChange={(eventIds) => onSettings((s) => ({ ...s, exit: { ...s.exit, eventIds } }))} label={t('journeyRun.settings.exit.events')} testId="exit-events" />
              <Text size="xs" c="dimmed">
                {t('journeyRun.settings.exit.eventsHint')}
              </Text>
            </Stack>
            <Switch
              label={t('journeyRun.settings.exit.segmentToggle')}
              checked={exit.segment !== null}
              disabled={readOnly}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                onSettings((s) => ({ ...s, exit: { ...s.exit, segment: on ? withFirstCondition(null, {}) : null } }));
              }}
              data-testid="exit-segment-toggle"
            />
            {exit.segment !== null && (
              <InspectorContext.Provider value={conditionContext}>
                <ConditionEditor
                  label={t('journeyRun.settings.exit.segment')}
                  segment={exit.segment}
                  error={errorAt('exit', 'segment')}
                  onChange={(c) => onSettings((s) => ({ ...s, exit: { ...s.exit, segment: withFirstCondition(s.exit.segment, c) } }))}
                />
                <Text size="xs" c="dimmed">
                  {t('journeyRun.settings.exit.segmentNotSimulated')}
                </Text>
              </InspectorContext.Provider>
            )}
          </Section>
          <Divider />
          <Section title={t('journeyRun.settings.goal.title')}>
            <EventPicker
              value={goal.eventId}
              label={t('journeyRun.settings.goal.event')}
              placeholder={t('journeyRun.settings.goal.eventPlaceholder')}
              testId="goal-event"
              onChange={(eventId) =>
                onSettings((s) => ({ ...s, goal: { eventId, windowSeconds: eventId && s.goal.windowSeconds <= 0 ? DEFAULT_GOAL_WINDOW_SECONDS : s.goal.windowSeconds } }))
              }
            />
            {goal.eventId !== null && (
              <DurationField
                label={t('journeyRun.settings.goal.window')}
                seconds={goal.windowSeconds}
                error={errorAt('goal', 'windowSeconds')}
                onCommit={(seconds) => onSettings((s) => ({ ...s, goal: { ...s.goal, windowSeconds: seconds ?? 0 } }))}
              />
            )}
            <Text size="xs" c="dimmed">
              {t('journeyRun.settings.goal.hint')}
            </Text>
          </Section>
        </Stack>
      </fieldset>
    </Stack>
  );
}
