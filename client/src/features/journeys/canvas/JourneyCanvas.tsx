/**
 * The journey canvas (React Flow). Stateless about the journey: it draws the props and reports
 * edits as JourneyOps; positions are written by the page on drag end only (onMoveEnd). Locally it
 * keeps node sizes (React Flow needs them back on every render) and the position of the node being
 * moved until the page's layout catches up. The overview map (minimap) shows by itself on a wide
 * canvas only, and a control button shows or hides it (viewport.ts).
 */
import '@xyflow/react/dist/style.css';
import './canvas.css';
import { useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import {
  Background,
  BackgroundVariant,
  ConnectionLineType,
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type Connection,
  type Edge,
  type NodeChange,
  type OnNodeDrag,
} from '@xyflow/react';
import { IconMap } from '@tabler/icons-react';
import type { LayoutPosition } from '@gd/shared/docs/journeyDoc';
import { isSource, type Journey, type JourneyStep } from '@gd/shared/journey/model';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { useT } from '../../../i18n/useT.ts';
import { CanvasContext, type CanvasActions } from './CanvasContext.ts';
import { stepLabel, stepSummary, type SummaryNames } from './labels.ts';
import { PeerPointers } from './PeerPointers.tsx';
import { EDGE_TYPES } from './StepEdge.tsx';
import { NODE_TYPES } from './StepNode.tsx';
import { STEP_VISUALS, mantineColor } from './stepVisuals.ts';
import { pathIndexOfHandle, toFlow } from './toFlow.ts';
import type { CanvasMarks, JourneyOp, PeerPresence, StepFlowNode } from './types.ts';
import { useFollowSelection } from './useFollowSelection.ts';
import { useInitialView } from './useInitialView.ts';
import { useSharedView } from './useSharedView.ts';
import type { View } from '../../../sync/presence.ts';
import { useThrottled } from './useThrottled.ts';
import { MINIMAP, fitViewPadding, minimapByDefault, viewInsets } from './viewport.ts';

export type { JourneyOp, PeerPresence } from './types.ts';

export interface JourneyCanvasProps {
  journey: Journey;
  layout: Record<string, LayoutPosition>;
  violations: JourneyViolation[];
  readOnly: boolean;
  selectedStepId: string | null;
  onSelect: (stepId: string | null) => void;
  onOp: (op: JourneyOp) => void;
  /** An audience's name by id (the app's audiences), for node summaries. */
  audienceName?: (id: string) => string | undefined;
  /** A message's name by campaign and message id (the app's messages; null: not one of them), for node summaries. */
  messageName?: (campaignId: string, messageId: string) => string | null | undefined;
  /** Called only when a move ends (drag end or a keyboard move), never during a drag. */
  onMoveEnd: (stepId: string, pos: LayoutPosition) => void;
  /** Live positions while dragging (throttled), then null when the drag ends. */
  onDragPosition?: (stepId: string, pos: LayoutPosition | null) => void;
  peers: PeerPresence[];
  peerDrags?: Record<string, LayoutPosition>;
  /** The local pointer in flow coordinates (throttled), null when it leaves the canvas. */
  onPointerMove?: (pos: { x: number; y: number } | null) => void;
  /** What this person looks at (throttled), for others who follow them. */
  onView?: (view: View) => void;
  /** The person this one follows: their view is applied as it changes. */
  followed?: { name: string; color: string; view: View | null } | null;
  onStopFollowing?: () => void;
  /** The launched version's counts by step id (run/format.ts nodeCounts) and the version counted. */
  counts?: Readonly<Record<string, { now: number; total: number; conversions: number }>>;
  countsVersion?: number | null;
  /** Steps a panel marks (a simulated path, a passage's step); the focused one is brought into view. */
  marks?: CanvasMarks | null;
}

interface LocalMove {
  id: string;
  pos: LayoutPosition;
  /** The stored position when the move started: the local one wins while the store still says this. */
  base: LayoutPosition | undefined;
  dragging: boolean;
}
type Size = { width: number; height: number };

const THROTTLE_MS = 50;
const round = (p: { x: number; y: number }): LayoutPosition => ({ x: Math.round(p.x), y: Math.round(p.y) });
const samePos = (a: LayoutPosition | undefined, b: LayoutPosition | undefined) => a?.x === b?.x && a?.y === b?.y;

export function JourneyCanvas(props: JourneyCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas(props: JourneyCanvasProps) {
  const { journey, layout, violations, readOnly, selectedStepId, onSelect, onOp, onMoveEnd, peers, peerDrags } = props;
  const { t, lang } = useT();
  const { audienceName, messageName, counts, countsVersion, marks } = props;
  const names = useMemo<SummaryNames>(
    () => ({ audience: (id) => audienceName?.(id), message: (campaignId, messageId) => messageName?.(campaignId, messageId), language: lang }),
    [audienceName, messageName, lang],
  );
  const { screenToFlowPosition } = useReactFlow();
  const [sizes, setSizes] = useState<Record<string, Size>>({});
  const [local, setLocal] = useState<LocalMove | null>(null);
  const dragPresence = useThrottled(props.onDragPosition, THROTTLE_MS);
  const pointer = useThrottled(props.onPointerMove, THROTTLE_MS);

  const effectiveLayout = useMemo(() => {
    const out: Record<string, LayoutPosition> = { ...layout, ...peerDrags };
    if (local && (local.dragging || samePos(layout[local.id], local.base))) out[local.id] = local.pos;
    return out;
  }, [layout, peerDrags, local]);

  const describe = useCallback(
    (step: JourneyStep, problems: number) => {
      const label = t('journeyEditor.canvas.nodeLabel', { title: stepLabel(t, step), summary: stepSummary(t, step, names) });
      return problems > 0 ? `${label}. ${t('journeyEditor.canvas.problems', { count: problems })}` : label;
    },
    [t, names],
  );
  // Nodes depend on which step each peer selected, not on their pointers (which move all the time).
  const selectionsKey = JSON.stringify(peers.filter((p) => p.selectedStepId !== null).map((p) => ({ ...p, pointer: null })));
  const selecting = useMemo(() => JSON.parse(selectionsKey) as PeerPresence[], [selectionsKey]);
  const flow = useMemo(
    () => toFlow({ journey, layout: effectiveLayout, violations, peers: selecting, selectedStepId, readOnly, describe, counts, countsVersion, marks }),
    [journey, effectiveLayout, violations, selecting, selectedStepId, readOnly, describe, counts, countsVersion, marks],
  );
  const nodes = useMemo(
    () =>
      flow.nodes.map((n) => {
        const size = sizes[n.id];
        return size ? { ...n, measured: size } : n;
      }),
    [flow.nodes, sizes],
  );
  // The overview map: automatic by the canvas width until the person shows or hides it.
  const canvasWidth = useStore((s) => s.width);
  const [minimapChoice, setMinimapChoice] = useState<boolean | null>(null);
  const showMinimap = minimapChoice ?? minimapByDefault(canvasWidth);
  const insets = useMemo(() => viewInsets(showMinimap), [showMinimap]);
  const fitViewOptions = useMemo(() => ({ padding: fitViewPadding(insets), maxZoom: 1 }), [insets]);
  useFollowSelection(selectedStepId);
  useFollowSelection(marks?.focus ?? null);
  const sharedView = useSharedView(props.onView, Boolean(props.followed), props.followed?.view ?? null, props.onStopFollowing);
  useInitialView(journey.entryId, insets);

  const onNodesChange = useCallback(
    (changes: NodeChange<StepFlowNode>[]) => {
      const measured: Record<string, Size> = {};
      for (const c of changes) {
        if (c.type === 'dimensions' && c.dimensions) measured[c.id] = c.dimensions;
        else if (c.type === 'select' && c.selected && c.id !== selectedStepId) onSelect(c.id);
        else if (c.type === 'position' && c.position && !readOnly) {
          const pos = round(c.position);
          const dragging = c.dragging ?? false;
          setLocal((prev) => ({ id: c.id, pos, dragging, base: prev?.id === c.id && prev.dragging ? prev.base : layout[c.id] }));
          // A drag ends, or a keyboard move (arrow keys) happens, with `dragging: false`.
          if (!dragging) onMoveEnd(c.id, pos);
        }
      }
      if (Object.keys(measured).length > 0) {
        setSizes((prev) => {
          const changed = Object.entries(measured).some(([id, s]) => prev[id]?.width !== s.width || prev[id]?.height !== s.height);
          return changed ? { ...prev, ...measured } : prev;
        });
      }
    },
    [layout, onMoveEnd, onSelect, readOnly, selectedStepId],
  );

  const onNodeDrag: OnNodeDrag<StepFlowNode> = useCallback((_e, node) => dragPresence.call(node.id, round(node.position)), [dragPresence]);
  const onNodeDragStop: OnNodeDrag<StepFlowNode> = useCallback(
    (_e, node) => {
      dragPresence.cancel();
      props.onDragPosition?.(node.id, null);
    },
    [dragPresence, props],
  );

  const byId = useMemo(() => new Map(journey.steps.map((s) => [s.id, s])), [journey]);
  const isValidConnection = useCallback(
    (c: Connection | Edge) => {
      const target = byId.get(c.target);
      return !readOnly && c.source !== c.target && !!target && !isSource(target.type) && pathIndexOfHandle(c.sourceHandle) !== undefined;
    },
    [byId, readOnly],
  );
  const onConnect = useCallback(
    (c: Connection) => {
      const pathIndex = pathIndexOfHandle(c.sourceHandle);
      if (pathIndex === undefined || !isValidConnection(c)) return;
      onOp({ kind: 'connect', from: c.source, pathIndex, to: c.target });
    },
    [isValidConnection, onOp],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = e.target;
    if (!(el instanceof HTMLElement) || !e.currentTarget.contains(el)) return;
    if (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) return;
    if (e.key === 'Escape') onSelect(null);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly && selectedStepId !== null) {
      if (selectedStepId === journey.entryId || !byId.has(selectedStepId)) return;
      e.preventDefault();
      onOp({ kind: 'remove', stepId: selectedStepId });
      onSelect(null);
    }
  };

  const actions = useMemo<CanvasActions>(
    () => ({ readOnly, onOp, onSelect, names, labelOf: (id) => { const s = byId.get(id); return s ? stepLabel(t, s) : id; } }),
    [byId, onOp, onSelect, readOnly, t, names],
  );

  return (
    <CanvasContext.Provider value={actions}>
      <div
        className="jc-canvas"
        role="region"
        aria-label={t('journeyEditor.canvas.label')}
        onKeyDown={onKeyDown}
        onPointerMove={props.onPointerMove ? (e) => pointer.call(screenToFlowPosition({ x: e.clientX, y: e.clientY })) : undefined}
        onPointerLeave={() => {
          pointer.cancel();
          props.onPointerMove?.(null);
        }}
      >
        <ReactFlow<StepFlowNode>
          nodes={nodes}
          edges={flow.edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          nodeOrigin={[0.5, 0]}
          onNodesChange={onNodesChange}
          onNodeDrag={onNodeDrag}
          onNodeDragStop={onNodeDragStop}
          onConnect={onConnect}
          isValidConnection={isValidConnection}
          onPaneClick={() => onSelect(null)}
          onMove={sharedView.onMove}
          onMoveStart={sharedView.onMoveStart}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          edgesFocusable={false}
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          connectionLineType={ConnectionLineType.SmoothStep}
          minZoom={0.2}
          maxZoom={1.75}
          attributionPosition="top-right"
          ariaLabelConfig={{
            'node.a11yDescription.default': t(readOnly ? 'journeyEditor.canvas.nodeHelpReadOnly' : 'journeyEditor.canvas.nodeHelp'),
            'node.a11yDescription.keyboardDisabled': t('journeyEditor.canvas.nodeHelpReadOnly'),
            'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }) => t('journeyEditor.canvas.moved', { direction, x, y }),
            'edge.a11yDescription.default': t('journeyEditor.canvas.edgeHelp'),
            'controls.ariaLabel': t('journeyEditor.canvas.controls'),
            'controls.zoomIn.ariaLabel': t('journeyEditor.canvas.zoomIn'),
            'controls.zoomOut.ariaLabel': t('journeyEditor.canvas.zoomOut'),
            'controls.fitView.ariaLabel': t('journeyEditor.canvas.fitView'),
            'minimap.ariaLabel': t('journeyEditor.canvas.minimap'),
            'handle.ariaLabel': t('journeyEditor.canvas.handle'),
          }}
        >
          <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} color="var(--mantine-color-gray-4)" />
          <Controls showInteractive={false} position="bottom-left" fitViewOptions={fitViewOptions}>
            <ControlButton
              onClick={() => setMinimapChoice(!showMinimap)}
              aria-label={t(showMinimap ? 'journeyEditor.canvas.hideMinimap' : 'journeyEditor.canvas.showMinimap')}
              title={t(showMinimap ? 'journeyEditor.canvas.hideMinimap' : 'journeyEditor.canvas.showMinimap')}
              aria-pressed={showMinimap}
              data-testid="minimap-toggle"
            >
              <IconMap />
            </ControlButton>
          </Controls>
          {showMinimap && (
            <MiniMap<StepFlowNode>
              pannable
              zoomable
              position="bottom-right"
              nodeBorderRadius={6}
              style={{ width: MINIMAP.width, height: MINIMAP.height, margin: MINIMAP.margin }}
              nodeColor={(n) => mantineColor(STEP_VISUALS[n.data.step.type].color, 4)}
            />
          )}
          <PeerPointers peers={peers} />
        </ReactFlow>
        {props.followed && (
          <div className="jc-following" style={{ borderColor: props.followed.color }} data-testid="following">
            <span className="jc-following-dot" style={{ background: props.followed.color }} aria-hidden />
            <span role="status">{t('journeys.editor.following', { name: props.followed.name })}</span>
            <button type="button" className="jc-following-stop" onClick={props.onStopFollowing} data-testid="stop-following">
              {t('journeys.editor.stopFollowingShort')}
            </button>
          </div>
        )}
      </div>
    </CanvasContext.Provider>
  );
}
