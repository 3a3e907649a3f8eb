import { describe, expect, it } from 'vitest';
import { bucketOf, inTestPortion, portionBucketOf } from './plan.ts';

describe('an A/B test\'s test portion', () => {
  const run = '6f1c1f8e-9f5e-4a53-8d7c-2f1f5f6a7b01';
  const people = Array.from({ length: 2000 }, (_, i) => String(1000 + i));

  it('holds about the asked share, and everyone at 100%', () => {
    const inHalf = people.filter((p) => inTestPortion(run, p, 50)).length;
    expect(inHalf).toBeGreaterThan(900);
    expect(inHalf).toBeLessThan(1100);
    const inTenth = people.filter((p) => inTestPortion(run, p, 10)).length;
    expect(inTenth).toBeGreaterThan(150);
    expect(inTenth).toBeLessThan(250);
    expect(people.every((p) => inTestPortion(run, p, 100))).toBe(true);
  });

  it('is a draw apart from the variant\'s: a 50% portion holds both halves of a 50/50 test', () => {
    const portion = people.filter((p) => inTestPortion(run, p, 50));
    const inA = portion.filter((p) => bucketOf(run, p) < 50).length;
    expect(inA / portion.length).toBeGreaterThan(0.4);
    expect(inA / portion.length).toBeLessThan(0.6);
  });

  it('is stable per run and person, and differs between runs', () => {
    expect(people.map((p) => portionBucketOf(run, p))).toEqual(people.map((p) => portionBucketOf(run, p)));
    const other = 'a1a1a1a1-0000-4000-8000-000000000000';
    expect(people.filter((p) => inTestPortion(run, p, 50) !== inTestPortion(other, p, 50)).length).toBeGreaterThan(500);
  });
});
