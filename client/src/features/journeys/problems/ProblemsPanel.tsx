/** What stops the journey from launching, grouped by step; a click selects the step. */
import { Badge, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconRoute } from '@tabler/icons-react';
import type { Journey } from '@gd/shared/journey/model';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { useT } from '../../../i18n/useT.ts';
import { stepLabel } from '../canvas/labels.ts';
import { STEP_VISUALS } from '../canvas/stepVisuals.ts';
import { groupProblems, violationText } from '../../../entities/journey/violationText.ts';
import './problems.css';

export interface ProblemsPanelProps {
  journey: Journey;
  violations: JourneyViolation[];
  onSelect: (stepId: string | null) => void;
}

export function ProblemsPanel({ journey, violations, onSelect }: ProblemsPanelProps) {
  const { t } = useT();
  if (violations.length === 0) {
    return (
      <Group gap="sm" wrap="nowrap" py={4} data-testid="problems-empty" role="status">
        <ThemeIcon color="teal" variant="light" size={34} radius="xl" aria-hidden>
          <IconCircleCheck size={20} />
        </ThemeIcon>
        <div>
          <Text size="sm" fw={600}>
            {t('journeyEditor.problems.emptyTitle')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('journeyEditor.problems.emptyBody')}
          </Text>
        </div>
      </Group>
    );
  }
  const groups = groupProblems(journey, violations);
  return (
    <Stack gap="xs" component="section" aria-label={t('journeyEditor.problems.title')} data-testid="problems-panel">
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {t('journeyEditor.problems.title')}
        </Text>
        <Badge color="red" variant="light">
          {t('journeyEditor.problems.count', { count: violations.length })}
        </Badge>
      </Group>
      <Stack gap={6} component="ul" className="jp-list">
        {groups.map((g) => {
          const name = g.step ? stepLabel(t, g.step) : t('journeyEditor.problems.journey');
          const visual = g.step ? STEP_VISUALS[g.step.type] : null;
          const Icon = visual?.icon ?? IconRoute;
          return (
            <li key={g.step?.id ?? '__journey'}>
              <UnstyledButton
                className="jp-item"
                onClick={() => onSelect(g.step?.id ?? null)}
                title={t('journeyEditor.problems.show', { name })}
              >
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  <ThemeIcon variant="light" color={visual?.color ?? 'gray'} size={28} radius="md" aria-hidden>
                    <Icon size={16} />
                  </ThemeIcon>
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Text size="sm" fw={600} truncate>
                      {name}
                    </Text>
                    <Stack gap={2} mt={2}>
                      {g.violations.map((v, i) => (
                        <Group key={i} gap={6} wrap="nowrap" align="flex-start">
                          <IconAlertTriangle size={13} color="var(--mantine-color-red-6)" style={{ flex: 'none', marginTop: 3 }} aria-hidden />
                          <Text size="xs" c="dimmed">
                            {violationText(t, v)}
                          </Text>
                        </Group>
                      ))}
                    </Stack>
                  </div>
                </Group>
              </UnstyledButton>
            </li>
          );
        })}
      </Stack>
    </Stack>
  );
}
