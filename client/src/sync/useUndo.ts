/**
 * Per-person undo and redo over some roots of a document: a Y.UndoManager that tracks only this
 * browser's edits (`LOCAL_ORIGIN`), so it never undoes someone else's change or an automatic repair.
 * Keys: Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z and Ctrl+Y redo (text fields keep their own undo).
 * One manager per document, made on first use and destroyed with the document. `around` wraps each
 * undo and redo (the journey editor's keeps other people's steps connected: structuralUndo.ts).
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import * as Y from 'yjs';
import { LOCAL_ORIGIN } from './origins.ts';

const managers = new WeakMap<Y.Doc, Y.UndoManager>();

/** The undo manager of a document over its `roots` (maps), made once per document. */
export function undoManagerFor(doc: Y.Doc, roots: readonly string[]): Y.UndoManager {
  let manager = managers.get(doc);
  if (!manager) {
    manager = new Y.UndoManager(
      roots.map((r) => doc.getMap(r)),
      { trackedOrigins: new Set<unknown>([LOCAL_ORIGIN]), captureTimeout: 400 },
    );
    managers.set(doc, manager);
  }
  return manager;
}

export interface Undo {
  canUndo: boolean;
  canRedo: boolean;
  undo: () => void;
  redo: () => void;
}

const isTextField = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** `/mac|iphone|ipad/` platforms use Cmd; the others Ctrl. */
const isMac = (): boolean => typeof navigator !== 'undefined' && /mac|iphone|ipad/i.test(navigator.platform || navigator.userAgent);

export type AroundRevert = (doc: Y.Doc, revert: () => void) => void;

export function useUndo(doc: Y.Doc | null, roots: readonly string[], enabled: boolean, around?: AroundRevert): Undo {
  const rootsKey = roots.join('\u0000');
  const manager = useMemo(() => (doc ? undoManagerFor(doc, rootsKey.split('\u0000')) : null), [doc, rootsKey]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!manager) return () => undefined;
      const events = ['stack-item-added', 'stack-item-popped', 'stack-cleared'] as const;
      for (const e of events) manager.on(e, onChange);
      return () => {
        for (const e of events) manager.off(e, onChange);
      };
    },
    [manager],
  );
  const stacks = useSyncExternalStore(subscribe, () => (manager ? `${manager.undoStack.length}:${manager.redoStack.length}` : '0:0'));
  const [undoCount, redoCount] = stacks.split(':').map(Number) as [number, number];
  const run = useCallback(
    (revert: (m: Y.UndoManager) => void) => {
      if (!enabled || !manager || !doc) return;
      if (around) around(doc, () => revert(manager));
      else revert(manager);
    },
    [manager, enabled, doc, around],
  );
  const undo = useCallback(() => run((m) => m.undo()), [run]);
  const redo = useCallback(() => run((m) => m.redo()), [run]);

  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const mod = isMac() ? event.metaKey : event.ctrlKey;
      if (!mod || event.altKey || isTextField(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if ((key === 'z' && event.shiftKey) || (key === 'y' && !isMac())) {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, undo, redo]);

  return { canUndo: enabled && undoCount > 0, canRedo: enabled && redoCount > 0, undo, redo };
}
