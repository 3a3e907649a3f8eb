import { describe, expect, it } from 'vitest';
import { emptyKpis, type MessageReportRow } from '@gd/shared/schemas/messageAnalytics';
import { DEFAULT_REPORT_SORT, nextReportSort, sortReportRows } from './reportRows.ts';

const row = (name: string, sents: number, ctr: number | null): MessageReportRow => ({
  messageId: '00000000-0000-4000-8000-000000000000', name, campaignName: 'c', type: 'email', status: 'Finished',
  current: { ...emptyKpis(), sents, ctr }, previous: emptyKpis(),
});

describe('the messages report table', () => {
  const rows = [row('beta', 5, 0.1), row('Alpha', 5, null), row('gamma', 9, 0.3)];
  it('sorts by sends, largest first, then by name', () => {
    expect(sortReportRows(rows, DEFAULT_REPORT_SORT, 'en').map((r) => r.name)).toEqual(['gamma', 'Alpha', 'beta']);
  });
  it('sorts by name A to Z and flips on a second click', () => {
    const byName = nextReportSort(DEFAULT_REPORT_SORT, 'name');
    expect(sortReportRows(rows, byName, 'en').map((r) => r.name)).toEqual(['Alpha', 'beta', 'gamma']);
    expect(sortReportRows(rows, nextReportSort(byName, 'name'), 'en').map((r) => r.name)).toEqual(['gamma', 'beta', 'Alpha']);
  });
  it('puts a missing ctr last either way', () => {
    const up = { column: 'ctr' as const, descending: false };
    expect(sortReportRows(rows, up, 'en').map((r) => r.name)).toEqual(['beta', 'gamma', 'Alpha']);
    expect(sortReportRows(rows, { ...up, descending: true }, 'en').map((r) => r.name)).toEqual(['gamma', 'beta', 'Alpha']);
  });
});
