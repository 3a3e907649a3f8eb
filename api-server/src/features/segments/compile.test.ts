/** The compiler alone: parameters only, whitelisted identifiers, every problem listed. */
import { describe, expect, it } from 'vitest';
import { createConditionNode, createGroupNode, type Segment, type SegmentCondition } from '@gd/shared';
import { compileSegment, segmentReferences, type CompileContext } from './compile.ts';

const APP = '11111111-2222-4333-8444-555555555555';
const TAG = '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11';
const AUDIENCE = '9d0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const ctx: CompileContext = { appId: APP, timezone: 'Europe/Madrid', now: new Date('2026-03-15T12:00:00Z'), tags: new Map([[TAG, 'text']]), audiences: new Set([AUDIENCE]) };

function segmentOf(...conditions: Partial<SegmentCondition>[]): Segment {
  const root = createGroupNode('root', 'or');
  const nodes = conditions.map((c, i) => createConditionNode(`c${i + 1}`, c));
  root.children.push(...nodes.map((n) => n.key));
  return { rootKey: 'root', nodes: [root, ...nodes] };
}

describe('compileSegment', () => {
  it('passes every value as a parameter, and every parameter is used', () => {
    const hostile = `'; DROP TABLE people; --`;
    const segment = segmentOf(
      { type: 'attribute', id: 'email', condition: 'equals', input: hostile },
      { type: 'user_event', id: 'buy/plan', condition: 'with_property', tagCondition: 'contains', input: hostile, dateDays: 7 },
      { type: 'user_tag', id: TAG, condition: 'not_equals', multiSelect: [hostile, 'b'] },
      { type: 'filter_campaign', id: 'push', condition: 'sent', input: hostile },
      { type: 'attribute', id: 'last_login', condition: 'was_on', dateRange: { startDay: '2026-03-01', endDay: '2026-03-02' } },
      { type: 'attribute', id: 'audience', condition: 'not_in_audience', input: AUDIENCE },
    );
    const compiled = compileSegment(segment, ctx);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const { sql, params } = compiled.value;
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain('buy');
    expect(sql).not.toContain('2026-03-01');
    expect(sql).not.toContain('Europe/Madrid');
    expect(params.flat()).toContain(hostile);
    expect(params).toContain('Europe/Madrid');
    const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    expect([...used].sort((a, b) => a - b)).toEqual(params.map((_, i) => i + 1));
    expect(sql).toMatch(/^SELECT p\.id FROM people p WHERE p\.app_id = \$1::uuid AND p\.merged_into IS NULL AND \(.* OR .*\)$/s);
  });

  it('adds the time zone and "now" only when a condition needs them', () => {
    const compiled = compileSegment(segmentOf({ type: 'attribute', id: 'country', condition: 'is_set' }), ctx);
    expect(compiled.ok && compiled.value.params).toEqual([APP]);
  });

  it('an empty segment selects the app\'s unmerged people', () => {
    const compiled = compileSegment({ rootKey: 'root', nodes: [createGroupNode('root')] }, ctx);
    expect(compiled.ok && compiled.value.where).toBe('p.app_id = $1::uuid AND p.merged_into IS NULL');
  });

  it('lists every problem with its node, field and audience error name', () => {
    const compiled = compileSegment(segmentOf(
      { type: 'attribute', id: 'country; DROP TABLE people', condition: 'equals', input: 'x' },
      { type: 'user_tag', id: '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d12', condition: 'is_set' },
      { type: 'attribute', id: 'audience', condition: 'in_audience', input: 'not-an-audience' },
      { type: 'user_event', id: 'buy', condition: 'more_than', input: 'several' },
      { type: 'attribute', id: 'country', condition: 'equals' },
    ), ctx);
    expect(compiled.ok ? [] : compiled.problems).toEqual([
      { key: 'c1', path: ['id'], code: 'unknown_target', error: 'AudienceNotValid' },
      { key: 'c2', path: ['id'], code: 'unknown_target', error: 'AudienceNotValid' },
      { key: 'c3', path: ['input'], code: 'audience_not_exist', error: 'AudienceNotExist' },
      { key: 'c4', path: ['input'], code: 'value_invalid', error: 'AudienceNotValid' },
      { key: 'c5', path: ['input'], code: 'value_missing', error: 'AudienceNotValid' },
    ]);
  });

  it('reports structure and section 5 problems before anything else', () => {
    const compiled = compileSegment(segmentOf({ type: 'attribute', id: 'country', condition: 'equals' }), ctx);
    expect(compiled.ok ? [] : compiled.problems).toEqual([{ key: 'c1', path: ['input'], code: 'value_missing', error: 'AudienceNotValid' }]);
    const dangling = compileSegment({ rootKey: 'root', nodes: [{ ...createGroupNode('root'), children: ['ghost'] }] }, ctx);
    expect(dangling.ok ? [] : dangling.problems.map((p) => p.code)).toEqual(['dangling_child']);
  });

  it('refuses an audience that selects by its own members', () => {
    const compiled = compileSegment(segmentOf({ type: 'attribute', id: 'audience', condition: 'in_audience', input: AUDIENCE }), { ...ctx, selfAudienceId: AUDIENCE });
    expect(compiled.ok ? [] : compiled.problems.map((p) => p.code)).toEqual(['self_reference']);
  });

  it('counts more_than / less_than without counting every row', () => {
    const more = compileSegment(segmentOf({ type: 'user_event', id: 'buy', condition: 'more_than', input: 2.5 }), ctx);
    expect(more.ok && more.value.sql).toMatch(/OFFSET \$\d+::bigint/);
    expect(more.ok && more.value.params).toContain(2);
    const never = compileSegment(segmentOf({ type: 'user_event', id: 'buy', condition: 'less_than', input: 0 }), ctx);
    expect(never.ok && never.value.where).toMatch(/AND FALSE$/);
  });
});

describe('segmentReferences', () => {
  it('names the tags and audiences to load (uuids only)', () => {
    const refs = segmentReferences(segmentOf(
      { type: 'user_tag', id: TAG, condition: 'is_set' },
      { type: 'user_tag', id: 'plan', condition: 'is_set' },
      { type: 'attribute', id: 'audience', condition: 'in_audience', multiSelect: [AUDIENCE, 'x'] },
    ));
    expect(refs).toEqual({ tagIds: [TAG], audienceIds: [AUDIENCE] });
  });
});
