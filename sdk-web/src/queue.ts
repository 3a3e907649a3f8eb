/**
 * The queue's items and the pure operations on it: trimming to the size limit, picking the next
 * request, and merging this page's queue with the stored one (several tabs of one site share it).
 *
 * Items keep their order. Events and interactions travel together in batches; an identify or a
 * profile update is its own request, sent when it reaches the head of the queue, so a profile
 * change is applied after the events tracked before it.
 */
import type { IdentifyRequest, IngestEvent, IngestInteraction, ProfileRequest } from '@gd/shared';

export type QueueItem =
  | { kind: 'event'; id: string; body: IngestEvent }
  | { kind: 'interaction'; id: string; body: IngestInteraction }
  | { kind: 'identify'; id: string; body: Omit<IdentifyRequest, 'device'> }
  | { kind: 'profile'; id: string; body: Omit<ProfileRequest, 'device'> };

export type BatchItem = Extract<QueueItem, { kind: 'event' | 'interaction' }>;

export type NextRequest =
  | { kind: 'batch'; items: BatchItem[] }
  | { kind: 'identify' | 'profile'; items: [QueueItem] };

const isBatchItem = (item: QueueItem): item is BatchItem => item.kind === 'event' || item.kind === 'interaction';

/** Keeps the newest `max` items; answers them and the oldest ones dropped. */
export function trimQueue(items: QueueItem[], max: number): { items: QueueItem[]; dropped: QueueItem[] } {
  const cut = Math.max(0, items.length - max);
  return { items: items.slice(cut), dropped: items.slice(0, cut) };
}

/** UTF-8 size of a string (request bodies are limited in bytes). */
export const byteLength = (text: string): number => new TextEncoder().encode(text).length;

/**
 * The request for the head of the queue: a batch of up to `maxBatch` leading events and
 * interactions whose JSON stays within `maxBytes` (at least one item), or a lone identify/profile.
 */
export function nextRequest(items: readonly QueueItem[], maxBatch: number, maxBytes = Infinity): NextRequest | null {
  const head = items[0];
  if (!head) return null;
  if (!isBatchItem(head)) return { kind: head.kind, items: [head] };
  const batch: BatchItem[] = [];
  let bytes = 0;
  for (const item of items) {
    if (!isBatchItem(item) || batch.length >= maxBatch) break;
    if (maxBytes !== Infinity) {
      bytes += byteLength(JSON.stringify(item.body)) + 1;
      if (batch.length > 0 && bytes > maxBytes) break;
    }
    batch.push(item);
  }
  return { kind: 'batch', items: batch };
}

/** The JSON body of a batch request. */
export function batchBody(device: object, items: readonly BatchItem[]): { device: object; events: IngestEvent[]; interactions?: IngestInteraction[] } {
  const events: IngestEvent[] = [], interactions: IngestInteraction[] = [];
  for (const item of items) {
    if (item.kind === 'event') events.push(item.body);
    else interactions.push(item.body);
  }
  return interactions.length ? { device, events, interactions } : { device, events };
}

/**
 * What to store: the stored queue (which other tabs may have added to) without the items this
 * page removed since its last write (sent or dropped), followed by this page's items that are not
 * stored yet. An item two tabs both hold may be sent twice; its id makes the second a duplicate.
 */
export function mergeQueues(stored: readonly QueueItem[], mine: readonly QueueItem[], removed: ReadonlySet<string>): QueueItem[] {
  const kept = stored.filter((item) => !removed.has(item.id));
  const present = new Set(kept.map((item) => item.id));
  return [...kept, ...mine.filter((item) => !present.has(item.id) && !removed.has(item.id))];
}

const KINDS = new Set(['event', 'interaction', 'identify', 'profile']);

/** Reads a stored queue, ignoring anything that is not a queue item (a corrupt or foreign value). */
export function parseQueue(raw: string | null): QueueItem[] {
  if (!raw) return [];
  try {
    const value = JSON.parse(raw) as { v?: unknown; items?: unknown };
    if (value.v !== 1 || !Array.isArray(value.items)) return [];
    return (value.items as Partial<QueueItem>[]).filter(
      (item): item is QueueItem => typeof item?.id === 'string' && KINDS.has(item.kind ?? '') && typeof item.body === 'object' && item.body !== null,
    );
  } catch {
    return [];
  }
}

export const serializeQueue = (items: readonly QueueItem[]): string => JSON.stringify({ v: 1, items });
