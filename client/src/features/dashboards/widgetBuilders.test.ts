import { describe, expect, it } from 'vitest';
import { WIDGET_TITLE_MAX, windowRanges } from '@gd/shared/dashboard/model';
import { CohortQuery } from '@gd/shared/schemas/cohorts';
import { FunnelQuery } from '@gd/shared/schemas/funnels';
import { DEFAULT_DRAFT, buildWidget, defaultTitle, draftProblems, type WidgetDraft } from './widgetBuilders.ts';
import { postRequest } from './widgetQueries.ts';

// 2026-11-25 is a Wednesday.
const week = windowRanges('week', '2026-11-25');
const month = windowRanges('month', '2026-11-25');
const labels = { event: (name: string) => (name === 'gd_install' ? 'Install' : name), metric: (m: string) => (m === 'people' ? 'People' : 'Events'), cohort: 'Cohort' };
const draft = (change: Partial<WidgetDraft>): WidgetDraft => ({ ...DEFAULT_DRAFT, ...change });
const build = (change: Partial<WidgetDraft>) => buildWidget(draft(change), week.current, labels);

describe('the funnel widget of the dialog', () => {
  it('starts with two empty steps, 7 days and in order', () => {
    expect(DEFAULT_DRAFT).toMatchObject({ steps: ['', ''], windowValue: 7, windowUnit: 'day', order: 'sequential' });
  });

  it('is the funnel screen\'s query without its range, titled by its steps', () => {
    const built = build({ kind: 'funnel', steps: ['gd_install', 'view', 'purchase'], windowValue: 2, windowUnit: 'hour', order: 'strict' });
    expect(built).toEqual({
      ok: true,
      widget: {
        kind: 'funnel', title: 'Install → view → purchase',
        query: { steps: [{ event: 'gd_install', filters: [] }, { event: 'view', filters: [] }, { event: 'purchase', filters: [] }], window: { value: 2, unit: 'hour' }, order: 'strict', exclusions: [], attribution: 'first' },
      },
    });
    // It runs over any window: the dashboard supplies the range.
    const request = built.ok ? postRequest('funnel', built.widget.query, month) : null;
    expect(request).toMatchObject({ ok: true, body: { startDay: '2026-11-01', endDay: '2026-11-25', compare: false } });
    expect(FunnelQuery.safeParse(request?.ok ? request.body : null).success).toBe(true);
  });

  it('keeps a repeated event, and a typed title over the default', () => {
    const built = build({ kind: 'funnel', steps: ['view', 'view'], title: '  Two views  ' });
    expect(built.ok && built.widget).toMatchObject({ title: 'Two views', query: { steps: [{ event: 'view' }, { event: 'view' }], window: { value: 7, unit: 'day' } } });
  });

  it('needs every step chosen, 2 to 20 steps and a window of at most 90 days', () => {
    expect(draftProblems(draft({ kind: 'funnel', steps: ['view', ''] }))).toEqual([{ path: 'steps.1', code: 'choose' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps: ['view'] }))).toEqual([{ path: 'steps', code: 'stepCount' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps: Array.from({ length: 21 }, () => 'view') }))).toEqual([{ path: 'steps', code: 'stepCount' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps: Array.from({ length: 20 }, () => 'view') }))).toEqual([]);
    const steps = ['a', 'b'];
    expect(draftProblems(draft({ kind: 'funnel', steps, windowValue: 90, windowUnit: 'day' }))).toEqual([]);
    expect(draftProblems(draft({ kind: 'funnel', steps, windowValue: 91, windowUnit: 'day' }))).toEqual([{ path: 'windowValue', code: 'windowTooLong' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps, windowValue: 2161, windowUnit: 'hour' }))).toEqual([{ path: 'windowValue', code: 'windowTooLong' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps, windowValue: 0 }))).toEqual([{ path: 'windowValue', code: 'windowInvalid' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps, windowValue: 1.5 }))).toEqual([{ path: 'windowValue', code: 'windowInvalid' }]);
    expect(draftProblems(draft({ kind: 'funnel', steps, windowValue: '' }))).toEqual([{ path: 'windowValue', code: 'required' }]);
    const refused = build({ kind: 'funnel', steps: ['view', ''] });
    expect(refused).toMatchObject({ ok: false, problems: [{ path: 'steps.1', code: 'choose' }] });
  });
});

describe('the retention widget of the dialog', () => {
  it('is the cohort screen\'s query without its range: any event by default, a week per period', () => {
    const built = build({ kind: 'cohort', start: 'gd_install' });
    expect(built).toEqual({
      ok: true,
      widget: { kind: 'cohort', title: 'Cohort: Install', query: { start: { event: 'gd_install', filters: [] }, return: null, mode: 'first', period: 'week', returnOn: 'on' } },
    });
    const request = built.ok ? postRequest('cohort', built.widget.query, week) : null;
    expect(request).toMatchObject({ ok: true, body: { startDay: '2026-11-23', endDay: '2026-11-25' } });
    expect(CohortQuery.safeParse(request?.ok ? request.body : null).success).toBe(true);
  });

  it('takes a return event and a period', () => {
    const built = build({ kind: 'cohort', start: 'register', returnEvent: 'purchase', period: 'month' });
    expect(built.ok && built.widget.query).toEqual({ start: { event: 'register', filters: [] }, return: { event: 'purchase', filters: [] }, mode: 'first', period: 'month', returnOn: 'on' });
  });

  it('needs a start event', () => {
    expect(draftProblems(draft({ kind: 'cohort' }))).toEqual([{ path: 'start', code: 'choose' }]);
    expect(build({ kind: 'cohort', returnEvent: 'purchase' }).ok).toBe(false);
  });
});

describe('key figures and charts of the dialog', () => {
  it('build as before: an event\'s metric, a chart with its breakdown and property', () => {
    expect(build({ kind: 'kpi', event: 'purchase', metric: 'people' })).toEqual({ ok: true, widget: { kind: 'kpi', title: 'purchase · People', query: { event: 'purchase', metric: 'people' } } });
    expect(build({ kind: 'explore', event: 'purchase', breakdown: 'property', property: ' plan ' })).toEqual({
      ok: true, widget: { kind: 'explore', title: 'purchase · Events', query: { event: 'purchase', metric: 'events', breakdown: 'property', property: 'plan' } },
    });
    expect(build({ kind: 'explore', event: 'purchase', breakdown: 'country', property: 'ignored' })).toMatchObject({ ok: true, widget: { query: { event: 'purchase', metric: 'events', breakdown: 'country' } } });
  });

  it('need an event, and a property for a property breakdown', () => {
    expect(draftProblems(draft({ kind: 'kpi' }))).toEqual([{ path: 'event', code: 'choose' }]);
    expect(draftProblems(draft({ kind: 'explore', event: 'purchase', breakdown: 'property' }))).toEqual([{ path: 'property', code: 'required' }]);
  });
});

describe('default titles', () => {
  it('follow the screens\' "Add to dashboard" and fit a widget title', () => {
    expect(defaultTitle(draft({ kind: 'funnel', steps: ['gd_install', ''] }), labels)).toBe('Install → …');
    expect(defaultTitle(draft({ kind: 'cohort', start: 'gd_install' }), labels)).toBe('Cohort: Install');
    const long = defaultTitle(draft({ kind: 'funnel', steps: Array.from({ length: 20 }, (_, i) => `a_rather_long_event_name_${i}`) }), labels);
    expect(long).toHaveLength(WIDGET_TITLE_MAX);
    expect(build({ kind: 'funnel', steps: Array.from({ length: 20 }, (_, i) => `a_rather_long_event_name_${i}`) }).ok).toBe(true);
  });
});
