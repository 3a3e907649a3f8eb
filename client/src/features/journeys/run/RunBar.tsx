/**
 * The bar under the journey editor's header: the launched version's totals (entered, inside, ended,
 * exited, converted), live while the journey runs, and the buttons of the side panels (settings,
 * simulation, finding a person).
 */
import type { ReactNode } from 'react';
import { Anchor, Badge, Button, Group, Indicator, Paper, Text, Tooltip } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconChartDots3, IconInfoCircle, IconPlayerPlay, IconUserSearch } from '@tabler/icons-react';
import { useT } from '../../../i18n/useT.ts';
import { formatAt } from '../../../entities/person/format.ts';
import { percentOf } from './format.ts';
import type { StepCounts } from './useStepCounts.ts';
import './run.css';

export type RunPanel = 'settings' | 'simulation' | 'people';

interface RunBarProps {
  counts: StepCounts;
  /** The draft differs from the launched version (counts belong to the version). */
  draftChanged: boolean;
  panel: RunPanel | null;
  onPanel: (panel: RunPanel | null) => void;
  /** A simulation is stored on the journey (a dot on its button). */
  hasSimulation: boolean;
}

function Figure({ label, value, testId, extra }: { label: string; value: number; testId: string; extra?: ReactNode }) {
  const { lang } = useT();
  return (
    <div className="gd-run-figure" data-testid={testId} data-value={value}>
      <span className="gd-run-figure__label">{label}</span>
      <span className="gd-run-figure__value">
        {value.toLocaleString(lang)}
        {extra}
      </span>
    </div>
  );
}

function Totals({ counts, draftChanged }: { counts: StepCounts; draftChanged: boolean }) {
  const { t, lang } = useT();
  if (!counts.launched) {
    return (
      <Group gap={6} wrap="nowrap" miw={0}>
        <IconChartDots3 size={16} color="var(--mantine-color-gray-5)" aria-hidden />
        <Text size="xs" c="dimmed" truncate="end">
          {t('journeyRun.counts.notLaunched')}
        </Text>
      </Group>
    );
  }
  const { data } = counts;
  if (!data) {
    if (counts.state === 'error') {
      return (
        <Group gap={6} wrap="nowrap">
          <Text size="xs" c="red.7">
            {t('journeyRun.counts.failed')}
          </Text>
          <Anchor component="button" type="button" size="xs" onClick={counts.refetch}>
            {t('journeyRun.counts.retry')}
          </Anchor>
        </Group>
      );
    }
    return (
      <Text size="xs" c="dimmed" role="status">
        {t('journeyRun.counts.loading')}
      </Text>
    );
  }
  const { totals } = data;
  const share = percentOf(totals.converted, totals.entered);
  return (
    <Group gap="lg" wrap="nowrap" miw={0} data-testid="run-totals" data-version={data.version ?? ''}>
      <Tooltip label={t('journeyRun.counts.updated', { time: formatAt(data.at, undefined, lang, 'time') })} withArrow>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }} tabIndex={0} data-testid="run-updated" data-at={data.at}>
          {counts.live ? <span className="gd-run-live" aria-hidden /> : null}
          <Badge size="sm" variant="light" color={counts.live ? 'teal' : 'gray'} tt="none">
            {counts.live ? t('journeyRun.counts.live') : t('journeyRun.counts.stoppedVersion')}
          </Badge>
          {data.version !== null && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('journeyRun.counts.version', { version: data.version })}
            </Text>
          )}
        </Group>
      </Tooltip>
      <Group gap="md" wrap="nowrap" className="gd-run-figures">
        <Figure label={t('journeyRun.counts.entered')} value={totals.entered} testId="total-entered" />
        <Figure label={t('journeyRun.counts.inside')} value={totals.inside} testId="total-inside" />
        <Figure label={t('journeyRun.counts.endedTotal')} value={totals.ended} testId="total-ended" />
        <Figure label={t('journeyRun.counts.exited')} value={totals.exited} testId="total-exited" />
        <Figure
          label={t('journeyRun.counts.converted')}
          value={totals.converted}
          testId="total-converted"
          extra={share !== null && totals.converted > 0 ? <span className="gd-run-figure__share">{` ${share.toLocaleString(lang)} %`}</span> : null}
        />
      </Group>
      {draftChanged && (
        <Tooltip label={t('journeyRun.counts.draftDiffers')} multiline w={260} withArrow>
          <IconInfoCircle size={15} color="var(--mantine-color-gray-6)" tabIndex={0} aria-label={t('journeyRun.counts.draftDiffers')} style={{ flexShrink: 0 }} data-testid="counts-draft-differs" />
        </Tooltip>
      )}
    </Group>
  );
}

export function RunBar({ counts, draftChanged, panel, onPanel, hasSimulation }: RunBarProps) {
  const { t } = useT();
  const toggle = (p: RunPanel) => onPanel(panel === p ? null : p);
  // On a narrow bar the buttons keep their icons only (run.css), their names in a tooltip.
  const button = (p: RunPanel, label: string, icon: ReactNode, testId: string) => (
    <Tooltip label={label} withArrow>
      <Button
        size="compact-sm"
        variant={panel === p ? 'light' : 'subtle'}
        color={panel === p ? 'brand' : 'gray'}
        leftSection={icon}
        onClick={() => toggle(p)}
        aria-pressed={panel === p}
        aria-label={label}
        className="gd-run-tool"
        data-testid={testId}
        fw={500}
      >
        <span className="gd-run-tool__label">{label}</span>
      </Button>
    </Tooltip>
  );
  return (
    <Paper withBorder radius="md" px="md" py={6} className="gd-run-bar">
      <Group justify="space-between" wrap="nowrap" gap="md">
        <div style={{ minWidth: 0, flex: 1, overflow: 'hidden' }}>
          <Totals counts={counts} draftChanged={draftChanged} />
        </div>
        <Group gap={4} wrap="nowrap" role="group" aria-label={t('journeyRun.tools.label')} style={{ flexShrink: 0 }}>
          {button('settings', t('journeyRun.tools.settings'), <IconAdjustmentsHorizontal size={16} />, 'open-settings')}
          {button(
            'simulation',
            t('journeyRun.tools.simulate'),
            <Indicator size={7} color="violet" disabled={!hasSimulation} offset={1} title={hasSimulation ? t('journeyRun.tools.simulationStored') : undefined}>
              <IconPlayerPlay size={16} />
            </Indicator>,
            'open-simulation',
          )}
          {button('people', t('journeyRun.tools.people'), <IconUserSearch size={16} />, 'open-people')}
        </Group>
      </Group>
    </Paper>
  );
}
