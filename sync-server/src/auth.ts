/**
 * Who may open a document, and how: verifies the document token the API issued, then asks the
 * database who the user is now (active, same account, role grants, the app's restrictions, the
 * entity's owner) and applies the shared `docAccess` rule, so the API and this server answer alike.
 */
import { createHash } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import {
  DOC_TOKEN_ISSUER, DocTokenClaims, disallowedFor, docAccess, parseDocName, subjectFor, type DocKind, type DocNameParts,
} from '@gd/shared';
import { findAppRestrictions, findEntity, findUser, type AccessFence, type ConnectingUser, type Db } from './repository.ts';

/** What every hook knows about a connection once it is authenticated. */
export interface SyncContext {
  userId: string;
  name: string;
  color: string;
  readOnly: boolean;
  kind: DocKind;
  /** What the token allows at most ('read' narrows a writer to reading). */
  tokenAccess: 'read' | 'write';
  /** The access versions this connection's rights were decided under; absent for service connections. */
  fence?: AccessFence;
}

/** Thrown to refuse a connection; Hocuspocus sends `reason` to the provider (onAuthenticationFailed). */
export class Refusal extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super('');
    this.reason = reason;
  }
}

const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324'];

/** A stable colour per user, so everyone sees the same colour for the same person. */
export function colorFor(userId: string): string {
  const byte = createHash('sha256').update(userId).digest().readUInt8(0);
  return PALETTE[byte % PALETTE.length] ?? '#888888';
}

async function verifyToken(token: string, secret: Uint8Array): Promise<DocTokenClaims> {
  if (!token) throw new Refusal('token missing');
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: DOC_TOKEN_ISSUER,
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
    });
    const claims = DocTokenClaims.safeParse(payload);
    if (!claims.success) throw new Refusal('token claims invalid');
    return claims.data;
  } catch (error) {
    if (error instanceof Refusal) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new Refusal('token expired');
    throw new Refusal('token invalid');
  }
}

export async function authenticate(db: Db, secret: Uint8Array, token: string, documentName: string): Promise<SyncContext> {
  const claims = await verifyToken(token, secret);
  if (claims.doc !== documentName) throw new Refusal('token is for another document');
  const doc = parseDocName(documentName);
  if (!doc) throw new Refusal('unknown document name');
  if (claims.acc !== doc.accountId) throw new Refusal('token is for another account');

  if (claims.typ === 'service') {
    if (!(await findAppRestrictions(db, doc.accountId, doc.appId))) throw new Refusal('app not found');
    const entity = await findEntity(db, doc);
    if (!entity.found) throw new Refusal(entity.reason);
    // The API itself reading the live document (launch): never writes.
    return { userId: `service:${claims.sub}`, name: 'GrowthDeck', color: '#888888', readOnly: true, kind: doc.kind, tokenAccess: 'read' };
  }

  const tokenAccess = claims.access === 'read' ? 'read' : 'write';
  const decision = await decideAccess(db, claims.sub, doc, tokenAccess);
  if (!decision.ok) throw new Refusal(decision.reason);
  const { user } = decision;
  return {
    userId: user.id, name: user.name, color: colorFor(user.id), readOnly: decision.access === 'read', kind: doc.kind,
    tokenAccess, fence: fenceOf(user),
  };
}

/** The access versions a decision about `user` was made under (see AccessFence). */
const fenceOf = (user: ConnectingUser): AccessFence =>
  ({ userId: user.id, accountId: user.accountId, userVersion: user.userVersion, accountVersion: user.accountVersion });

type Decision =
  | { ok: true; access: 'read' | 'write'; user: ConnectingUser }
  | { ok: false; reason: string };

/**
 * What `userId` may do with the document now. The user (with the access versions) is read before
 * the app's restrictions, so a write to the app after this read changes the account version the
 * fence holds and is noticed on the next update.
 */
async function decideAccess(db: Db, userId: string, doc: DocNameParts, tokenAccess: 'read' | 'write'): Promise<Decision> {
  const user = await findUser(db, userId);
  const restricted = await findAppRestrictions(db, doc.accountId, doc.appId);
  if (!restricted) return { ok: false, reason: 'app not found' };
  const entity = await findEntity(db, doc);
  if (!entity.found) return { ok: false, reason: entity.reason };
  if (!user || !user.active || user.accountId !== doc.accountId) return { ok: false, reason: 'user not allowed' };
  const subject = subjectFor(user.id, disallowedFor(user.grants, restricted));
  const access = docAccess(subject, doc.kind, entity.createdBy);
  if (!access) return { ok: false, reason: 'no access to this document' };
  // The token can only narrow what the user may do now.
  return { ok: true, access: access === 'read' || tokenAccess === 'read' ? 'read' : 'write', user };
}

/**
 * Access decided again for an open connection (its fence moved: the user, role, account or apps
 * changed). Updates the context's fence and read-only flag; null when the user may no longer open it.
 */
export async function recheckAccess(db: Db, context: SyncContext, documentName: string): Promise<'read' | 'write' | null> {
  const doc = parseDocName(documentName);
  if (!doc || !context.fence) return null;
  const decision = await decideAccess(db, context.userId, doc, context.tokenAccess);
  if (!decision.ok) return null;
  const { user } = decision;
  context.fence = fenceOf(user);
  context.readOnly = decision.access === 'read';
  return decision.access;
}
