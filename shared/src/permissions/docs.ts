/**
 * Who may open a collaborative document, and how: 'write' gives a writable connection, 'read' a
 * read-only one, null refuses. Used by the API (when issuing a document token) and by the sync
 * server (when a connection authenticates), so both answer alike.
 */
import { can, type PermissionSubject } from './can.ts';

export type DocKind = 'journey' | 'segment' | 'message' | 'dashboard';
export type DocAccess = 'write' | 'read';

export function docAccess(subject: PermissionSubject, kind: DocKind, ownerId: string | null): DocAccess | null {
  const ctx = { ownerId };
  switch (kind) {
    case 'journey':
      if (can(subject, 'ui:journey.edit', ctx)) return 'write';
      return can(subject, 'ui:journey.view', ctx) ? 'read' : null;
    case 'segment':
      if (can(subject, { and: ['ui:segment.modify', 'ui:audience.edit'] }, ctx)) return 'write';
      return can(subject, 'ui:audience.view') ? 'read' : null;
    case 'message':
      if (can(subject, 'ui:message.edit', ctx)) return 'write';
      return can(subject, { or: ['ui:message.view', 'ui:message.read'] }, ctx) ? 'read' : null;
    case 'dashboard':
      if (can(subject, 'ui:dashboards.edit', ctx)) return 'write';
      return can(subject, 'ui:dashboards.view', ctx) ? 'read' : null;
    default: {
      const never: never = kind;
      throw new Error(`unknown document kind ${String(never)}`);
    }
  }
}
