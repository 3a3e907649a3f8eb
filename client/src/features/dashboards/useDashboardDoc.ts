/**
 * The loop over a dashboard document (shared docs/dashboardDoc.ts): the widgets as drawn (stored
 * places with overlaps resolved, the same on every client) re-read on every change, and the edits
 * (move after a drag or resize ends, rename, remove, add) written with LOCAL_ORIGIN (undoable per
 * person). Nothing is written before the server's content is here, nor by a read-only client.
 */
import { useCallback, useMemo } from 'react';
import type * as Y from 'yjs';
import { addWidget, dashboardLayout, moveWidgets, removeWidget, renameWidget } from '@gd/shared/docs/dashboardDoc';
import type { NewWidget, Widget, WidgetPlacement } from '@gd/shared/dashboard/model';
import { useDocView, type DocViewSource } from '../../sync/docView.ts';
import { LOCAL_ORIGIN } from '../../sync/origins.ts';

export const DASHBOARD_UNDO_ROOTS = ['widgets'] as const;

interface DashboardView { widgets: Widget[]; hasContent: boolean }
const EMPTY: DashboardView = { widgets: [], hasContent: false };
const read = (doc: Y.Doc): DashboardView => ({ widgets: dashboardLayout(doc), hasContent: doc.getMap('meta').has('kind') });
const SOURCE: DocViewSource<DashboardView> = { read, empty: EMPTY, roots: ['meta', 'widgets'], same: (a, b) => JSON.stringify(a) === JSON.stringify(b) };

export interface DashboardDoc extends DashboardView {
  move: (places: readonly (WidgetPlacement & { id: string })[]) => void;
  rename: (id: string, title: string) => void;
  remove: (id: string) => void;
  add: (widget: NewWidget) => string | null;
}

export function useDashboardDoc(doc: Y.Doc | null, canWrite: boolean): DashboardDoc {
  const view = useDocView(doc, SOURCE);
  const writable = useCallback(() => (doc && canWrite && doc.getMap('meta').has('kind') ? doc : null), [doc, canWrite]);
  const move = useCallback((places: readonly (WidgetPlacement & { id: string })[]) => {
    const d = writable();
    if (!d) return;
    // Only what changed against the document as it is now (not the rendered view).
    const now = new Map(dashboardLayout(d).map((w) => [w.id, w]));
    const changed = places.filter((p) => {
      const w = now.get(p.id);
      return w !== undefined && (w.x !== p.x || w.y !== p.y || w.w !== p.w || w.h !== p.h);
    });
    if (changed.length > 0) moveWidgets(d, changed, LOCAL_ORIGIN);
  }, [writable]);
  const rename = useCallback((id: string, title: string) => { const d = writable(); if (d) renameWidget(d, id, title, LOCAL_ORIGIN); }, [writable]);
  const remove = useCallback((id: string) => { const d = writable(); if (d) removeWidget(d, id, LOCAL_ORIGIN); }, [writable]);
  const add = useCallback((widget: NewWidget) => { const d = writable(); return d ? addWidget(d, widget, LOCAL_ORIGIN) : null; }, [writable]);
  return useMemo(() => ({ ...view, move, rename, remove, add }), [view, move, rename, remove, add]);
}
