import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '@gd/shared';
import { mergeAttention } from './items.ts';
import { singleCurrency } from './routes.ts';

const A1 = '00000000-0000-4000-8000-000000000001';
const A2 = '00000000-0000-4000-8000-000000000002';
const J1 = '00000000-0000-4000-8000-0000000000a1';
const J2 = '00000000-0000-4000-8000-0000000000a2';
const T1 = '00000000-0000-4000-8000-0000000000b1';

const edits = (journeyId: string, editedAt: string): AttentionItem => ({ type: 'journey_unlaunched_edits', journeyId, name: journeyId, version: 1, editedAt });
const problems = (journeyId: string): AttentionItem => ({ type: 'journey_problems', journeyId, name: journeyId, version: 2, problems: [{ stepId: 's', path: 'audienceId', code: 'audience_not_found' }] });
const audience = (audienceId: string, at: string): AttentionItem => ({ type: 'audience_error', audienceId, name: audienceId, errorName: 'AudienceNotExist', errorMessage: null, at });
const failedImport = (audienceId: string | null, at: string): AttentionItem => ({ type: 'import_failed', taskId: T1, name: 'import', audienceId, errorName: 'CsvSyntaxError', errorMessage: null, at });

describe('needs attention', () => {
  it('puts the most serious kind first and the latest first within a kind', () => {
    const merged = mergeAttention([
      edits(J1, '2026-01-01T00:00:00Z'), edits(J2, '2026-01-03T00:00:00Z'), audience(A1, '2026-01-01T00:00:00Z'),
      failedImport(null, '2026-01-02T00:00:00Z'), audience(A2, '2026-01-05T00:00:00Z'), problems(J2), problems(J1),
    ], 50);
    expect(merged.map((i) => [i.type, 'journeyId' in i ? i.journeyId : 'audienceId' in i ? i.audienceId : null])).toEqual([
      ['journey_problems', J2], ['journey_problems', J1],
      ['audience_error', A2], ['audience_error', A1],
      ['import_failed', null],
      ['journey_unlaunched_edits', J2], ['journey_unlaunched_edits', J1],
    ]);
  });

  it('tells an audience failed by a listed import once, by the import', () => {
    const merged = mergeAttention([audience(A1, '2026-01-01T00:00:00Z'), audience(A2, '2026-01-01T00:00:00Z'), failedImport(A1, '2026-01-01T00:00:00Z')], 50);
    expect(merged.map((i) => i.type)).toEqual(['audience_error', 'import_failed']);
    expect(merged[0]).toMatchObject({ audienceId: A2 });
  });

  it('keeps at most the given number of items, the most serious ones', () => {
    const merged = mergeAttention([edits(J1, '2026-01-01T00:00:00Z'), problems(J2), audience(A1, '2026-01-01T00:00:00Z')], 2);
    expect(merged.map((i) => i.type)).toEqual(['journey_problems', 'audience_error']);
    expect(mergeAttention([], 5)).toEqual([]);
  });
});

describe('the revenue currency', () => {
  it('is the one currency every revenue event named, else none', () => {
    expect(singleCurrency(['EUR'])).toBe('EUR');
    expect(singleCurrency([])).toBeNull();
    expect(singleCurrency(['EUR', 'USD'])).toBeNull();
    expect(singleCurrency([null])).toBeNull();
    expect(singleCurrency(['EUR', null])).toBeNull();
  });
});
