import { describe, expect, it } from 'vitest';
import { estimateStanding } from './useEstimate.ts';

const answer = { count: 12, sample: [], leftOut: 0 } as never;

describe('estimateStanding', () => {
  it('is updating online while a newer answer is on its way or the shown one is for older conditions', () => {
    expect(estimateStanding({ result: answer, pending: true, current: true, error: null }, false)).toEqual({ updating: true, stale: false });
    expect(estimateStanding({ result: answer, pending: false, current: false, error: null }, false)).toEqual({ updating: true, stale: false });
    expect(estimateStanding({ result: answer, pending: false, current: true, error: null }, false)).toEqual({ updating: false, stale: false });
  });

  it('never says updating offline: an answer for older conditions is stale until the connection returns', () => {
    expect(estimateStanding({ result: answer, pending: false, current: false, error: null }, true)).toEqual({ updating: false, stale: true });
    expect(estimateStanding({ result: answer, pending: true, current: true, error: null }, true)).toEqual({ updating: false, stale: true });
    expect(estimateStanding({ result: answer, pending: false, current: true, error: null }, true)).toEqual({ updating: false, stale: false });
    expect(estimateStanding({ result: null, pending: false, current: false, error: null }, true)).toEqual({ updating: false, stale: false });
  });
});
