/**
 * Apple Wallet's .pkpass (PassKit Package Format): a zip of pass.json, the images, manifest.json
 * (each file's SHA-1, hex) and `signature`, a detached PKCS#7 (CMS SignedData, DER) over
 * manifest.json made with the pass type certificate and its key, the WWDR intermediate included,
 * with the signing time as a signed attribute. node-forge builds the PKCS#7 (node:crypto has no
 * CMS); node:crypto hashes; fflate zips.
 */
import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import forge from 'node-forge';
import { applePassJson, type IssuedValues, type PassDesign } from '@gd/shared/wallet/model';
import { passImage } from './images.ts';
import type { AppleSigner } from './signing.ts';

/** The images of a pass, by file name, drawn from its colours. */
export function passImages(design: PassDesign): Record<string, Buffer> {
  const { backgroundColor: bg, foregroundColor: fg } = design;
  return {
    'icon.png': passImage(29, 29, bg, fg),
    'icon@2x.png': passImage(58, 58, bg, fg),
    'logo.png': passImage(50, 50, bg, fg),
    'logo@2x.png': passImage(100, 100, bg, fg),
  };
}

export const sha1Hex = (data: Uint8Array) => createHash('sha1').update(data).digest('hex');

/** manifest.json: every file of the package but the manifest and the signature, with its SHA-1. */
export function manifestOf(files: Readonly<Record<string, Uint8Array>>): Buffer {
  const entries = Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, data]) => [name, sha1Hex(data)] as const);
  return Buffer.from(JSON.stringify(Object.fromEntries(entries)), 'utf8');
}

/** An object identifier forge knows by name. */
function oid(name: string): string {
  const found = forge.pki.oids[name];
  if (!found) throw new Error(`node-forge has no OID named ${name}`);
  return found;
}

/** The detached PKCS#7 signature (DER) of `content` by the signer's certificate, the WWDR certificate included. */
export function detachedSignature(content: Buffer, signer: Pick<AppleSigner, 'certificatePem' | 'privateKeyPem' | 'wwdrPem'>, signingTime: Date): Buffer {
  const certificate = forge.pki.certificateFromPem(signer.certificatePem);
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(content.toString('binary'));
  p7.addCertificate(certificate);
  p7.addCertificate(forge.pki.certificateFromPem(signer.wwdrPem));
  p7.addSigner({
    key: forge.pki.privateKeyFromPem(signer.privateKeyPem),
    certificate,
    digestAlgorithm: oid('sha256'),
    authenticatedAttributes: [
      { type: oid('contentType'), value: oid('data') },
      { type: oid('messageDigest') },
      { type: oid('signingTime'), value: signingTime.toISOString() },
    ],
  });
  p7.sign({ detached: true });
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}

/** The signed .pkpass of an issued pass. */
export function buildPkpass(design: PassDesign, values: IssuedValues, signer: AppleSigner, pass: { serialNumber: string; voided: boolean }, now: Date): Buffer {
  const json = applePassJson(design, values, { passTypeIdentifier: signer.passTypeIdentifier, teamIdentifier: signer.teamIdentifier, ...pass });
  const files: Record<string, Uint8Array> = { 'pass.json': Buffer.from(JSON.stringify(json), 'utf8'), ...passImages(design) };
  const manifest = manifestOf(files);
  const signature = detachedSignature(manifest, signer, now);
  return Buffer.from(zipSync({ ...files, 'manifest.json': manifest, signature }, { level: 6 }));
}
