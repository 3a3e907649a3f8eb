/**
 * An ed25519 key pair in OpenSSH form for the SSH/SFTP test servers, with its parsed public key.
 *
 * ssh2's `generateKeyPairSync('ed25519')` writes the public key without its leading zero byte when
 * the key starts with one (31 bytes instead of 32: about 1 key in 500, 6 of 3,000 when counted), and
 * its own parser then refuses that key ("Malformed OpenSSH public key"). A test server made with
 * such a key failed its suite now and then; a pair that does not parse is made again.
 */
import ssh2 from 'ssh2';

export function ed25519Pair(): { private: string; public: string; parsed: ssh2.ParsedKey } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    const parsed = ssh2.utils.parseKey(pair.public);
    if (!(parsed instanceof Error)) return { private: pair.private, public: pair.public, parsed };
  }
  throw new Error('ssh2 made 20 ed25519 keys in a row that it cannot read');
}
