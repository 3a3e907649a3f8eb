import { describe, expect, it } from 'vitest';
import { ROUTES } from '@gd/shared/routes';
import { SCREENS } from './screens.ts';

describe('screens', () => {
  it('has a screen for every route of SPEC section 2, and none for a path that is not a route', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(paths.filter((p) => !SCREENS[p])).toEqual([]);
    expect(Object.keys(SCREENS).filter((p) => !paths.includes(p))).toEqual([]);
  });
});
