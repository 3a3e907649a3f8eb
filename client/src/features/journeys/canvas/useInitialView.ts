/** Sets the first view once the nodes are measured (see viewport.ts), before the first paint. */
import { useLayoutEffect, useRef } from 'react';
import { useNodesInitialized, useReactFlow, useStore } from '@xyflow/react';
import { initialViewport, type Insets } from './viewport.ts';

export function useInitialView(entryId: string | null, insets: Insets): void {
  const initialized = useNodesInitialized();
  const { getNodes, getNodesBounds, getInternalNode, setViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const done = useRef(false);
  useLayoutEffect(() => {
    if (done.current || !initialized || !width || !height) return;
    done.current = true;
    const entry = entryId === null ? undefined : getInternalNode(entryId);
    const entryX = entry ? entry.internals.positionAbsolute.x + (entry.measured.width ?? 0) / 2 : null;
    void setViewport(initialViewport(getNodesBounds(getNodes()), { width, height }, entryX, insets));
  }, [initialized, width, height, entryId, insets, getNodes, getNodesBounds, getInternalNode, setViewport]);
}
