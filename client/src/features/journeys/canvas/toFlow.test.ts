import { describe, expect, it } from 'vitest';
import { outEdges } from '@gd/shared/journey/graph';
import { createStep, type Journey } from '@gd/shared/journey/model';
import { fullJourney, journey, linked, mk } from '@gd/shared/journey/testing';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { addableTypes, handleIdFor, linkOfEdge, markOf, pathIndexOfHandle, pathLabel, toFlow } from './toFlow.ts';
import type { PeerPresence } from './types.ts';

const base = { layout: {}, violations: [], peers: [], selectedStepId: null, readOnly: false };

describe('handle ids', () => {
  it('round-trip path indexes', () => {
    for (const i of [null, 0, 1, 12]) expect(pathIndexOfHandle(handleIdFor(i))).toBe(i);
    expect(pathIndexOfHandle('in')).toBeUndefined();
    expect(pathIndexOfHandle(null)).toBeUndefined();
    expect(pathIndexOfHandle('path-x')).toBeUndefined();
  });
});

describe('toFlow', () => {
  const j = fullJourney();

  it('draws one node per step, typed by category, and one edge per link', () => {
    const { nodes, edges } = toFlow({ ...base, journey: j });
    expect(nodes.map((n) => n.id)).toEqual(j.steps.map((s) => s.id));
    expect(nodes.find((n) => n.id === 's')?.type).toBe('source');
    expect(nodes.find((n) => n.id === 'push')?.type).toBe('action');
    expect(nodes.find((n) => n.id === 'tag')?.type).toBe('update');
    expect(nodes.find((n) => n.id === 'w')?.type).toBe('flow');
    expect(nodes.filter((n) => n.type === 'end').every((n) => n.data.step.type === 'end')).toBe(true);
    const links = j.steps.flatMap((s) => outEdges(s)).filter((e) => e.to !== null);
    expect(edges).toHaveLength(links.length);
    expect(edges.map(linkOfEdge)).toEqual(links.map((e) => ({ from: e.from, pathIndex: e.pathIndex, to: e.to })));
  });

  it('gives each node one outlet per link and a position', () => {
    const { nodes } = toFlow({ ...base, journey: j });
    const int = nodes.find((n) => n.id === 'int');
    expect(int?.data.outlets).toEqual([
      { handleId: 'path-0', pathIndex: 0 },
      { handleId: 'path-1', pathIndex: 1 },
    ]);
    expect(nodes.find((n) => n.id === 'w')?.data.outlets).toEqual([{ handleId: 'next', pathIndex: null }]);
    expect(nodes.every((n) => Number.isFinite(n.position.x) && Number.isFinite(n.position.y))).toBe(true);
    expect(nodes.find((n) => n.id === 's')?.data.isEntry).toBe(true);
  });

  it('uses stored positions', () => {
    const { nodes } = toFlow({ ...base, journey: j, layout: { push: { x: 900, y: 33 } } });
    expect(nodes.find((n) => n.id === 'push')?.position).toEqual({ x: 900, y: 33 });
  });

  it('attaches violations, peers and selection to their steps', () => {
    const violations: JourneyViolation[] = [
      { stepId: 'w', path: ['duration'], code: 'wait_duration_missing' },
      { stepId: 'w', path: [], code: 'unreachable' },
      { stepId: null, path: [], code: 'entry_missing' },
    ];
    const peers: PeerPresence[] = [
      { clientId: 1, name: 'Ana', color: '#e03131', selectedStepId: 'w', pointer: null },
      { clientId: 2, name: 'Bo', color: '#1971c2', selectedStepId: null, pointer: { x: 1, y: 2 } },
    ];
    const { nodes } = toFlow({ ...base, journey: j, violations, peers, selectedStepId: 'w', describe: (s, n) => `${s.id}:${n}` });
    const w = nodes.find((n) => n.id === 'w');
    expect(w?.data.violations.map((v) => v.code)).toEqual(['wait_duration_missing', 'unreachable']);
    expect(w?.data.peers).toEqual([{ name: 'Ana', color: '#e03131' }]);
    expect(w?.selected).toBe(true);
    expect(w?.ariaLabel).toBe('w:2');
    expect(nodes.filter((n) => n.selected)).toHaveLength(1);
    expect(nodes.find((n) => n.id === 's')?.data.violations).toEqual([]);
  });

  it('makes nothing draggable or connectable and offers no insertion when read-only', () => {
    const { nodes, edges } = toFlow({ ...base, journey: j, readOnly: true });
    expect(nodes.every((n) => n.draggable === false && n.connectable === false && n.data.readOnly)).toBe(true);
    expect(edges.every((e) => e.data?.addable.length === 0)).toBe(true);
  });

  it('marks links to automatic steps and offers non-source types on each link', () => {
    const { edges } = toFlow({ ...base, journey: j });
    const toAutoEnd = edges.find((e) => e.source === 'email');
    expect(toAutoEnd?.data?.auto).toBe(true);
    expect(toAutoEnd?.data?.addable).toContain('end');
    const inner = edges.find((e) => e.source === 's');
    expect(inner?.data?.auto).toBe(false);
    expect(inner?.data?.addable).toContain('flowWait');
    expect(inner?.data?.addable).not.toContain('end');
    expect(inner?.data?.addable).not.toContain('sourceAudience');
  });
});

describe('pathLabel', () => {
  it('prefers the path name, then describes the path by step type', () => {
    const j = fullJourney();
    const step = (id: string) => j.steps.find((s) => s.id === id) ?? createStep('end', id);
    expect(pathLabel(step('int'), 0)).toEqual({ kind: 'action', action: 'click' });
    expect(pathLabel(step('int'), 1)).toEqual({ kind: 'otherwise' });
    expect(pathLabel(step('ev'), 0)).toEqual({ kind: 'event', eventId: 'e2' });
    expect(pathLabel(step('split'), 0)).toEqual({ kind: 'segment', index: 1 });
    expect(pathLabel(step('rnd'), 1)).toEqual({ kind: 'percent', value: 50 });
    expect(pathLabel(step('wi'), 1)).toEqual({ kind: 'timeout', seconds: 600 });
    expect(pathLabel(step('w'), 0)).toEqual({ kind: 'none' });
    const named = { ...mk('flowRandom', 'r'), paths: [{ id: 'a', name: ' Control ', next: null, amount: 0.2 }] };
    expect(pathLabel(named, 0)).toEqual({ kind: 'name', text: 'Control' });
  });

  it('turns random weights into shares', () => {
    const r = { ...mk('flowRandom', 'r'), paths: [0.2, 0.6, 0.2].map((amount, i) => ({ id: `p${i}`, name: '', next: null, amount })) };
    expect(r.paths.map((_, i) => pathLabel(r, i))).toEqual([20, 60, 20].map((value) => ({ kind: 'percent', value })));
  });
});

describe('addableTypes', () => {
  it('follows canAddAfter: no sources, and no link from a missing step', () => {
    const j: Journey = journey('s', linked('sourceEvents', 's', 'e'), createStep('end', 'e'));
    expect(addableTypes(j, 's', null, createStep('end', 'e'))).not.toContain('sourceEvents');
    expect(addableTypes(j, 'missing', null, undefined)).toEqual([]);
  });
});

describe('run marks and counts on nodes', () => {
  it('marks the focused step, the path, and dims the rest', () => {
    expect(markOf('a', null)).toBeNull();
    expect(markOf('a', { path: null, focus: 'b' })).toBeNull();
    expect(markOf('b', { path: null, focus: 'b' })).toBe('focus');
    expect(markOf('a', { path: ['a'], focus: null })).toBe('path');
    expect(markOf('c', { path: ['a'], focus: null })).toBe('dim');
    expect(markOf('a', { path: ['a'], focus: 'a' })).toBe('focus');
  });

  it('puts the version counts on the steps that have them, with the version counted', () => {
    const j = fullJourney();
    const [first, second] = j.steps;
    const counts = { [first!.id]: { now: 2, total: 5, conversions: 1 } };
    const { nodes } = toFlow({ ...base, journey: j, counts, countsVersion: 3, marks: { path: [first!.id], focus: null } });
    expect(nodes.find((n) => n.id === first!.id)?.data.count).toEqual({ now: 2, total: 5, conversions: 1, version: 3 });
    expect(nodes.find((n) => n.id === second!.id)?.data.count).toBeNull();
    expect(nodes.find((n) => n.id === first!.id)?.data.mark).toBe('path');
    expect(nodes.find((n) => n.id === second!.id)?.data.mark).toBe('dim');
    expect(toFlow({ ...base, journey: j, counts }).nodes.every((n) => n.data.count === null && n.data.mark === null)).toBe(true);
  });
});
