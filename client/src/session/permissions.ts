import { useCallback, useMemo } from 'react';
import { can, subjectFor, type PermissionContext, type PermissionExpr } from '@gd/shared/permissions/can';
import { disallowedFor, type PermissionScope } from './scope.ts';
import { useMeta, useSession } from './store.ts';

export type Can = (expr: PermissionExpr, ctx?: PermissionContext) => boolean;

/** `can` for the signed-in user, answered by the current app's list or the account's. */
export function usePermissions(scope: PermissionScope): Can {
  const meta = useMeta();
  const appId = useSession((s) => s.currentAppId);
  const subject = useMemo(() => subjectFor(meta.user.id, disallowedFor(meta, appId, scope)), [meta, appId, scope]);
  return useCallback((expr, ctx) => can(subject, expr, ctx), [subject]);
}
