/**
 * Appends a widget to a dashboard's document from anywhere in the web app (the "Add to
 * dashboard" button): opens the document through the sync layer (the same session an open
 * dashboard screen would share), waits until the server's content is there and the person may
 * write, adds the widget at the first free place (docs/dashboardDoc.ts `addWidget`), waits until
 * the server confirmed it, and closes. Fails when the document cannot be written (read-only, the
 * sync server unreachable within the timeout, the dashboard full).
 */
import { addWidget } from '@gd/shared/docs/dashboardDoc';
import type { NewWidget } from '@gd/shared/dashboard/model';
import type { CollabState } from '../../sync/collabState.ts';
import { LOCAL_ORIGIN } from '../../sync/origins.ts';
import { acquireSession, releaseSession } from '../../sync/registry.ts';

export class AppendFailed extends Error {
  readonly reason: 'timeout' | 'readOnly' | 'full' | 'refused';
  constructor(reason: AppendFailed['reason']) {
    super(`the widget could not be added: ${reason}`);
    this.reason = reason;
  }
}

const TIMEOUT_MS = 15_000;

export async function appendWidget(userId: string, docName: string, widget: NewWidget): Promise<string> {
  const session = acquireSession(userId, docName);
  let unsubscribe = () => undefined as void;
  try {
    const until = (test: (s: CollabState) => boolean | AppendFailed) => new Promise<CollabState>((resolve, reject) => {
      const timer = window.setTimeout(() => reject(new AppendFailed('timeout')), TIMEOUT_MS);
      const check = () => {
        const state = session.getSnapshot();
        const verdict = test(state);
        if (verdict === false) return;
        window.clearTimeout(timer);
        unsubscribe();
        if (verdict instanceof AppendFailed) reject(verdict);
        else resolve(state);
      };
      unsubscribe = session.subscribe(check);
      check();
    });
    const state = await until((s) => {
      if (s.error) return new AppendFailed('refused');
      if (!s.ready || s.status === 'loading') return false;
      if (s.access !== 'write' || s.tooNew) return new AppendFailed('readOnly');
      return s.status === 'online';
    });
    const id = addWidget(state.doc, widget, LOCAL_ORIGIN);
    if (id === null) throw new AppendFailed('full');
    await until((s) => s.unsynced === 0);
    return id;
  } finally {
    unsubscribe();
    releaseSession(session);
  }
}
