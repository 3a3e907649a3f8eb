/**
 * The widgets on a 12-column grid (react-grid-layout): dragged by their title bar and resized by
 * their corner when the person may arrange the dashboard. Positions are written to the document
 * when a drag or a resize ends (onDragStop / onResizeStop), never while the mouse moves: the
 * others see the result, not every step. The grid floats widgets up (vertical compaction), the
 * same on every client from the same document.
 */
import { memo } from 'react';
import ReactGridLayout, { useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { DASHBOARD_COLUMNS, DASHBOARD_ROW_PX, WIDGET_H, WIDGET_W, type Widget, type WidgetPlacement, type WindowRanges } from '@gd/shared/dashboard/model';
import { DRAG_HANDLE, WidgetCard } from './WidgetCard.tsx';

export interface DashboardGridProps {
  widgets: readonly Widget[];
  appId: string;
  ranges: WindowRanges;
  canEdit: boolean;
  onMove: (places: (WidgetPlacement & { id: string })[]) => void;
  onRename: (widget: Widget) => void;
  onRemove: (widget: Widget) => void;
}

const toPlaces = (layout: Layout) => layout.map((l) => ({ id: l.i, x: l.x, y: l.y, w: l.w, h: l.h }));

export const DashboardGrid = memo(function DashboardGrid({ widgets, appId, ranges, canEdit, onMove, onRename, onRemove }: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout: Layout = widgets.map((w) => ({
    i: w.id, x: w.x, y: w.y, w: w.w, h: w.h, minW: WIDGET_W[0], maxW: WIDGET_W[1], minH: WIDGET_H[0], maxH: WIDGET_H[1],
  }));
  return (
    <div ref={containerRef} data-testid="dashboard-grid">
      {mounted && (
        <ReactGridLayout
          layout={layout}
          width={width}
          gridConfig={{ cols: DASHBOARD_COLUMNS, rowHeight: DASHBOARD_ROW_PX, margin: [12, 12], containerPadding: [0, 0] }}
          dragConfig={{ enabled: canEdit, handle: `.${DRAG_HANDLE}`, cancel: 'button' }}
          resizeConfig={{ enabled: canEdit }}
          onDragStop={(next) => onMove(toPlaces(next))}
          onResizeStop={(next) => onMove(toPlaces(next))}
        >
          {widgets.map((w) => (
            <div key={w.id}>
              <WidgetCard widget={w} appId={appId} ranges={ranges} canEdit={canEdit} onRename={() => onRename(w)} onRemove={() => onRemove(w)} />
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
});
