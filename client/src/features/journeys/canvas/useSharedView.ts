/**
 * The canvas view shared with the others (presence `view`): what this person looks at is published
 * as the canvas point at the middle of their view and their zoom, so someone following them sees the
 * same place whatever the size of their own screen. Following: the followed person's view is
 * applied as it changes; the follower's own pan or zoom (a move that comes from an input event, not
 * from this hook) or Escape stops following.
 */
import { useEffect, useRef } from 'react';
import { useReactFlow, useStore, type Viewport } from '@xyflow/react';
import type { View } from '../../../sync/presence.ts';
import { useThrottled } from './useThrottled.ts';

const VIEW_THROTTLE_MS = 50;

/** The view as others see it: the flow point at the middle of a `width` × `height` pane, and the zoom. */
export function viewOf(viewport: Viewport, width: number, height: number): View {
  return { center: { x: (width / 2 - viewport.x) / viewport.zoom, y: (height / 2 - viewport.y) / viewport.zoom }, zoom: viewport.zoom };
}

/**
 * `following`: someone is followed (their `view` may not be known yet: a viewer publishes none);
 * `followed`: their view, applied as it changes.
 */
export function useSharedView(onView: ((view: View) => void) | undefined, following: boolean, followed: View | null, onStopFollowing: (() => void) | undefined) {
  const { setCenter } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const publish = useThrottled(onView, VIEW_THROTTLE_MS);

  // Applied when the followed view itself changes (not on every presence change of theirs).
  const [fx, fy, fzoom] = followed ? [followed.center.x, followed.center.y, followed.zoom] : [null, null, null];
  useEffect(() => {
    if (fx !== null && fy !== null && fzoom !== null) void setCenter(fx, fy, { zoom: fzoom, duration: 0 });
  }, [fx, fy, fzoom, setCenter]);

  useEffect(() => {
    if (!following || !onStopFollowing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onStopFollowing();
    };
    // Captured: an open tooltip or menu that closes on Escape must not swallow it.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [following, onStopFollowing]);

  const followingRef = useRef(following);
  useEffect(() => {
    followingRef.current = following;
  }, [following]);

  return {
    onMove: (_event: MouseEvent | TouchEvent | null, viewport: Viewport) => {
      if (width && height) publish.call(viewOf(viewport, width, height));
    },
    /** A pan or zoom of the person's own (an input event) stops following. */
    onMoveStart: (event: MouseEvent | TouchEvent | null) => {
      if (event && followingRef.current) onStopFollowing?.();
    },
  };
}
