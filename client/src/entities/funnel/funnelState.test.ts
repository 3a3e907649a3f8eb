import { describe, expect, it } from 'vitest';
import { DEFAULT_FUNNEL, funnelQuery, normalize, readFunnelState, writeFunnelState, type FunnelState } from './funnelState.ts';

const range = { startDay: '2026-03-01', endDay: '2026-03-07', timeGroup: 'day' as const };
const built: FunnelState = {
  ...DEFAULT_FUNNEL,
  steps: [{ event: 'view', filters: [{ property: 'plan', op: 'eq', value: 'pro' }] }, { event: 'buy', filters: [{ property: 'price', op: 'gt', value: '10' }] }],
  exclusions: [{ step: { event: 'refund', filters: [] }, afterStep: 1 }],
  breakdown: { kind: 'attribute', field: 'country' },
  attribution: { step: 2 },
};

describe('funnel URL state', () => {
  it('round-trips through the URL and leaves the default out', () => {
    expect(writeFunnelState(DEFAULT_FUNNEL).toString()).toBe('');
    expect(readFunnelState(writeFunnelState(built))).toEqual(built);
  });
  it('falls back to the default for a URL that does not parse', () => {
    expect(readFunnelState(new URLSearchParams('funnel=%7Bnot-json'))).toEqual(DEFAULT_FUNNEL);
    expect(readFunnelState(new URLSearchParams(`funnel=${encodeURIComponent(JSON.stringify({ steps: [] }))}`))).toEqual(DEFAULT_FUNNEL);
  });
  it('builds the query once every step has an event, with numbers for gt/lt', () => {
    expect(funnelQuery(DEFAULT_FUNNEL, range)).toBeNull();
    expect(funnelQuery(built, range)).toMatchObject({
      startDay: '2026-03-01', steps: [{ event: 'view', filters: [{ property: 'plan', op: 'eq', value: 'pro' }] }, { event: 'buy', filters: [{ property: 'price', op: 'gt', value: 10 }] }],
      exclusions: [{ event: { event: 'refund' }, afterStep: 1 }], breakdown: { kind: 'attribute', field: 'country' }, attribution: { step: 2 },
    });
  });
  it('leaves incomplete filters out and waits for a property name or a number', () => {
    const draft: FunnelState = { ...built, steps: [{ event: 'view', filters: [{ property: '', op: 'eq' }] }, { event: 'buy', filters: [] }] };
    expect(funnelQuery(draft, range)?.steps[0]).toEqual({ event: 'view', filters: [] });
    expect(funnelQuery({ ...built, breakdown: { kind: 'property', property: '' } }, range)).toBeNull();
    expect(funnelQuery({ ...built, steps: [{ event: 'v', filters: [{ property: 'p', op: 'gt', value: 'many' }] }, { event: 'b', filters: [] }] }, range)).toBeNull();
  });
  it('drops exclusions and an attribution step that fall outside after a step is removed', () => {
    const three: FunnelState = { ...built, steps: [...built.steps, { event: 'c', filters: [] }], exclusions: [{ step: { event: 'x', filters: [] }, afterStep: 2 }], attribution: { step: 3 } };
    const two = normalize({ ...three, steps: three.steps.slice(0, 2) });
    expect(two.exclusions).toEqual([]);
    expect(two.attribution).toBe('first');
  });
});
