/**
 * Who may open a document, and how: verifies the document token the API issued, then asks the
 * database who the user is now (active, same account, role grants, the app's restrictions, the
 * entity's owner) and applies the shared `docAccess` rule, so the API and this server answer alike.
 */
import { createHash } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import {
  DOC_TOKEN_ISSUER, DocTokenClaims, disallowedFor, docAccess, parseDocName, subjectFor, type DocKind,
} from '@gd/shared';
import { findAppRestrictions, findEntity, findUser, type Db } from './repository.ts';

/** What every hook knows about a connection once it is authenticated. */
export interface SyncContext {
  userId: string;
  name: string;
  color: string;
  readOnly: boolean;
  kind: DocKind;
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

  const restricted = await findAppRestrictions(db, doc.accountId, doc.appId);
  if (!restricted) throw new Refusal('app not found');
  const entity = await findEntity(db, doc);
  if (!entity.found) throw new Refusal(entity.reason);

  if (claims.typ === 'service') {
    // The API itself reading the live document (launch): never writes.
    return { userId: `service:${claims.sub}`, name: 'GrowthDeck', color: '#888888', readOnly: true, kind: doc.kind };
  }

  const user = await findUser(db, claims.sub);
  if (!user || !user.active || user.accountId !== claims.acc) throw new Refusal('user not allowed');
  const subject = subjectFor(user.id, disallowedFor(user.grants, restricted));
  const access = docAccess(subject, doc.kind, entity.createdBy);
  if (!access) throw new Refusal('no access to this document');
  // The token can only narrow what the user may do now.
  const readOnly = access === 'read' || claims.access === 'read';
  return { userId: user.id, name: user.name, color: colorFor(user.id), readOnly, kind: doc.kind };
}
