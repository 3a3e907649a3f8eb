import { describe, expect, it } from 'vitest';
import { MAX_START_ZOOM, MIN_START_ZOOM, initialViewport } from './viewport.ts';

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
