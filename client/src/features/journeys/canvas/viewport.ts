/**
 * The first view of a journey: the whole journey when it fits at a readable zoom, else the top of
 * it (the entry) at that zoom, centred on the entry. It is fitted inside the canvas less its insets:
 * the zoom controls on the left and, when shown, the overview map (minimap) on the right, so no
 * step starts hidden under them. The overview map shows by itself only on a wide enough canvas
 * (at 1280x720 it covered steps); the person can show or hide it. Pure.
 */
export const MIN_START_ZOOM = 0.7;
export const MAX_START_ZOOM = 1;
const PAD = 48;
/** The zoom buttons (bottom left): their width, margin and a gap. */
const CONTROLS_ROOM = 56;

/** The overview map (bottom right): its size and its margin from the canvas's edges. */
export const MINIMAP = { width: 160, height: 110, margin: 15 } as const;
/** Below this canvas width the overview map is hidden unless the person shows it. */
export const MINIMAP_MIN_CANVAS_WIDTH = 760;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const minimapByDefault = (canvasWidth: number): boolean => canvasWidth >= MINIMAP_MIN_CANVAS_WIDTH;

/** What fitting the journey keeps clear at each edge of the canvas. */
export function viewInsets(minimapShown: boolean): Insets {
  return { top: PAD, bottom: PAD, left: CONTROLS_ROOM, right: minimapShown ? MINIMAP.width + 2 * MINIMAP.margin : PAD };
}

/** The same insets as React Flow's `fitView` padding. */
export const fitViewPadding = (insets: Insets) => ({
  top: `${insets.top}px`, right: `${insets.right}px`, bottom: `${insets.bottom}px`, left: `${insets.left}px`,
}) as const;

const UNIFORM: Insets = { top: PAD, right: PAD, bottom: PAD, left: PAD };

export function initialViewport(bounds: Box, size: { width: number; height: number }, entryCentreX: number | null, insets: Insets = UNIFORM): { x: number; y: number; zoom: number } {
  const inner = { width: Math.max(1, size.width - insets.left - insets.right), height: Math.max(1, size.height - insets.top - insets.bottom) };
  const fit = Math.min(inner.width / Math.max(1, bounds.width), inner.height / Math.max(1, bounds.height));
  const zoom = Math.min(MAX_START_ZOOM, Math.max(MIN_START_ZOOM, fit));
  const fitsWide = bounds.width * zoom <= inner.width;
  const fitsTall = bounds.height * zoom <= inner.height;
  const centreX = fitsWide || entryCentreX === null ? bounds.x + bounds.width / 2 : entryCentreX;
  return {
    x: insets.left + inner.width / 2 - centreX * zoom,
    y: fitsTall ? insets.top + inner.height / 2 - (bounds.y + bounds.height / 2) * zoom : insets.top - bounds.y * zoom,
    zoom,
  };
}
