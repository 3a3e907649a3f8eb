import { describe, expect, it } from 'vitest';
import { shellTarget } from './preload.ts';
import { SCREEN_LOADERS } from './screens.ts';

describe('shellTarget', () => {
  it('names the route of a signed-in address, in any language, and it has a screen to load', () => {
    expect(shellTarget('/main/dashboards')).toEqual({ kind: 'route', path: '/main/dashboards' });
    expect(shellTarget('/es/behavior/funnels')).toEqual({ kind: 'route', path: '/behavior/funnels' });
    expect(shellTarget('/to/main/reports/')).toEqual({ kind: 'route', path: '/main/reports' });
    for (const path of ['/main/dashboards', '/behavior/funnels', '/main/reports']) expect(SCREEN_LOADERS[path]).toBeTypeOf('function');
  });

  it('is the home for the root, and nothing outside the shell', () => {
    expect(shellTarget('/')).toEqual({ kind: 'home' });
    expect(shellTarget('/es')).toEqual({ kind: 'home' });
    for (const path of ['/login', '/es/register', '/skudo/login', '/legacy', '/no/such/page']) expect(shellTarget(path)).toBeNull();
  });
});
