/** Keys made for a test run with node:crypto, as the real services hand them out: an APNs .p8 (EC P-256, PKCS#8) and a service account (RSA 2048). */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { allowList, type NetPolicy } from '../../../../net/index.ts';

export interface TestKey { privateKeyPem: string; publicKey: KeyObject }

export function apnsKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

export function serviceAccountKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

/** What the clients may reach in tests: 127.0.0.1 only, trusting the loopback server's certificate. */
export const loopbackPolicy = (ca: string): NetPolicy => ({ allow: allowList('127.0.0.1'), extraCa: ca });
