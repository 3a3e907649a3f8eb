import { describe, expect, it } from 'vitest';
import { MAX_START_ZOOM, MINIMAP, MIN_START_ZOOM, fitViewPadding, initialViewport, minimapByDefault, viewInsets } from './viewport.ts';

const size = { width: 900, height: 720 };

describe('initialViewport', () => {
  it('centres a small journey at zoom 1 at most', () => {
    const v = initialViewport({ x: -120, y: 0, width: 240, height: 200 }, size, 0);
    expect(v.zoom).toBe(MAX_START_ZOOM);
    expect(v.x).toBe(450);
    expect(v.y).toBe(360 - 100);
  });

  it('shows the top of a tall journey at a readable zoom, centred on the entry', () => {
    const v = initialViewport({ x: -400, y: 0, width: 1200, height: 3000 }, size, 100);
    expect(v.zoom).toBe(MIN_START_ZOOM);
    expect(v.y).toBe(48);
    expect(v.x).toBe(450 - 100 * MIN_START_ZOOM);
  });

  it('fits a journey that fits between the two zooms', () => {
    const v = initialViewport({ x: 0, y: 0, width: 1000, height: 500 }, size, null);
    expect(v.zoom).toBeCloseTo(804 / 1000, 5);
    expect(v.x).toBeCloseTo(450 - 500 * v.zoom, 5);
  });
});

describe('room for the controls and the overview map', () => {
  it('shows the overview map by itself only on a wide canvas', () => {
    // The canvas at 1280x720 (about 640 px wide) and at 1440x900 (about 770 px wide).
    expect(minimapByDefault(640)).toBe(false);
    expect(minimapByDefault(770)).toBe(true);
  });

  it('keeps the overview map clear when it is shown', () => {
    expect(viewInsets(true).right).toBe(MINIMAP.width + 2 * MINIMAP.margin);
    expect(viewInsets(false).right).toBeLessThan(MINIMAP.width);
    expect(fitViewPadding(viewInsets(true))).toEqual({ top: '48px', right: '190px', bottom: '48px', left: '56px' });
  });

  it('fits and centres a journey in the canvas less the insets, so no step starts under the map', () => {
    const insets = viewInsets(true);
    const bounds = { x: 0, y: 0, width: 800, height: 300 };
    const v = initialViewport(bounds, { width: 900, height: 500 }, null, insets);
    const inner = 900 - insets.left - insets.right;
    expect(v.zoom).toBeCloseTo(inner / 800, 5);
    // The journey's right edge ends where the map's room begins, its left edge after the controls.
    expect(v.x + (bounds.x + bounds.width) * v.zoom).toBeCloseTo(900 - insets.right, 5);
    expect(v.x + bounds.x * v.zoom).toBeCloseTo(insets.left, 5);
  });

  it('centres a wide journey on its entry inside the clear area', () => {
    const insets = viewInsets(true);
    const v = initialViewport({ x: -1000, y: 0, width: 2400, height: 3000 }, { width: 640, height: 360 }, 0, insets);
    expect(v.zoom).toBe(MIN_START_ZOOM);
    expect(v.x).toBeCloseTo(insets.left + (640 - insets.left - insets.right) / 2, 5);
    expect(v.y).toBe(insets.top);
  });
});
