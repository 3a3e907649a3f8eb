/**
 * The compiler alone over random segments (testing/randomWorld.ts): it refuses exactly what the
 * in-memory evaluator refuses, with the same problems, and a compiled query uses every parameter
 * it passes (Postgres refuses a query with a parameter it does not use, so one left over fails
 * the whole segment). The answers themselves are compared on real Postgres in
 * differential.int.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConditionNode, createGroupNode, evaluateSegment, type SegmentCondition } from '@gd/shared';
import { compileSegment, segmentReferences, type CompileContext } from './compile.ts';
import { AUDIENCE_SLOTS, NOW_FROM, TAG_SLOTS, arbSegment, resolve, type AppSlots } from './testing/randomWorld.ts';

const APP: AppSlots = {
  appId: '11111111-2222-4333-8444-555555555555',
  timezone: 'Asia/Kolkata',
  tags: { text: '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11', number: '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d12', date: '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d13' },
  audiences: { a: '9d0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', b: '9d0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5c' },
};
const ctx: CompileContext = {
  appId: APP.appId, timezone: APP.timezone, now: new Date(NOW_FROM + 3 * 86_400_000),
  tags: new Map(TAG_SLOTS.map((s) => [APP.tags[s], s])), audiences: new Set(AUDIENCE_SLOTS.map((s) => APP.audiences[s])),
};

describe('the compiler over random segments', () => {
  it('refuses what the evaluator refuses, and uses every parameter of what it compiles', () => {
    fc.assert(
      fc.property(arbSegment(ctx.now.getTime()), (raw) => {
        const segment = resolve(APP).segment(raw);
        const compiled = compileSegment(segment, ctx);
        const evaluated = evaluateSegment(segment, [], ctx);
        const problems = (list: readonly { key: string; path: (string | number)[]; code: string; error: string }[]) => list.map((p) => `${p.key} ${p.path.join('.')} ${p.error} ${p.code}`);
        expect(compiled.ok ? [] : problems(compiled.problems)).toEqual(evaluated.ok ? [] : problems(evaluated.problems));
        if (!compiled.ok) return;
        const { sql, params } = compiled.value;
        const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        expect([...used].sort((a, b) => a - b)).toEqual(params.map((_, i) => i + 1));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('found by the property', () => {
  const compile = (condition: Partial<SegmentCondition>) => {
    const root = createGroupNode('root');
    root.children.push('c1');
    return compileSegment({ rootKey: 'root', nodes: [root, createConditionNode('c1', condition)] }, ctx);
  };

  it('a count condition with a constant answer adds no parameter', () => {
    for (const condition of [
      { type: 'inapp_clicks', id: 'm2', condition: 'more_than', input: -2 },
      { type: 'user_event', id: 'buy', condition: 'less_than', input: 0 },
      { type: 'user_event', id: 'buy', condition: 'more_than', input: 1e20 },
    ] as const) {
      const compiled = compile(condition);
      expect(compiled.ok && compiled.value.params).toEqual([APP.appId]);
    }
  });

  it('a greater_than on an event property asks for a number, in the editor as in the compiler', () => {
    const compiled = compile({ type: 'user_event_tag', id: 'buy/amount', condition: 'greater_than', input: 'MADRID' });
    expect(compiled.ok ? [] : compiled.problems.map((p) => p.code)).toEqual(['value_invalid']);
  });

  it('the audience attribute names its audiences whatever the spaces around its id', () => {
    const root = createGroupNode('root');
    root.children.push('c1');
    const segment = { rootKey: 'root', nodes: [root, createConditionNode('c1', { type: 'attribute', id: ' audience ', condition: 'in_audience', input: APP.audiences.a })] };
    expect(segmentReferences(segment).audienceIds).toEqual([APP.audiences.a]);
  });
});
