import { describe, expect, it } from 'vitest';
import { showsHeaderDateRange } from './headerDateRange.ts';

describe('the header date range control', () => {
  it('is not shown on an open dashboard, whose window sets its days', () => {
    expect(showsHeaderDateRange('/main/dashboards', '?dashboard=4f1d2c3b-0000-4000-8000-000000000001')).toBe(false);
    expect(showsHeaderDateRange('/main/dashboards/', '?from=2026-01-01&to=2026-01-07&dashboard=4f1d2c3b-0000-4000-8000-000000000001')).toBe(false);
  });

  it('is shown on explore and the other range screens, and on the dashboard list', () => {
    expect(showsHeaderDateRange('/behavior/explore', '?event=purchase')).toBe(true);
    expect(showsHeaderDateRange('/behavior/explore', '?dashboard=4f1d2c3b-0000-4000-8000-000000000001')).toBe(true);
    expect(showsHeaderDateRange('/behavior/funnels', '')).toBe(true);
    expect(showsHeaderDateRange('/', '')).toBe(true);
    expect(showsHeaderDateRange('/main/dashboards', '')).toBe(true);
    expect(showsHeaderDateRange('/main/dashboards', '?view=list')).toBe(true);
    expect(showsHeaderDateRange('/main/dashboards', '?dashboard=')).toBe(true);
  });
});
