/**
 * Dashboard ⇄ Yjs (document kind `dashboard`, name `<account>/<app>/dashboard/<id>`): `meta`
 * (schemaVersion, kind) and `widgets`, widget id → Y.Map of the widget's fields (`title`, `kind`,
 * `query` as one plain JSON value, `x`, `y`, `w`, `h`). Each field is its own map entry, so two
 * people moving two widgets (or one moving and one renaming the same widget) both keep their
 * change; the same field written twice at once keeps one of the two (Yjs' rule, the same on every
 * client). A layout two moves left overlapping is drawn through `resolveCollisions`, the same on
 * every client; it is written back only by the next drag or resize.
 *
 * Positions are written when a drag or resize ends (`moveWidgets`), never on every mouse move.
 * A widget that no longer parses (an older or foreign write) is left out of the view, not deleted.
 */
import * as Y from 'yjs';
import { Widget, clampPlacement, placeNew, resolveCollisions, DEFAULT_SIZE, MAX_WIDGETS, type NewWidget, type WidgetPlacement } from '../dashboard/model.ts';
import { parseDocName } from './names.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { childMap, patchMap, plain } from './ymap.ts';

/** The widgets as stored (parsable ones), in reading order; overlaps not resolved. */
export function widgetsFromDoc(doc: Y.Doc): Widget[] {
  const out: Widget[] = [];
  doc.getMap<unknown>('widgets').forEach((value, id) => {
    if (!(value instanceof Y.Map)) return;
    const parsed = Widget.safeParse({ ...(plain(value) as Record<string, unknown>), id });
    if (parsed.success) out.push(parsed.data);
  });
  return out.sort((a, b) => a.y - b.y || a.x - b.x || (a.id < b.id ? -1 : 1));
}

/** The widgets as drawn: stored ones with overlaps resolved. */
export function dashboardLayout(doc: Y.Doc): Widget[] {
  return resolveCollisions(widgetsFromDoc(doc));
}

function newId(): string {
  const bytes = new Uint8Array(9);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('').slice(0, 16);
}

/**
 * Appends a widget at the first free place for its kind's default size; returns its id, or null
 * when the dashboard is full (MAX_WIDGETS) or has no content yet (never seed a document here).
 */
export function addWidget(doc: Y.Doc, widget: NewWidget, origin?: unknown, id: string = newId()): string | null {
  if (!doc.getMap('meta').has('kind')) return null;
  const current = dashboardLayout(doc);
  if (current.length >= MAX_WIDGETS) return null;
  const place = placeNew(current, DEFAULT_SIZE[widget.kind]);
  doc.transact(() => {
    const map = childMap(doc.getMap<unknown>('widgets'), id);
    patchMap(map, { title: widget.title, kind: widget.kind, query: widget.query, ...place });
  }, origin);
  return id;
}

/** Writes the places that changed (after a drag or resize ends); unknown ids are ignored. */
export function moveWidgets(doc: Y.Doc, places: readonly (WidgetPlacement & { id: string })[], origin?: unknown): void {
  const widgets = doc.getMap<unknown>('widgets');
  doc.transact(() => {
    for (const p of places) {
      const map = widgets.get(p.id);
      if (!(map instanceof Y.Map)) continue;
      const next = clampPlacement(p);
      for (const key of ['x', 'y', 'w', 'h'] as const) if (map.get(key) !== next[key]) map.set(key, next[key]);
    }
  }, origin);
}

export function renameWidget(doc: Y.Doc, id: string, title: string, origin?: unknown): void {
  const map = doc.getMap<unknown>('widgets').get(id);
  if (map instanceof Y.Map && map.get('title') !== title) doc.transact(() => map.set('title', title), origin);
}

export function removeWidget(doc: Y.Doc, id: string, origin?: unknown): void {
  const widgets = doc.getMap<unknown>('widgets');
  if (widgets.has(id)) doc.transact(() => widgets.delete(id), origin);
}

/** Server side only: meta and no widgets, unless the document already has a kind. */
export function initDashboardDoc(doc: Y.Doc, name: string): boolean {
  if (parseDocName(name)?.kind !== 'dashboard') throw new Error(`not a dashboard document name: ${name}`);
  const meta = doc.getMap('meta');
  if (meta.has('kind')) return false;
  doc.transact(() => {
    meta.set('schemaVersion', SCHEMA_VERSION.dashboard);
    meta.set('kind', 'dashboard');
    doc.getMap('widgets');
  });
  return true;
}
