import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { identifierBatches, identifierColumn } from './csv.ts';
import { ImportFailure } from './errors.ts';
import fc from 'fast-check';
import { isPrivateHost, isPublicUrl } from '@gd/shared';
import { allowList, embeddedIpv4, isRefusedAddress, resolvePublic } from './netGuard.ts';
import { openSecrets, sealSecrets } from './secretBox.ts';

async function collect(text: string | Buffer[], idType: 'customerId' | 'deviceId' | '{product}Id' = 'customerId', batchRows = 2): Promise<string[][]> {
  const source = Readable.from(typeof text === 'string' ? [Buffer.from(text)] : text);
  const batches: string[][] = [];
  for await (const batch of identifierBatches(source, { idType, batchRows })) batches.push(batch);
  return batches;
}

async function failure(text: string): Promise<ImportFailure> {
  try {
    await collect(text);
  } catch (error) {
    if (error instanceof ImportFailure) return error;
    throw error;
  }
  throw new Error('no failure');
}

describe('CSV identifiers', () => {
  it('takes the column the header names for the id type, else the first', () => {
    expect(identifierColumn(['email', 'Customer ID'], 'customerId')).toBe(1);
    expect(identifierColumn(['name', 'device_id'], 'deviceId')).toBe(1);
    expect(identifierColumn(['x', 'IDFA'], 'deviceId')).toBe(1);
    expect(identifierColumn(['email', 'id'], '{product}Id')).toBe(1);
    expect(identifierColumn(['whatever', 'else'], 'customerId')).toBe(0);
  });

  it('streams batches of identifiers with RFC 4180 quoting, BOM, CRLF and empty lines', async () => {
    const text = '\uFEFFemail,customer_id\r\na@x.com,c1\r\n"b, with comma",c2\r\n\r\n"c ""q""",  c3  \nd,"c4\nmulti"\ne,"c""5"\n';
    expect(await collect(text)).toEqual([['c1', 'c2'], ['c3', 'c4\nmulti'], ['c"5']]);
  });

  it('reads a file split anywhere across chunks', async () => {
    const text = 'id\nc1\n"c,2"\nc3\n';
    const chunks = [...Buffer.from(text)].map((b) => Buffer.from([b]));
    expect((await collect(chunks, 'customerId', 10)).flat()).toEqual(['c1', 'c,2', 'c3']);
  });

  it('answers no batch for a header alone', async () => {
    expect(await collect('customer_id\n')).toEqual([]);
  });

  it('fails with CsvSyntaxError and the line of an unterminated quote', async () => {
    const error = await failure('customer_id,email\nc1,a\nc2,b\n"c3,c\nc4,d\n');
    expect(error.kind).toBe('CsvSyntaxError');
    expect(error.line).toBeGreaterThanOrEqual(4);
    expect(error.message).toMatch(/^CsvSyntaxError: line \d+: /);
  });

  it('fails with the line of a stray quote and of a row with another field count', async () => {
    const quote = await failure('customer_id,email\nc1,a\nc2,b"x"\n');
    expect(quote.kind).toBe('CsvSyntaxError');
    expect(quote.line).toBe(3);
    const count = await failure('customer_id,email\nc1,a\nc2,b\nc3,c,extra\nc4,d\n');
    expect(count.kind).toBe('CsvSyntaxError');
    expect(count.line).toBe(4);
    expect(count.message).toContain('line 4');
  });

  it('names a failing source as CopyImportFileError, not as bad CSV', async () => {
    const source = new Readable({ read() { this.push('customer_id\nc1\n'); this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })); } });
    let caught: unknown;
    try {
      for await (const _ of identifierBatches(source, { idType: 'customerId', batchRows: 10 })) { /* drain */ }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportFailure);
    expect((caught as ImportFailure).kind).toBe('CopyImportFileError');
    expect((caught as ImportFailure).recoverable).toBe(true);
  });
});

describe('private address guard', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '::ffff:169.254.169.254', '64:ff9b::10.0.0.1', '::ffff:a9fe:a9fe', 'not-an-ip',
    // IPv4-compatible (what URL parsing makes of [::127.0.0.1]), SIIT, NAT64 local use, 6to4, link-local fe90::
    '::7f00:1', '::127.0.0.1', '::a00:1', '::ffff:0:7f00:1', '64:ff9b:1::a9fe:a9fe', '2002:7f00:1::', '2002:c0a8:101::1', 'fe90::1', 'febf::1',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '::808:808'])('lets %s through', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it('reads IPv4 inside IPv6 in every spelling', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('::7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('2002:c0a8:101::')).toBe('192.168.1.1');
    expect(embeddedIpv4('::1')).toBeNull();
  });

  it('refuses every private IPv4 address written in any IPv6 form (property)', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(127), octet, octet, octet), fc.tuple(fc.constant(10), octet, octet, octet),
      fc.tuple(fc.constant(192), fc.constant(168), octet, octet), fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
    );
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    fc.assert(fc.property(privateV4, fc.integer({ min: 0, max: 6 }), ([a, b, c, d], form) => {
      const spelled = [
        `::${a}.${b}.${c}.${d}`, `::${hex(a, b)}:${hex(c, d)}`, `::ffff:${hex(a, b)}:${hex(c, d)}`, `::ffff:0:${a}.${b}.${c}.${d}`,
        `64:ff9b::${hex(a, b)}:${hex(c, d)}`, `64:ff9b:1::${a}.${b}.${c}.${d}`, `2002:${hex(a, b)}:${hex(c, d)}::1`,
      ][form]!;
      expect(isRefusedAddress(spelled)).toBe(true);
      expect(isPrivateHost(`[${spelled}]`)).toBe(true);
      expect(isPublicUrl(`http://[${spelled}]/a.csv`)).toBe(false);
    }));
  });

  it('refuses hosts spelled to slip past a name check', () => {
    for (const url of ['http://localhost./a.csv', 'http://[::127.0.0.1]/a.csv', 'http://[fe90::1]/a.csv', 'ftp://[::ffff:7f00:1]/a.csv', 'http://127.0.0.1./a.csv']) {
      expect(isPublicUrl(url)).toBe(false);
    }
    expect(isPublicUrl('https://example.com./a.csv')).toBe(true);
  });

  it('lets listed loopback addresses and ranges through, and only those', () => {
    const allowed = allowList('127.0.0.1, 127.0.1.0/24, ::1');
    expect(isRefusedAddress('127.0.0.1', allowed)).toBe(false);
    expect(isRefusedAddress('::ffff:127.0.0.1', allowed)).toBe(false);
    expect(isRefusedAddress('127.0.1.9', allowed)).toBe(false);
    expect(isRefusedAddress('::1', allowed)).toBe(false);
    expect(isRefusedAddress('127.0.0.2', allowed)).toBe(true);
    expect(isRefusedAddress('10.8.0.1', allowed)).toBe(true);
    // Only loopback can be let through: no configuration opens the private network or the metadata address.
    for (const spec of ['nonsense', '10.9.0.0/16', '169.254.169.254', '0.0.0.0/0', '127.0.0.0/7', '::/0', 'fe80::1']) {
      expect(() => allowList(spec), spec).toThrow(/OUTGOING_ALLOW_LOOPBACK/);
    }
  });

  it('resolves names before deciding: localhost is refused, an allowed literal answers itself', async () => {
    await expect(resolvePublic('localhost')).rejects.toMatchObject({ kind: 'CopyImportFileError' });
    await expect(resolvePublic('[::1]')).rejects.toThrow(/private address/);
    await expect(resolvePublic('127.0.0.1', allowList('127.0.0.1'))).resolves.toEqual({ host: '127.0.0.1', address: '127.0.0.1', family: 4 });
  });
});

describe('sealed secrets', () => {
  const secret = 'a-server-secret-of-enough-length-0123456789';
  it('opens with the same server secret and row only', () => {
    const blob = sealSecrets(secret, 'row-1', { ftpPassword: 's3cr3t!' });
    expect(blob.includes(Buffer.from('s3cr3t!'))).toBe(false);
    expect(openSecrets(secret, 'row-1', blob)).toEqual({ ftpPassword: 's3cr3t!' });
    expect(openSecrets(secret, 'row-2', blob)).toBeNull();
    expect(openSecrets(`${secret}x`, 'row-1', blob)).toBeNull();
    const tampered = Buffer.from(blob);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(openSecrets(secret, 'row-1', tampered)).toBeNull();
  });
});
