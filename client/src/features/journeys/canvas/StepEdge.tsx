/** A link between steps: a rounded orthogonal line, the path label and the "+" insert menu. */
import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps, type EdgeTypes } from '@xyflow/react';
import type { StepType } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { AddStepMenu } from './AddStepMenu.tsx';
import { useCanvasActions } from './CanvasContext.ts';
import { pathLabelText } from './labels.ts';
import { newStepId } from './ops.ts';
import type { StepFlowEdge } from './types.ts';

const StepEdge = memo(function StepEdge(props: EdgeProps<StepFlowEdge>) {
  const { t } = useT();
  const actions = useCanvasActions();
  const { id, data, markerEnd, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition } = props;
  const [path, labelX, labelY] = getSmoothStepPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition, borderRadius: 14, offset: 18 });
  if (!data) return <BaseEdge id={id} path={path} markerEnd={markerEnd} />;
  const text = pathLabelText(t, data.label);
  const canAdd = !actions.readOnly && data.addable.length > 0;
  const add = (type: StepType) => {
    const newId = newStepId();
    actions.onOp({ kind: 'add', from: data.from, pathIndex: data.pathIndex, type, newId });
    actions.onSelect(newId);
  };
  const style = data.auto ? { strokeDasharray: '5 4', stroke: 'var(--mantine-color-gray-4)' } : undefined;
  // A path's label sits just below its handle (paths of one step often meet the same target, so
  // their midpoints would collide); neighbours alternate heights when a step has many paths.
  const labelY2 = sourceY + 14 + (data.pathIndex !== null && data.pathCount > 2 ? (data.pathIndex % 2) * 22 : 0);
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} />
      <EdgeLabelRenderer>
        {text && (
          <div className="jc-edge-label nodrag nopan" style={{ transform: `translate(-50%, 0) translate(${sourceX}px, ${labelY2}px)` }}>
            <span className="jc-edge-label__text" title={text} style={{ maxWidth: data.pathCount > 2 ? 96 : 120 }}>
              {text}
            </span>
          </div>
        )}
        {canAdd && (
          <div className="jc-edge-label nodrag nopan" style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            <AddStepMenu types={data.addable} label={t('journeyEditor.canvas.addStepOn', { name: actions.labelOf(data.from) })} onAdd={add} />
          </div>
        )}
      </EdgeLabelRenderer>
    </>
  );
});

export const EDGE_TYPES = { step: StepEdge } satisfies EdgeTypes;
