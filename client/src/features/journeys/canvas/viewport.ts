/**
 * The first view of a journey: the whole journey when it fits at a readable zoom, else the top of
 * it (the entry) at that zoom, centred on the entry. Pure.
 */
export const MIN_START_ZOOM = 0.7;
export const MAX_START_ZOOM = 1;
const PAD = 48;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function initialViewport(bounds: Box, size: { width: number; height: number }, entryCentreX: number | null): { x: number; y: number; zoom: number } {
  const fit = Math.min((size.width - 2 * PAD) / Math.max(1, bounds.width), (size.height - 2 * PAD) / Math.max(1, bounds.height));
  const zoom = Math.min(MAX_START_ZOOM, Math.max(MIN_START_ZOOM, fit));
  const fitsWide = bounds.width * zoom <= size.width - 2 * PAD;
  const fitsTall = bounds.height * zoom <= size.height - 2 * PAD;
  const centreX = fitsWide || entryCentreX === null ? bounds.x + bounds.width / 2 : entryCentreX;
  return {
    x: size.width / 2 - centreX * zoom,
    y: fitsTall ? size.height / 2 - (bounds.y + bounds.height / 2) * zoom : PAD - bounds.y * zoom,
    zoom,
  };
}
