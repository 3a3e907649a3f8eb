/**
 * The document token route: the one door to collaborative documents. A document name
 * (`<accountId>/<appId>/<kind>/<entityId>`, shared docs/names) is checked against the entity it
 * belongs to, through the owner lookup its feature registers (journeys, segments, and messages
 * next), then the person's rights on that kind give the access the token carries (read or write).
 * The sync server checks the token and re-checks rights on every change of permissions.
 */
import type { Request, Router } from 'express';
import { DOC_TOKEN_TTL_SECONDS, ErrorCode, disallowedFor, docAccess, fail, ok, parseDocName, subjectFor, type DocumentKind } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { findApp } from '../apps/repository.ts';
import { signJwt } from '../auth/accessToken.ts';

/** Finds a live (not deleted) entity of one kind in an app: its document name and who created it. */
export type DocumentOwnerLookup = (db: Queryable, appId: string, entityId: string) => Promise<{ docName: string; createdBy: string | null } | undefined>;

/** The kinds whose documents can be opened today, each with its feature's lookup. */
export type DocumentKinds = Partial<Record<DocumentKind, DocumentOwnerLookup>>;

/** Where browsers reach the sync server: SYNC_PUBLIC_URL, else /collab on the host they called. */
export function syncUrlFor(deps: Deps, req: Request): string {
  if (deps.config.SYNC_PUBLIC_URL) return deps.config.SYNC_PUBLIC_URL;
  const scheme = req.protocol === 'https' ? 'wss' : 'ws';
  return `${scheme}://${req.get('host') ?? 'localhost'}/collab`;
}

export function documentRoutes(router: Router, deps: Deps, kinds: DocumentKinds): void {
  const { db } = deps;
  const refused = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this document');

  route(router, deps, 'docToken', async ({ principal, body, req }) => {
    const parsed = parseDocName(body.name);
    if (!parsed || parsed.accountId !== principal.account.id) return refused();
    const app = await findApp(db, principal.account.id, parsed.appId);
    if (!app) return refused();
    const lookup = kinds[parsed.kind];
    if (!lookup) return fail(ErrorCode.NO_PERMISSION, `Documents of kind ${parsed.kind} are not available yet`);
    const entity = await lookup(db, app.id, parsed.id);
    if (!entity || entity.docName !== body.name) return refused();
    const subject = subjectFor(principal.user.id, disallowedFor(principal.user.grants, app.restricted));
    const access = docAccess(subject, parsed.kind, entity.createdBy);
    if (!access) return refused();
    const token = signJwt(deps.secret, { typ: 'doc', sub: principal.user.id, acc: principal.account.id, doc: body.name, access }, DOC_TOKEN_TTL_SECONDS);
    return ok({ token, access, url: syncUrlFor(deps, req) });
  });
}
