/**
 * The address guards over random addresses: the API's connection guard (netGuard.ts
 * `isRefusedAddress`, `resolvePublic`) and the shared syntactic checks (formats.ts
 * `isPrivateHost`, `isPublicUrl`). Every address in a non-public range (private, loopback,
 * link-local, unique-local, carrier-grade NAT, multicast, unspecified, documentation, benchmark,
 * reserved), in every spelling (IPv4 numbers in decimal, hex and octal, short forms, trailing dots,
 * IPv4 inside IPv6, brackets, upper case, leading zeros), is refused; random public addresses pass;
 * and the two guards agree on every address.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv4HostNumber, isNonPublicAddress, isPrivateHost, isPublicUrl } from '@gd/shared';
import { isRefusedAddress, resolvePublic } from './netGuard.ts';

// The reference: IANA special-purpose ranges that are not globally reachable (written here
// independently of both guards).
const V4: [number, number][] = ([
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const).map(([net, prefix]) => [net.split('.').reduce((n, p) => n * 256 + Number(p), 0), prefix]);
/** IPv6 ranges as [first groups, prefix]. */
const V6: [number[], number][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128], [[0, 0, 0, 0, 0, 0, 0, 1], 128], [[0xfc00], 7], [[0xfe80], 10], [[0xfec0], 10], [[0xff00], 8],
  [[0x2001, 0x0db8], 32], [[0x3fff], 20], [[0x0100, 0, 0, 0], 64], [[0x2001], 23],
];
const inV4 = (n: number) => V4.some(([net, prefix]) => Math.floor(n / 2 ** (32 - prefix)) === Math.floor(net / 2 ** (32 - prefix)));

const u32 = fc.nat({ max: 2 ** 32 - 1 });
const refusedV4 = fc.tuple(fc.constantFrom(...V4), u32).map(([[net, prefix], r]) => net + (r % 2 ** (32 - prefix)));
const publicV4 = u32.filter((n) => !inV4(n));
const bytes = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as const;
const dotted = (n: number) => bytes(n).join('.');
const hex4 = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);

/** Ways the URL standard (and inet_aton) read an IPv4 address. */
function spellV4(n: number): fc.Arbitrary<string> {
  const [a, b, c, d] = bytes(n);
  const part = (x: number) => fc.constantFrom(String(x), `0x${x.toString(16)}`, `0X${x.toString(16).toUpperCase()}`, x === 0 ? '0' : `0${x.toString(8)}`);
  return fc.oneof(
    fc.constant(dotted(n)),
    fc.constant(String(n)),
    fc.constantFrom(`0x${n.toString(16)}`, `0${n.toString(8)}`),
    fc.constant(`${a}.${(n & 0xffffff) >>> 0}`),
    fc.constant(`${a}.${b}.${n & 0xffff}`),
    fc.tuple(part(a), part(b), part(c), part(d)).map((p) => p.join('.')),
    fc.constant(`${dotted(n)}.`),
  );
}

/** A random address in an IPv6 range (its prefix bits fixed). */
const inRange = ([net, prefix]: [number[], number]) => fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 }).map((g) => g.map((x, i) => {
  const bits = Math.max(0, Math.min(16, prefix - i * 16));
  const mask = (0xffff << (16 - bits)) & 0xffff;
  return ((net[i] ?? 0) & mask) | (x & ~mask & 0xffff);
}));
const inV6 = (g: readonly number[]) => V6.some(([net, prefix]) => g.every((x, i) => {
  const bits = Math.max(0, Math.min(16, prefix - i * 16));
  const mask = (0xffff << (16 - bits)) & 0xffff;
  return (x & mask) === ((net[i] ?? 0) & mask);
}));
/** Global unicast outside the reserved ranges (6to4 apart: it carries an IPv4 address). */
const publicV6 = fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 })
  .map((g) => [0x2000 + (g[0]! % 0x2000), ...g.slice(1)])
  .filter((g) => !inV6(g) && g[0] !== 0x2002);
/** IPv6 spellings: full, leading zeros, upper case, the longest zero run as ::. */
function spellV6(groups: readonly number[]): fc.Arbitrary<string> {
  const compressed = () => {
    let best = [-1, 0];
    for (let i = 0; i < 8;) {
      if (groups[i] !== 0) { i++; continue; }
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > best[1]!) best = [i, j - i];
      i = j;
    }
    const hex = groups.map((x) => x.toString(16));
    if (best[1]! < 2) return hex.join(':');
    return `${hex.slice(0, best[0]).join(':')}::${hex.slice(best[0]! + best[1]!).join(':')}`;
  };
  return fc.constantFrom(
    groups.map((x) => x.toString(16)).join(':'),
    groups.map((x) => x.toString(16).padStart(4, '0')).join(':'),
    compressed(),
    compressed().toUpperCase(),
  );
}
/** A refused IPv4 address carried by IPv6: mapped, compatible, SIIT, NAT64, 6to4. */
const embeddedRefused = fc.tuple(refusedV4, fc.nat({ max: 6 })).map(([n, form]) => {
  const [a, b, c, d] = bytes(n);
  return [
    `::ffff:${dotted(n)}`, `::ffff:${hex4(a, b)}:${hex4(c, d)}`, `::${dotted(n)}`, `::ffff:0:${dotted(n)}`,
    `64:ff9b::${dotted(n)}`, `64:ff9b:1::${hex4(a, b)}:${hex4(c, d)}`, `2002:${hex4(a, b)}:${hex4(c, d)}::1`,
  ][form]!;
});
const refusedV6 = fc.oneof(fc.constantFrom(...V6).chain(inRange).chain(spellV6), embeddedRefused);

describe('address guards (property)', () => {
  it('refuse every non-public IPv4 address in every spelling', () => {
    fc.assert(fc.property(refusedV4.chain((n) => fc.tuple(fc.constant(n), spellV4(n))), ([n, spelled]) => {
      expect(isRefusedAddress(dotted(n))).toBe(true);
      expect(isPrivateHost(spelled)).toBe(true);
      expect(isPublicUrl(`http://${spelled}/list.csv`)).toBe(false);
      expect(isPublicUrl(`ftp://[::ffff:${dotted(n)}]/list.csv`)).toBe(false);
    }), { numRuns: 1000 });
  });

  it('let every public IPv4 address through, in every spelling', () => {
    fc.assert(fc.property(publicV4.chain((n) => fc.tuple(fc.constant(n), spellV4(n))), ([n, spelled]) => {
      expect(isRefusedAddress(dotted(n))).toBe(false);
      expect(isRefusedAddress(`::ffff:${dotted(n)}`)).toBe(false);
      expect(ipv4HostNumber(spelled)).toBe(n);
      expect(isPrivateHost(spelled)).toBe(false);
      expect(isPublicUrl(`https://${spelled}/list.csv`)).toBe(true);
    }), { numRuns: 1000 });
  });

  it('refuse every non-public IPv6 address, bracketed or not', () => {
    fc.assert(fc.property(refusedV6, (spelled) => {
      expect(isRefusedAddress(spelled.toLowerCase())).toBe(true);
      expect(isPrivateHost(spelled)).toBe(true);
      expect(isPrivateHost(`[${spelled}]`)).toBe(true);
      expect(isPublicUrl(`http://[${spelled}]/list.csv`)).toBe(false);
    }), { numRuns: 1000 });
  });

  it('let every public IPv6 address through', () => {
    fc.assert(fc.property(publicV6.chain(spellV6), (spelled) => {
      expect(isRefusedAddress(spelled.toLowerCase())).toBe(false);
      expect(isPrivateHost(`[${spelled}]`)).toBe(false);
      expect(isPublicUrl(`https://[${spelled}]:8443/list.csv`)).toBe(true);
    }), { numRuns: 1000 });
  });

  it('agree with each other on any address', () => {
    const anyV6 = fc.oneof(fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 }), fc.constantFrom(...V6).chain(inRange)).chain(spellV6);
    const anyAddress = fc.oneof(u32.map(dotted), refusedV4.map(dotted), anyV6, embeddedRefused, publicV4.map((n) => `::ffff:${dotted(n)}`), publicV4.map((n) => `64:ff9b::${dotted(n)}`));
    fc.assert(fc.property(anyAddress, (address) => {
      expect(isPrivateHost(address), address).toBe(isRefusedAddress(address.toLowerCase()));
      expect(isNonPublicAddress(address), address).toBe(isRefusedAddress(address.toLowerCase()));
    }), { numRuns: 2000 });
  });

  it('refuse names that stand for this machine, however they end', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    const local = fc.tuple(fc.array(label, { maxLength: 2 }), fc.constantFrom('localhost', 'local', 'internal', 'LOCALHOST'), fc.constantFrom('', '.', '..'))
      .map(([labels, tld, dots]) => [...labels, tld].join('.') + dots)
      .filter((h) => !/^(local|internal)\.*$/i.test(h));
    fc.assert(fc.property(local, (host) => {
      expect(isPrivateHost(host)).toBe(true);
      expect(isPublicUrl(`http://${host}/list.csv`)).toBe(false);
    }), { numRuns: 300 });
  });

  it('resolve numeric spellings before deciding, and refuse the non-public ones', async () => {
    const spelled = refusedV4.chain((n) => spellV4(n)).filter((s) => !s.endsWith('.'));
    await fc.assert(fc.asyncProperty(spelled, async (host) => {
      await expect(resolvePublic(host)).rejects.toMatchObject({ kind: 'CopyImportFileError' });
    }), { numRuns: 40 });
  });
});

describe('found by the property', () => {
  it('reads IPv4 numbers as the URL standard does (0x7f.1, 2130706433, 0177.0.0.1, 127.1 are loopback)', () => {
    for (const host of ['2130706433', '0x7f000001', '017700000001', '0x7f.1', '127.1', '127.0.1', '0177.0.0.1', '0X7F.0.0.1', '0']) {
      expect(isPrivateHost(host), host).toBe(true);
    }
    expect(ipv4HostNumber('010.0.0.1')).toBe(0x08000001);
    expect(isPrivateHost('010.0.0.1')).toBe(false);
    expect(isPrivateHost('08.0.0.1')).toBe(true); // no address: refused, as the URL standard refuses it
    expect(isPrivateHost('1.2.3.4.example.com')).toBe(false);
    // An IPv6 address with a dotted tail is not an IPv4 number.
    expect(isPrivateHost('64:ff9b::11.0.0.0')).toBe(false);
  });

  it('refuses documentation, benchmark and relay ranges in forms as at connection time', () => {
    for (const url of ['http://192.0.2.1/a.csv', 'http://198.18.0.1/a.csv', 'http://203.0.113.9/a.csv', 'http://192.88.99.1/a.csv', 'http://[3fff::1]/a.csv', 'http://[2001:db8::1]/a.csv']) {
      expect(isPublicUrl(url), url).toBe(false);
    }
    expect(isRefusedAddress('3fff:fff::1')).toBe(true);
  });
});
