/**
 * The read side and the repair guard shared by the collaborative editors (journeys, segments).
 *
 * - `useDocView`: the document read into an immutable view on every change under the roots the
 *   editor shows (useSyncExternalStore), so React renders one consistent snapshot per change.
 * - `repairAllowed`: a writer whose merged document breaks the editing rules writes the normal form
 *   back (REPAIR_ORIGIN); a repair that does not settle must not loop, so at most a few repairs per
 *   document and second are allowed.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';

export interface DocViewSource<V> {
  /** Reads the document into a view; called on every observed change. */
  read: (doc: Y.Doc) => V;
  /** The view while there is no document. */
  empty: V;
  /** Top-level maps whose changes can change the view. */
  roots: readonly string[];
  /** When given, a change that reads back equal keeps the previous view (no re-render). */
  same?: (a: V, b: V) => boolean;
}

/** The store behind useDocView (exported for tests). */
export function docViewStore<V>(doc: Y.Doc | null, source: DocViewSource<V>) {
  if (!doc) return { subscribe: () => () => undefined, get: () => source.empty };
  let view = source.read(doc);
  return {
    subscribe: (onChange: () => void) => {
      const handler = () => {
        const next = source.read(doc);
        if (source.same?.(next, view)) return;
        view = next;
        onChange();
      };
      const roots = source.roots.map((r) => doc.getMap(r));
      for (const root of roots) root.observeDeep(handler);
      // Changes between the first read and this subscription.
      handler();
      return () => {
        for (const root of roots) root.unobserveDeep(handler);
      };
    },
    get: () => view,
  };
}

/** The current view of `doc`. `source` must be stable (a module constant). */
export function useDocView<V>(doc: Y.Doc | null, source: DocViewSource<V>): V {
  const store = useMemo(() => docViewStore(doc, source), [doc, source]);
  return useSyncExternalStore(store.subscribe, store.get);
}

const REPAIRS_PER_SECOND = 5;
const repairs = new WeakMap<Y.Doc, { since: number; count: number }>();

/** May `doc` be repaired now? Counts the repair when it may. */
export function repairAllowed(doc: Y.Doc, now = Date.now()): boolean {
  const seen = repairs.get(doc);
  if (!seen || now - seen.since > 1_000) {
    repairs.set(doc, { since: now, count: 1 });
    return true;
  }
  seen.count += 1;
  return seen.count <= REPAIRS_PER_SECOND;
}
