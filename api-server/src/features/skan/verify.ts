/**
 * Checking Apple's signature on an SKAdNetwork postback: ECDSA P-256 with SHA-256 over the
 * version's signed string (shared `skanSignedString`), the signature DER, Base64 in
 * `attribution-signature`.
 *
 * The keys: Apple's published NIST P-256 key (shared APPLE_SKAN_P256_KEY, "Verifying an
 * install-validation postback") for every supported version, unless config SKAN_PUBLIC_KEYS
 * replaces them: a JSON object from a version ("4.0", "3.0", "2.2") or "*" (every version) to a
 * P-256 public key, Base64 DER (SubjectPublicKeyInfo, as Apple publishes it) or PEM. Tests sign
 * with their own key that way. A bad SKAN_PUBLIC_KEYS stops the start-up.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { APPLE_SKAN_P256_KEY, skanSignedString, type SkanPostbackBody } from '@gd/shared/acquisition/skan';
import type { SkanRejectReason } from '@gd/shared/schemas/skan';

export interface SkanKeys {
  /** The keys a postback of this version may be signed with (the version's own, else '*'). */
  forVersion(version: string): KeyObject[];
}

function parseKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPublicKey(trimmed)
    : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not a P-256 public key');
  return key;
}

export function skanKeys(config: string | undefined): SkanKeys {
  const table = new Map<string, KeyObject[]>();
  if (config === undefined || config.trim() === '') {
    table.set('*', [parseKey(APPLE_SKAN_P256_KEY)]);
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(config);
    } catch {
      throw new Error('SKAN_PUBLIC_KEYS: expected a JSON object from version ("4.0", "*") to a public key');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('SKAN_PUBLIC_KEYS: expected a JSON object');
    for (const [version, value] of Object.entries(parsed as Record<string, unknown>)) {
      const list = Array.isArray(value) ? value : [value];
      table.set(version, list.map((k, i) => {
        if (typeof k !== 'string') throw new Error(`SKAN_PUBLIC_KEYS.${version}[${i}]: expected a key as text`);
        try {
          return parseKey(k);
        } catch (error) {
          throw new Error(`SKAN_PUBLIC_KEYS.${version}[${i}]: ${(error as Error).message}`);
        }
      }));
    }
  }
  return { forVersion: (version) => table.get(version) ?? table.get('*') ?? [] };
}

export type SkanVerdict = { verified: true } | { verified: false; reason: SkanRejectReason };

/** Whether Apple (one of the version's keys) signed this postback. */
export function verifySkanPostback(keys: SkanKeys, postback: SkanPostbackBody): SkanVerdict {
  const signed = skanSignedString(postback);
  if (!signed.ok) return { verified: false, reason: signed.reason };
  const signature = postback['attribution-signature'];
  if (!signature) return { verified: false, reason: 'missing_field' };
  const der = Buffer.from(signature, 'base64');
  const data = Buffer.from(signed.text, 'utf8');
  const candidates = keys.forVersion(postback.version ?? '');
  if (candidates.length === 0) return { verified: false, reason: 'bad_key' };
  for (const key of candidates) {
    try {
      if (verify('sha256', data, { key, dsaEncoding: 'der' }, der)) return { verified: true };
    } catch {
      // A signature that is not DER at all: not Apple's.
    }
  }
  return { verified: false, reason: 'bad_signature' };
}
