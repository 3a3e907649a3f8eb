/** Step nodes, one component per category: a card (icon, title, summary) or, for ends, a pill. */
import { memo, type CSSProperties, type ReactNode } from 'react';
import { Handle, Position, type NodeProps, type NodeTypes } from '@xyflow/react';
import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { useT } from '../../../i18n/useT.ts';
import { violationText } from '../../../entities/journey/violationText.ts';
import { useCanvasActions } from './CanvasContext.ts';
import { stepLabel, stepSummary } from './labels.ts';
import { CATEGORY_COLORS, STEP_VISUALS, mantineColor } from './stepVisuals.ts';
import type { StepFlowNode, StepNodeData } from './types.ts';

function classes(data: StepNodeData, selected: boolean, base: string): string {
  return [
    base,
    selected && 'is-selected',
    data.step.auto && 'is-auto',
    data.violations.length > 0 && 'has-problems',
    data.peers.length > 0 && 'has-peer',
    data.mark && `is-mark-${data.mark}`,
  ]
    .filter(Boolean)
    .join(' ');
}

function cssVars(data: StepNodeData): CSSProperties {
  const color = STEP_VISUALS[data.step.type].color;
  return {
    '--jc-accent': mantineColor(color, 'light-color'),
    '--jc-accent-light': mantineColor(color, 'light'),
    '--jc-category': mantineColor(CATEGORY_COLORS[data.category], 5),
    '--jc-peer': data.peers[0]?.color ?? 'transparent',
  } as CSSProperties;
}

function ProblemsBadge({ data }: { data: StepNodeData }) {
  const { t } = useT();
  const count = data.violations.length;
  if (count === 0) return null;
  const label = (
    <Stack gap={4}>
      {data.violations.map((v, i) => (
        <Text key={i} size="xs">
          {violationText(t, v)}
        </Text>
      ))}
    </Stack>
  );
  return (
    <Tooltip label={label} position="top">
      <Badge className="jc-node__badge" color="red" size="md" circle aria-label={t('journeyEditor.canvas.problems', { count })}>
        {count}
      </Badge>
    </Tooltip>
  );
}

function PeerTags({ data }: { data: StepNodeData }) {
  const { t } = useT();
  if (data.peers.length === 0) return null;
  return (
    <div className="jc-peers">
      {data.peers.map((p, i) => (
        <span key={i} className="jc-peer-chip" style={{ background: p.color }} title={t('journeyEditor.canvas.selectedBy', { name: p.name })}>
          {p.name}
        </span>
      ))}
    </div>
  );
}

/** The launched version's counts at a card: "12 now · 340 total", conversions when there are some. */
function CountRow({ data }: { data: StepNodeData }) {
  const { t, lang } = useT();
  const c = data.count;
  if (!c) return null;
  const n = (v: number) => v.toLocaleString(lang);
  const title = t('journeyRun.counts.nodeTitle', { version: c.version, now: n(c.now), total: n(c.total) });
  return (
    <div className={c.now > 0 ? 'jc-count is-busy' : 'jc-count'} title={title} data-testid="step-count" data-now={c.now} data-total={c.total} data-conversions={c.conversions}>
      <span className="jc-count__dot" aria-hidden />
      <span className="jc-count__text">{t('journeyRun.counts.badge', { now: n(c.now), total: n(c.total) })}</span>
      {c.conversions > 0 && <span className="jc-count__conv">{t('journeyRun.counts.conversions', { count: c.conversions })}</span>}
    </div>
  );
}

function Handles({ data, target }: { data: StepNodeData; target: boolean }) {
  const { t } = useT();
  const hidden = data.readOnly ? ' is-hidden' : '';
  const n = data.outlets.length;
  return (
    <>
      {target && <Handle id="in" type="target" position={Position.Top} className={`jc-handle${hidden}`} isConnectable={!data.readOnly} />}
      {data.outlets.map((o, i) => (
        <Handle
          key={o.handleId}
          id={o.handleId}
          type="source"
          position={Position.Bottom}
          className={`jc-handle${hidden}`}
          style={{ left: `${((i + 1) / (n + 1)) * 100}%` }}
          isConnectable={!data.readOnly}
          aria-label={t('journeyEditor.canvas.handle')}
        />
      ))}
    </>
  );
}

function StepCard({ data, selected, target }: { data: StepNodeData; selected: boolean; target: boolean }) {
  const { t } = useT();
  const { names } = useCanvasActions();
  const { step } = data;
  const Icon = STEP_VISUALS[step.type].icon;
  const named = !!step.name?.trim();
  return (
    <div className={classes(data, selected, 'jc-node')} style={cssVars(data)}>
      <Handles data={data} target={target} />
      <PeerTags data={data} />
      {data.isEntry && <span className="jc-node__start">{t('journeyEditor.canvas.entry')}</span>}
      <div className="jc-node__icon" aria-hidden>
        <Icon size={19} stroke={1.8} />
      </div>
      <div className="jc-node__text">
        <div className="jc-node__kicker">{named ? t(`stepType.${step.type}`) : t(`journeyEditor.category.${data.category}`)}</div>
        <div className="jc-node__title">{stepLabel(t, step)}</div>
        <div className="jc-node__summary">{stepSummary(t, step, names)}</div>
        {step.auto && <span className="jc-auto-tag">{t('journeyEditor.canvas.automatic')}</span>}
        <CountRow data={data} />
      </div>
      <ProblemsBadge data={data} />
    </div>
  );
}

function EndPill({ data, selected }: { data: StepNodeData; selected: boolean }) {
  const { t, lang } = useT();
  const Icon = STEP_VISUALS.end.icon;
  let tag: ReactNode = null;
  if (data.step.auto) tag = <span className="jc-auto-tag">{t('journeyEditor.canvas.automatic')}</span>;
  const c = data.count;
  return (
    <div className={classes(data, selected, 'jc-end')} style={cssVars(data)}>
      <Handles data={data} target />
      <PeerTags data={data} />
      <Icon size={14} aria-hidden />
      <span>{stepLabel(t, data.step)}</span>
      {tag}
      {c && (
        <span
          className="jc-end__count"
          title={t('journeyRun.counts.nodeTitle', { version: c.version, now: c.now.toLocaleString(lang), total: c.total.toLocaleString(lang) })}
          data-testid="step-count"
          data-now={c.now}
          data-total={c.total}
          data-conversions={c.conversions}
        >
          {t('journeyRun.counts.ended', { total: c.total.toLocaleString(lang) })}
        </span>
      )}
      <ProblemsBadge data={data} />
    </div>
  );
}

const SourceNode = memo(({ data, selected }: NodeProps<StepFlowNode>) => <StepCard data={data} selected={selected} target={false} />);
const FlowNode = memo(({ data, selected }: NodeProps<StepFlowNode>) => <StepCard data={data} selected={selected} target />);
const ActionNode = memo(({ data, selected }: NodeProps<StepFlowNode>) => <StepCard data={data} selected={selected} target />);
const UpdateNode = memo(({ data, selected }: NodeProps<StepFlowNode>) => <StepCard data={data} selected={selected} target />);
const EndNode = memo(({ data, selected }: NodeProps<StepFlowNode>) => <EndPill data={data} selected={selected} />);
SourceNode.displayName = 'SourceNode';
FlowNode.displayName = 'FlowNode';
ActionNode.displayName = 'ActionNode';
UpdateNode.displayName = 'UpdateNode';
EndNode.displayName = 'EndNode';

/** React Flow node types by step category (StepFlowNode.type). */
export const NODE_TYPES = {
  source: SourceNode,
  flow: FlowNode,
  action: ActionNode,
  update: UpdateNode,
  end: EndNode,
} satisfies NodeTypes;
