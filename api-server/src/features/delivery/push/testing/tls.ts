/** A certificate for 127.0.0.1 made for the run: the loopback push servers speak TLS like the real ones, trusted through the policy's extraCa. */
import { generate } from 'selfsigned';

export interface LoopbackCert { key: string; cert: string }

export async function loopbackCert(): Promise<LoopbackCert> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}
