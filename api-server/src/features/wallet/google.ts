/**
 * Google Wallet's "Add to Google Wallet" link: `https://pay.google.com/gp/v/save/<JWT>`, the JWT
 * (RS256, signed with the issuer's service-account key) carrying the pass's class and object
 * (shared wallet/model.ts `googleSaveClaims`). Saving creates them at Google when they do not
 * exist yet, so nothing is called from here: the link is made when asked for and signed with
 * node:crypto.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { GOOGLE_SAVE_URL } from '@gd/shared/wallet/model';

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A compact RS256 JWT of `claims`. */
export function signJwtRs256(claims: Record<string, unknown>, privateKeyPem: string): string {
  const head = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(head), createPrivateKey(privateKeyPem));
  return `${head}.${base64url(signature)}`;
}

export const googleSaveUrl = (jwt: string) => `${GOOGLE_SAVE_URL}${jwt}`;
