/**
 * Rights can change while a connection is open (a role loses edit rights, a user is deactivated or
 * removed, an app starts forbidding a document kind). Updates are fenced one by one (access.ts:
 * nothing sent after a change is applied), and this watcher closes idle connections too, so a user
 * who lost access stops receiving the document within one interval and a downgraded writer's editor
 * turns read-only. Its signal is the access versions of migration 008, which every write to a
 * user, role, account or app moves in the writing transaction, whichever process made it: one small
 * query per interval for all connected users, then a full decision only for those whose version moved.
 */
import type { Hocuspocus } from '@hocuspocus/server';
import type { Logger } from 'pino';
import { AccessChanged } from './access.ts';
import { recheckAccess, type SyncContext } from './auth.ts';
import { accessVersions, type Db } from './repository.ts';

export interface AccessWatch { check(): Promise<void>; stop(): void }

export function watchAccess(opts: { hocuspocus: Hocuspocus<SyncContext>; db: Db; log: Logger; intervalMs: number }): AccessWatch {
  const { hocuspocus, db, log } = opts;
  let running: Promise<void> | null = null;

  async function checkOnce(): Promise<void> {
    const open = [...hocuspocus.documents.values()].flatMap((document) =>
      document.getConnections().map((connection) => ({ document, connection, context: connection.context as SyncContext })));
    const fenced = open.filter((c) => c.context.fence);
    if (!fenced.length) return;
    const now = await accessVersions(db, [...new Set(fenced.map((c) => c.context.userId))]);
    for (const { document, connection, context } of fenced) {
      const fence = context.fence;
      const current = now.get(context.userId);
      if (!fence || (current && current.userVersion === fence.userVersion && current.accountVersion === fence.accountVersion)) continue;
      const wasReadOnly = context.readOnly;
      const access = await recheckAccess(db, context, document.name);
      if (access === (wasReadOnly ? 'read' : 'write')) continue;
      connection.readOnly = true;
      const closing = new AccessChanged(access);
      log.info({ doc: document.name, user: context.userId, access }, 'access changed, closing the connection');
      connection.close({ code: closing.code, reason: closing.reason });
    }
  }

  const check = () => (running ??= checkOnce()
    .catch((error: unknown) => log.warn({ err: error }, 'access check failed'))
    .finally(() => { running = null; }));
  const timer = setInterval(() => void check(), opts.intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
