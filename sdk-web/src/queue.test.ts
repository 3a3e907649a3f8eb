import { describe, expect, it } from 'vitest';
import { batchBody, byteLength, mergeQueues, nextRequest, parseQueue, serializeQueue, trimQueue, type QueueItem } from './queue.ts';

const event = (n: number, properties?: Record<string, string>): QueueItem => ({
  kind: 'event', id: `e${n}`, body: { id: `e${n}`, name: 'tap', time: '2026-05-01T10:00:00.000Z', ...(properties ? { properties } : {}) },
});
const interaction = (n: number): QueueItem => ({ kind: 'interaction', id: `i${n}`, body: { id: `i${n}`, time: '2026-05-01T10:00:00.000Z', channel: 'push', kind: 'open' } });
const identify = (n: number): QueueItem => ({ kind: 'identify', id: `c${n}`, body: { customerId: `customer-${n}` } });
const events = (count: number, from = 0) => Array.from({ length: count }, (_, i) => event(from + i));
const ids = (items: readonly QueueItem[]) => items.map((i) => i.id);

/** Drains a queue the way the tracker does when every request succeeds. */
function split(queue: QueueItem[], maxBatch: number, maxBytes?: number) {
  const requests: { kind: string; ids: string[] }[] = [];
  for (let request = nextRequest(queue, maxBatch, maxBytes); request; request = nextRequest(queue, maxBatch, maxBytes)) {
    requests.push({ kind: request.kind, ids: ids(request.items) });
    queue = queue.slice(request.items.length);
  }
  return requests;
}

describe('queue trimming', () => {
  it('keeps the newest items and answers the oldest ones it dropped', () => {
    const { items, dropped } = trimQueue(events(12), 10);
    expect(ids(items)).toEqual(ids(events(10, 2)));
    expect(ids(dropped)).toEqual(['e0', 'e1']);
  });

  it('leaves a queue within the limit as it is', () => {
    const { items, dropped } = trimQueue(events(10), 10);
    expect(items).toHaveLength(10);
    expect(dropped).toEqual([]);
  });
});

describe('batch splitting', () => {
  it('sends 250 events as batches of 100, 100 and 50 in order', () => {
    const requests = split(events(250), 100);
    expect(requests.map((r) => r.ids.length)).toEqual([100, 100, 50]);
    expect(requests.flatMap((r) => r.ids)).toEqual(ids(events(250)));
  });

  it('keeps events and interactions together, and sends an identify alone at its place in the order', () => {
    const queue = [event(0), interaction(0), event(1), identify(0), event(2), identify(1), identify(2), event(3)];
    expect(split(queue, 100)).toEqual([
      { kind: 'batch', ids: ['e0', 'i0', 'e1'] },
      { kind: 'identify', ids: ['c0'] },
      { kind: 'batch', ids: ['e2'] },
      { kind: 'identify', ids: ['c1'] },
      { kind: 'identify', ids: ['c2'] },
      { kind: 'batch', ids: ['e3'] },
    ]);
  });

  it('stays within a byte budget (keepalive requests), with at least one item per request', () => {
    const big = Array.from({ length: 10 }, (_, i) => event(i, { text: 'x'.repeat(1000) }));
    const size = byteLength(JSON.stringify(big[0]!.body)) + 1;
    const requests = split(big, 100, size * 3);
    expect(requests.map((r) => r.ids.length)).toEqual([3, 3, 3, 1]);
    expect(split(big, 100, 10).map((r) => r.ids.length)).toEqual(Array(10).fill(1));
  });

  it('counts bytes, not characters', () => {
    expect(byteLength('ñ€😀')).toBe(2 + 3 + 4);
  });

  it('an empty queue has no request', () => {
    expect(nextRequest([], 100)).toBeNull();
  });

  it('puts events and interactions of a batch in their own arrays', () => {
    expect(batchBody({ id: 'device-1' }, [event(0) as never, interaction(0) as never])).toEqual({
      device: { id: 'device-1' }, events: [event(0).body], interactions: [interaction(0).body],
    });
    expect(batchBody({ id: 'device-1' }, [event(0) as never])).toEqual({ device: { id: 'device-1' }, events: [event(0).body] });
  });
});

describe('stored queue', () => {
  it('round-trips through its serialised form', () => {
    const queue = [event(0, { plan: 'pro' }), interaction(1), identify(2)];
    expect(parseQueue(serializeQueue(queue))).toEqual(queue);
  });

  it('ignores corrupt values and foreign items', () => {
    expect(parseQueue(null)).toEqual([]);
    expect(parseQueue('not json')).toEqual([]);
    expect(parseQueue(JSON.stringify({ v: 2, items: [event(0)] }))).toEqual([]);
    expect(parseQueue(JSON.stringify({ v: 1, items: [event(0), { kind: 'other', id: 'x', body: {} }, { kind: 'event', id: 3, body: {} }, null] }))).toEqual([event(0)]);
  });

  it('merges with what another tab stored: keeps its items, adds mine, leaves out what I sent', () => {
    const stored = [event(0), event(1), event(7)];
    const mine = [event(1), event(2), event(3)];
    expect(ids(mergeQueues(stored, mine, new Set(['e0', 'e3'])))).toEqual(['e1', 'e7', 'e2']);
    expect(ids(mergeQueues([], mine, new Set()))).toEqual(['e1', 'e2', 'e3']);
  });
});
