import { describe, expect, it } from 'vitest';
import { appSwitchTarget, keepPathOnSwitch } from './appSwitch.ts';

describe('app switch target', () => {
  it('keeps user screens and analytics routes', () => {
    expect(keepPathOnSwitch('/user/account/test-devices')).toBe(true);
    expect(keepPathOnSwitch('/user/app')).toBe(true);
    expect(keepPathOnSwitch('/behavior/funnels')).toBe(true);
    expect(keepPathOnSwitch('/main/dashboards')).toBe(true);
    expect(keepPathOnSwitch('/communication/journeys')).toBe(true);
  });

  it('goes to the root for other areas and unknown paths', () => {
    expect(keepPathOnSwitch('/manage/tags')).toBe(false);
    expect(keepPathOnSwitch('/admin/roles')).toBe(false);
    expect(keepPathOnSwitch('/products/wallet')).toBe(false);
    expect(keepPathOnSwitch('/communication/journeys/123')).toBe(false);
  });

  it('keeps the language segment', () => {
    expect(appSwitchTarget('/user/app', '/es')).toBe('/es/user/app');
    expect(appSwitchTarget('/manage/tags', '/es')).toBe('/es/');
    expect(appSwitchTarget('/manage/tags', '/')).toBe('/');
    expect(appSwitchTarget('/behavior/people', '/')).toBe('/behavior/people');
  });

  it('keeps the date range of the URL and drops the rest (it may name the previous app\'s items)', () => {
    expect(appSwitchTarget('/behavior/explore', '/', '?event=purchase&range=last30&group=week')).toBe('/behavior/explore?range=last30&group=week');
    expect(appSwitchTarget('/manage/tags', '/es', '?from=2026-11-01&to=2026-11-20&tag=1')).toBe('/es/?from=2026-11-01&to=2026-11-20');
    expect(appSwitchTarget('/communication/journeys', '/', '?id=abc')).toBe('/communication/journeys');
  });
});
