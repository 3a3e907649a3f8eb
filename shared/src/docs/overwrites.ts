/**
 * Which of this replica's writes another person's concurrent change replaced. Yjs resolves two
 * concurrent writes to one map key silently (the higher client id wins), and a change that
 * removes a map loses every write made inside it concurrently; the person whose value lost is
 * never told. `watchOverwrites` tells them.
 *
 * How: every local write to a map key is remembered with its Yjs item. When a remote transaction
 * changes a remembered key, the new item's `origin` says which value its writer saw there (a
 * Y.Map write is an item whose origin is the item it replaced). Walking that chain of origins back,
 * reaching our item means they saw our value and changed it on purpose: not a conflict. Not
 * reaching it means they had not seen it: a concurrent overwrite, reported. A remembered key whose
 * map was deleted by a remote transaction is reported as `removed`. Each write is reported at most
 * once and forgotten after the first remote change to its key.
 *
 * Cost: a transaction is looked at only where it changed something (its changed keys, the types it
 * removed); the writes pointing at something are checked again only when a type was removed.
 *
 * Only the replica whose value lost learns of it, so whatever it does about it (re-linking a cut-off
 * step, offering its value back) happens on exactly one replica.
 */
import * as Y from 'yjs';

export interface Overwrite {
  /** The map whose key was overwritten (deleted when `removed`). */
  map: Y.Map<unknown>;
  key: string;
  /** What this replica had written there. */
  mine: unknown;
  /** The value that replaced it (undefined when deleted or when the map was removed). */
  theirs: unknown;
  /** The Yjs client id of the writer that replaced it; null when the map was removed. */
  byClient: number | null;
  /** The map itself was removed by a concurrent change. */
  removed: boolean;
  /** What the watcher's `context` said about the write when it was made. */
  context: unknown;
  /** Our value still holds, but what it points at was removed by a concurrent change. */
  dangling: boolean;
}

export interface WatchOptions {
  /** Which writes to watch (all by default). */
  track?: (map: Y.Map<unknown>, key: string) => boolean;
  /**
   * Something to keep with a write, read from the document right after the transaction `tr` that
   * made it (called once per write; what several writes of one transaction share can be kept per `tr`).
   */
  context?: (map: Y.Map<unknown>, key: string, value: unknown, tr: Y.Transaction) => unknown;
  /**
   * For writes that point at something else in the document (a link to a step): whether what it
   * points at is still there. Checked when a remote transaction arrives after a type was removed;
   * a write of ours that still holds but points at something removed is reported (`dangling`).
   */
  pointsAtLive?: (map: Y.Map<unknown>, key: string, value: unknown) => boolean | null;
}

interface Written {
  client: number;
  clock: number;
  value: unknown;
  context: unknown;
  /** `pointsAtLive` applies to this write. */
  pointer: boolean;
}

/** Origins walked back at most (a key rewritten this often since our write is not a conflict we can show). */
const MAX_ORIGIN_WALK = 2_000;
/** Remembered writes at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 20_000;

/** What is read of any shared type: the item that holds it (null for a root). */
type YType = { _item: Y.Item | null };

const plainValue = (v: unknown): unknown => (v instanceof Y.AbstractType ? v.toJSON() : v);

type MapItem = { id: Y.ID; origin: Y.ID | null; deleted: boolean; length: number };
const mapItems = (map: Y.Map<unknown>): Map<string, MapItem> => (map as unknown as { _map: Map<string, MapItem> })._map;

/** Whether the writer of `current` had seen the item `mine` (its origin chain reaches it). */
function sawMine(doc: Y.Doc, current: MapItem, mine: Written): boolean {
  let origin = current.origin;
  for (let i = 0; origin && i < MAX_ORIGIN_WALK; i++) {
    if (origin.client === mine.client && origin.clock >= mine.clock) return true;
    let item: unknown;
    try {
      item = Y.getItem(doc.store, origin);
    } catch {
      return false;
    }
    origin = item instanceof Y.Item ? item.origin : null;
  }
  return false;
}

/**
 * Calls `onOverwrite` after every remote transaction that replaced writes of ours, for the maps
 * `track` accepts. Returns the function that stops watching.
 */
export function watchOverwrites(doc: Y.Doc, onOverwrite: (overwrites: Overwrite[]) => void, options: WatchOptions = {}): () => void {
  const track = options.track ?? (() => true);
  const context = options.context ?? (() => undefined);
  const pointsAtLive = options.pointsAtLive ?? (() => null);
  const written = new Map<Y.Map<unknown>, Map<string, Written>>();
  /** The remembered writes that point at something (checked when a transaction removes a type). */
  const pointers = new Map<Written, { map: Y.Map<unknown>; key: string }>();
  let count = 0;
  /** A type was removed since the pointing writes were last checked. */
  let pointersToCheck = false;

  const forgetMap = (map: Y.Map<unknown>) => {
    const entries = written.get(map);
    if (!entries) return;
    for (const entry of entries.values()) pointers.delete(entry);
    count -= entries.size;
    written.delete(map);
  };

  const remember = (map: Y.Map<unknown>, key: string, entry: Written | null) => {
    let keys = written.get(map);
    const previous = keys?.get(key);
    if (previous) pointers.delete(previous);
    if (entry === null) {
      if (keys?.delete(key)) count--;
      if (keys && keys.size === 0) written.delete(map);
      return;
    }
    if (!keys) written.set(map, (keys = new Map<string, Written>()));
    if (!previous) count++;
    keys.set(key, entry);
    if (entry.pointer) pointers.set(entry, { map, key });
    if (count > MAX_REMEMBERED) {
      const [oldest] = written.keys();
      if (oldest) forgetMap(oldest);
    }
  };

  /** The types this transaction removed (a removed type's contents are removed with it). */
  const removedTypes = (tr: Y.Transaction): Set<unknown> => {
    const removed = new Set<unknown>();
    if (tr.deleteSet.clients.size === 0) return removed;
    Y.iterateDeletedStructs(tr, tr.deleteSet, (struct) => {
      if (struct instanceof Y.Item && struct.content instanceof Y.ContentType) removed.add(struct.content.type);
    });
    return removed;
  };

  const recordLocal = (tr: Y.Transaction) => {
    const createdHere = (type: YType) =>
      type._item !== null && type._item.id.clock >= (tr.beforeState.get(type._item.id.client) ?? 0);
    const recordKey = (map: Y.Map<unknown>, key: string) => {
      const value = map.get(key);
      // Yjs lists no changes inside a type made in the same transaction: walk it.
      if (value instanceof Y.AbstractType && createdHere(value)) recordNew(value);
      if (!track(map, key)) return;
      const item = mapItems(map).get(key);
      if (item && !item.deleted && item.id.client === doc.clientID) {
        const plain = plainValue(value);
        const pointer = pointsAtLive(map, key, plain) !== null;
        remember(map, key, { client: item.id.client, clock: item.id.clock, value: plain, context: context(map, key, plain, tr), pointer });
      } else remember(map, key, null);
    };
    const recordNew = (type: YType) => {
      if (type instanceof Y.Map) for (const key of [...type.keys()]) recordKey(type as Y.Map<unknown>, key);
      else if (type instanceof Y.Array) for (const v of type.toArray()) if (v instanceof Y.AbstractType && createdHere(v)) recordNew(v);
    };
    for (const [type, keys] of tr.changed) {
      if (type instanceof Y.Map) {
        for (const key of keys) if (key !== null) recordKey(type as Y.Map<unknown>, key);
      } else if (type instanceof Y.Array) recordNew(type);
    }
    // Maps this replica removed itself: nothing of ours in them can be lost to someone else. Our
    // own links into them are looked at with the next remote change (it may be what cut them).
    const removed = removedTypes(tr);
    for (const type of removed) if (type instanceof Y.Map) forgetMap(type as Y.Map<unknown>);
    if (removed.size > 0) pointersToCheck = true;
  };

  const checkRemote = (tr: Y.Transaction) => {
    const found: Overwrite[] = [];
    for (const [type, keys] of tr.changed) {
      const entries = type instanceof Y.Map ? written.get(type as Y.Map<unknown>) : undefined;
      if (!entries) continue;
      const map = type as unknown as Y.Map<unknown>;
      for (const key of keys) {
        const mine = key === null ? undefined : entries.get(key);
        if (!mine || key === null) continue;
        const current = mapItems(map).get(key);
        if (!current || (current.id.client === mine.client && current.id.clock === mine.clock)) continue;
        remember(map, key, null);
        if (current.id.client === doc.clientID || sawMine(doc, current, mine)) continue;
        found.push({ map, key, mine: mine.value, theirs: current.deleted ? undefined : plainValue(map.get(key)), byClient: current.id.client, removed: false, context: mine.context, dangling: false });
      }
    }
    const removed = removedTypes(tr);
    if (removed.size > 0 || pointersToCheck) {
      pointersToCheck = false;
      // Maps removed by this transaction, with writes of ours inside.
      for (const type of removed) {
        const entries = type instanceof Y.Map ? written.get(type as Y.Map<unknown>) : undefined;
        if (!entries) continue;
        const map = type as Y.Map<unknown>;
        for (const [key, mine] of entries) found.push({ map, key, mine: mine.value, theirs: undefined, byClient: null, removed: true, context: mine.context, dangling: false });
        forgetMap(map);
      }
      // Writes of ours that hold but point at something removed.
      for (const [mine, { map, key }] of [...pointers]) {
        if (pointsAtLive(map, key, mine.value) !== false) continue;
        remember(map, key, null);
        found.push({ map, key, mine: mine.value, theirs: mine.value, byClient: null, removed: false, context: mine.context, dangling: true });
      }
    }
    if (found.length > 0) onOverwrite(found);
  };

  const onAfterTransaction = (tr: Y.Transaction) => {
    if (tr.local) recordLocal(tr);
    else if (written.size > 0) checkRemote(tr);
  };

  doc.on('afterTransaction', onAfterTransaction);
  return () => doc.off('afterTransaction', onAfterTransaction);
}
