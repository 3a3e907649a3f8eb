/**
 * Test certificates for the wallet's tests, made fresh in each run: a CA standing in for Apple's
 * WWDR intermediate, a pass type certificate it issued (RSA 2048, as Apple issues them), an
 * expired one, a stranger's key, and a Google service-account key pair. Keys come from
 * node:crypto (fast), certificates are built and signed with node-forge.
 */
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export interface TestSigning {
  caPem: string;
  certPem: string;
  keyPem: string;
  expiredCertPem: string;
  /** An RSA key that belongs to no certificate here. */
  otherKeyPem: string;
  /** Another CA, which issued none of these. */
  otherCaPem: string;
  googleKeyPem: string;
  googlePublicPem: string;
}

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

function certificate(subject: string, publicPem: string, issuer: { name: string; keyPem: string }, from: Date, to: Date, ca: boolean, serial: string): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  cert.serialNumber = serial;
  cert.validity.notBefore = from;
  cert.validity.notAfter = to;
  cert.setSubject([{ name: 'commonName', value: subject }, { name: 'organizationName', value: 'Growthdeck Test' }]);
  cert.setIssuer([{ name: 'commonName', value: issuer.name }, { name: 'organizationName', value: 'Growthdeck Test' }]);
  cert.setExtensions(ca
    ? [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]
    : [{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true }]);
  cert.sign(forge.pki.privateKeyFromPem(issuer.keyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

export function makeTestSigning(now = new Date()): TestSigning {
  const day = 86_400_000;
  const ca = rsa();
  const pass = rsa();
  const other = rsa();
  const otherCa = rsa();
  const google = rsa();
  const caName = 'Test WWDR CA';
  const caPem = certificate(caName, ca.publicKey, { name: caName, keyPem: ca.privateKey }, new Date(now.getTime() - day), new Date(now.getTime() + 3650 * day), true, '01');
  const otherCaPem = certificate('Other CA', otherCa.publicKey, { name: 'Other CA', keyPem: otherCa.privateKey }, new Date(now.getTime() - day), new Date(now.getTime() + 3650 * day), true, '02');
  const certPem = certificate('Pass Type ID: pass.com.example.test', pass.publicKey, { name: caName, keyPem: ca.privateKey }, new Date(now.getTime() - day), new Date(now.getTime() + 365 * day), false, '03');
  const expiredCertPem = certificate('Pass Type ID: pass.com.example.old', pass.publicKey, { name: caName, keyPem: ca.privateKey }, new Date(now.getTime() - 400 * day), new Date(now.getTime() - 30 * day), false, '04');
  return { caPem, certPem, keyPem: pass.privateKey, expiredCertPem, otherKeyPem: other.privateKey, otherCaPem, googleKeyPem: google.privateKey, googlePublicPem: google.publicKey };
}
