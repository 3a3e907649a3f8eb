/**
 * The document token route: the one door to collaborative documents. A document name
 * (`<accountId>/<appId>/<kind>/<entityId>`, shared docs/names) is checked against the entity it
 * belongs to (the kind's table in shared DOC_ENTITY_TABLES, the map the sync server uses too),
 * then the person's rights on that kind give the access the token carries (read or write).
 * The sync server checks the token and re-checks rights on every change of permissions.
 */
import type { Request, Router } from 'express';
import { DOC_TOKEN_TTL_SECONDS, ErrorCode, disallowedFor, docAccess, fail, ok, parseDocName, subjectFor } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { findApp } from '../apps/repository.ts';
import { signJwt } from '../auth/accessToken.ts';
import { findDocumentEntity } from './repository.ts';

/** Where browsers reach the sync server: SYNC_PUBLIC_URL, else /collab on the host they called. */
export function syncUrlFor(deps: Deps, req: Request): string {
  if (deps.config.SYNC_PUBLIC_URL) return deps.config.SYNC_PUBLIC_URL;
  const scheme = req.protocol === 'https' ? 'wss' : 'ws';
  return `${scheme}://${req.get('host') ?? 'localhost'}/collab`;
}

export function documentRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const refused = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this document');

  route(router, deps, 'docToken', async ({ principal, body, req }) => {
    const parsed = parseDocName(body.name);
    if (!parsed || parsed.accountId !== principal.account.id) return refused();
    const app = await findApp(db, principal.account.id, parsed.appId);
    if (!app) return refused();
    const entity = await findDocumentEntity(db, parsed, body.name);
    if (entity === null) return fail(ErrorCode.NO_PERMISSION, `Documents of kind ${parsed.kind} are not available yet`);
    if (!entity) return refused();
    const subject = subjectFor(principal.user.id, disallowedFor(principal.user.grants, app.restricted));
    const access = docAccess(subject, parsed.kind, entity.createdBy);
    if (!access) return refused();
    const token = signJwt(deps.secret, { typ: 'doc', sub: principal.user.id, acc: principal.account.id, doc: body.name, access }, DOC_TOKEN_TTL_SECONDS);
    return ok({ token, access, url: syncUrlFor(deps, req) });
  });
}
