/** Pans to the selected step when it is selected from outside (the problems list) and is off screen. */
import { useEffect } from 'react';
import { useReactFlow, useStore } from '@xyflow/react';

export function useFollowSelection(selectedStepId: string | null): void {
  const { getInternalNode, getViewport, setCenter } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  useEffect(() => {
    if (selectedStepId === null) return;
    const node = getInternalNode(selectedStepId);
    if (!node || !width || !height) return;
    const { x, y, zoom } = getViewport();
    const w = node.measured.width ?? 0;
    const h = node.measured.height ?? 0;
    const { x: nx, y: ny } = node.internals.positionAbsolute;
    const left = nx * zoom + x;
    const top = ny * zoom + y;
    const inside = left >= 0 && top >= 0 && left + w * zoom <= width && top + h * zoom <= height;
    if (!inside) void setCenter(nx + w / 2, ny + h / 2, { zoom, duration: 300 });
  }, [selectedStepId, getInternalNode, getViewport, setCenter, width, height]);
}
