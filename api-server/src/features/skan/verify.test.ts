/**
 * Signature verification: Apple's own documented 4.0 and 2.2 postbacks ("Verifying an
 * install-validation postback", "Combining parameters for previous SKAdNetwork postback
 * versions") against Apple's published key, and postbacks signed in the test with a key of its
 * own (valid, a tampered field, the wrong key, a signature that is not DER).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SkanPostbackBody, skanSignedString } from '@gd/shared/acquisition/skan';
import { skanKeys, verifySkanPostback } from './verify.ts';

const APPLE_V4_FINE = {
  version: '4.0', 'ad-network-id': 'com.example', 'source-identifier': '5239', 'app-id': 525463029, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30',
  redownload: false, 'source-domain': 'example.com', 'fidelity-type': 1, 'did-win': true, 'conversion-value': 63, 'postback-sequence-index': 0,
  'attribution-signature': 'MEUCIGRmSMrqedNu6uaHyhVcifs118R5z/AB6cvRaKrRRHWRAiEAv96ne3dKQ5kJpbsfk4eYiePmrZUU6sQmo+7zfP/1Bxo=',
};
const APPLE_V4_COARSE = {
  version: '4.0', 'ad-network-id': 'com.example', 'source-identifier': '39', 'app-id': 525463029, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e31',
  redownload: false, 'source-domain': 'example.com', 'fidelity-type': 1, 'did-win': true, 'coarse-conversion-value': 'high', 'postback-sequence-index': 0,
  'attribution-signature': 'MEUCIQD4rX6eh38qEhuUKHdap345UbmlzA7KEZ1bhWZuYM8MJwIgMnyiiZe6heabDkGwOaKBYrUXQhKtF3P/ERHqkR/XpuA=',
};
const APPLE_V22 = {
  version: '2.2', 'ad-network-id': 'com.example', 'campaign-id': 42, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e28', 'app-id': 525463029,
  'attribution-signature': 'MEYCIQDTuQ1Z4Tpy9D3aEKbxLl5J5iKiTumcqZikuY/AOD2U7QIhAJAaiAv89AoquHXJffcieEQXdWHpcV8ZgbKN0EwV9/sY',
  redownload: true, 'source-app-id': 1234567891, 'fidelity-type': 1, 'conversion-value': 20,
};

const apple = skanKeys(undefined);
const check = (keys: ReturnType<typeof skanKeys>, body: Record<string, unknown>) => verifySkanPostback(keys, SkanPostbackBody.parse(body));

/** A P-256 key pair, its public half as Apple publishes keys (Base64 DER SubjectPublicKeyInfo). */
function testKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, publicB64: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') };
}
function signed(privateKey: ReturnType<typeof testKey>['privateKey'], body: Record<string, unknown>) {
  const text = skanSignedString(SkanPostbackBody.parse(body));
  if (!text.ok) throw new Error('unsigned');
  return { ...body, 'attribution-signature': sign('sha256', Buffer.from(text.text, 'utf8'), privateKey).toString('base64') };
}

describe('Apple\'s key and Apple\'s examples', () => {
  it('verifies the documented 4.0 (fine and coarse) and 2.2 postbacks', () => {
    expect(check(apple, APPLE_V4_FINE)).toEqual({ verified: true });
    expect(check(apple, APPLE_V4_COARSE)).toEqual({ verified: true });
    expect(check(apple, APPLE_V22)).toEqual({ verified: true });
  });

  it('the conversion value is not signed; every signed field is', () => {
    expect(check(apple, { ...APPLE_V4_FINE, 'conversion-value': 1 })).toEqual({ verified: true });
    for (const [field, value] of [['source-identifier', '5238'], ['app-id', 525463030], ['did-win', false], ['postback-sequence-index', 1], ['redownload', true], ['source-domain', 'example.org'], ['fidelity-type', 0]] as const) {
      expect(check(apple, { ...APPLE_V4_FINE, [field]: value }), field).toEqual({ verified: false, reason: 'bad_signature' });
    }
  });
});

describe('a test key (SKAN_PUBLIC_KEYS)', () => {
  const mine = testKey();
  const other = testKey();
  const keys = skanKeys(JSON.stringify({ '*': mine.publicB64 }));
  const body = {
    version: '4.0', 'ad-network-id': 'net.test.skadnetwork', 'source-identifier': '1234', 'app-id': 99, 'transaction-id': 'tx-1', redownload: false,
    'source-app-id': 555, 'fidelity-type': 0, 'did-win': true, 'postback-sequence-index': 2, 'coarse-conversion-value': 'low',
  };

  it('valid, tampered field, wrong key, not a signature', () => {
    const good = signed(mine.privateKey, body);
    expect(check(keys, good)).toEqual({ verified: true });
    expect(check(keys, { ...good, 'transaction-id': 'tx-2' })).toEqual({ verified: false, reason: 'bad_signature' });
    expect(check(keys, signed(other.privateKey, body))).toEqual({ verified: false, reason: 'bad_signature' });
    expect(check(apple, good)).toEqual({ verified: false, reason: 'bad_signature' });
    expect(check(keys, { ...good, 'attribution-signature': 'bm90IGEgc2lnbmF0dXJl' })).toEqual({ verified: false, reason: 'bad_signature' });
    expect(check(keys, { ...good, 'attribution-signature': undefined })).toEqual({ verified: false, reason: 'missing_field' });
    expect(check(keys, { ...good, version: '2.1' })).toEqual({ verified: false, reason: 'unsupported_version' });
  });

  it('keys per version, PEM accepted, bad configuration refused', () => {
    const pem = `-----BEGIN PUBLIC KEY-----\n${mine.publicB64}\n-----END PUBLIC KEY-----`;
    const perVersion = skanKeys(JSON.stringify({ '4.0': pem }));
    expect(check(perVersion, signed(mine.privateKey, body))).toEqual({ verified: true });
    expect(check(perVersion, signed(mine.privateKey, { ...body, version: '3.0', 'campaign-id': 12, 'source-identifier': undefined, 'postback-sequence-index': undefined }))).toEqual({ verified: false, reason: 'bad_key' });
    expect(() => skanKeys('not json')).toThrow(/SKAN_PUBLIC_KEYS/);
    expect(() => skanKeys(JSON.stringify({ '*': 'AAAA' }))).toThrow(/SKAN_PUBLIC_KEYS/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    expect(() => skanKeys(JSON.stringify({ '*': rsa }))).toThrow(/P-256/);
  });
});
