/**
 * Host key fingerprints are OpenSSH's: the public keys below were made by ssh-keygen, and the
 * fingerprints are what `ssh-keygen -lf` printed for them (an ed25519 and an RSA key, whose
 * base64 holds a `+`). The shared schema takes what this module computes.
 */
import { describe, expect, it } from 'vitest';
import { HostKeyFingerprint } from '@gd/shared';
import { HostKeyMismatch, hostKeyFingerprint, hostKeyOnSave } from './hostKeys.ts';

const KEYS = [
  {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICWb0TfAXiqPH5W/kAImkipcH3rkrM1qPJYREL1UBl4k files.example.com',
    fingerprint: 'SHA256:x5fdnafud5spKn2iLJbuPRN2gKSZT1U7mSQpqXFCdTo',
  },
  {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDtdmqxm7lYILZcch/CUhOUOox5SpVZ6T0ULuaVKWV54UwdtHg6D87b/t8OSVsoomqOdbsYkd3k04JTu4IXuT3zkX1H/zvoKrlcoGs+m9Xs+jCnQsvEcRPPHw1KLsKhY18xBWjQXRa+ek03hUL4VRpYty67kzqTSk3Tvk/sUMaj4SfqC1SbhKMZCHfXqRcFU06Mtp9xgcSySn/zdwo25NXfsY74+nBjLOA8+qUZzalc9wUN7hNtXhB5AGuNIC1GlDt0K4q4KhLNkfLNJW6w9M6H2BUdsQvlux8Yc60J4hZy2Ery91lBmDd9QJXwfkr7tslueJoIa32TNM+/J51JHZ7F r',
    fingerprint: 'SHA256:Z1yRF4efBE+7iV3G4G0bp18dnCBBPUAdOHUBYOmD6E4',
  },
];

describe('host key fingerprints', () => {
  it('are what ssh-keygen -lf prints for the public key blob, and what the shared schema takes', () => {
    for (const { line, fingerprint } of KEYS) {
      const blob = Buffer.from(line.split(' ')[1]!, 'base64');
      expect(hostKeyFingerprint(blob)).toBe(fingerprint);
      expect(HostKeyFingerprint.parse(hostKeyFingerprint(blob))).toBe(fingerprint);
    }
  });

  it('name both keys and the server when they differ', () => {
    const error = new HostKeyMismatch({ host: 'files.example.com', port: 2222 }, KEYS[0]!.fingerprint, KEYS[1]!.fingerprint);
    expect(error.message).toBe(`the SFTP server files.example.com:2222 presented the host key ${KEYS[1]!.fingerprint}, but ${KEYS[0]!.fingerprint} is pinned; the connection was refused before logging in`);
    expect(error).toMatchObject({ expected: KEYS[0]!.fingerprint, presented: KEYS[1]!.fingerprint, host: 'files.example.com', port: 2222 });
  });
});

describe('hostKeyOnSave', () => {
  const FP = 'SHA256:x5fdnafud5spKn2iLJbuPRN2gKSZT1U7mSQpqXFCdTo';
  const server = { host: 'Files.Example.com', port: 22 };
  it('stores the fingerprint given, and forgets on null, whatever the server was', () => {
    expect(hostKeyOnSave(FP, server, { host: 'other.example.com', port: 2222 })).toBe(FP);
    expect(hostKeyOnSave(FP, null, server)).toBe(FP);
    expect(hostKeyOnSave(null, server, server)).toBeNull();
  });
  it('keeps the pinned key for the same server (host in any case), and forgets it for another host or port or when there was none', () => {
    expect(hostKeyOnSave(undefined, server, { host: 'files.example.COM', port: 22 })).toBeUndefined();
    expect(hostKeyOnSave(undefined, server, { host: 'files.example.com', port: 2222 })).toBeNull();
    expect(hostKeyOnSave(undefined, server, { host: 'mirror.example.com', port: 22 })).toBeNull();
    expect(hostKeyOnSave(undefined, null, server)).toBeNull();
  });
});
