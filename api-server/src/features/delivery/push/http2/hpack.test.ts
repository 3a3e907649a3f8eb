import { describe, expect, it } from 'vitest';
import { HpackDecoder, HpackEncoder, HpackError, HUFFMAN_CODES, huffmanDecode, huffmanEncode, STATIC_TABLE, type HeaderList } from './hpack.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const decodeHuffman = (bytes: Buffer) => huffmanDecode(bytes, 0, bytes.length);

describe('Huffman code (RFC 7541 Appendix B)', () => {
  it('derives the RFC\'s codes from the code lengths', () => {
    // A sample across every length, as printed in Appendix B (code, bits).
    const expected: [number, number, number][] = [
      [0, 0x1ff8, 13], [1, 0x7fffd8, 23], [9, 0xffffea, 24], [10, 0x3ffffffc, 30], [13, 0x3ffffffd, 30], [22, 0x3ffffffe, 30],
      [32, 0x14, 6], [36, 0x1ff9, 13], [38, 0xf8, 8], [48, 0x0, 5], [58, 0x5c, 7], [60, 0x7ffc, 15], [92, 0x7fff0, 19],
      [94, 0x3ffc, 14], [97, 0x3, 5], [116, 0x9, 5], [122, 0x7b, 7], [124, 0x7fc, 11], [127, 0xffffffc, 28],
      [128, 0xfffe6, 20], [129, 0x3fffd2, 22], [153, 0x1fffdc, 21], [195, 0x7fff1, 19], [199, 0x1ffffec, 25],
      [203, 0x7ffffde, 27], [220, 0xffffffd, 28], [249, 0xffffffe, 28], [255, 0x3ffffee, 26], [256, 0x3fffffff, 30],
    ];
    for (const [symbol, code, bits] of expected) expect(HUFFMAN_CODES[symbol], `symbol ${symbol}`).toEqual({ code, bits });
    expect(HUFFMAN_CODES).toHaveLength(257);
  });

  it('decodes and encodes the RFC\'s examples', () => {
    expect(decodeHuffman(hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff'))).toBe('www.example.com');
    expect(decodeHuffman(hex('a8eb 1064 9cbf'))).toBe('no-cache');
    expect(decodeHuffman(hex('25a8 49e9 5ba9 7d7f'))).toBe('custom-key');
    expect(huffmanEncode('custom-value')).toEqual(hex('25a8 49e9 5bb8 e8b4 bf'));
    expect(huffmanEncode('www.example.com')).toEqual(hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff'));
  });

  it('round-trips every octet', () => {
    const all = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
    expect(decodeHuffman(huffmanEncode(all))).toBe(all);
    for (let i = 0; i < 256; i++) expect(decodeHuffman(huffmanEncode(String.fromCharCode(i)))).toBe(String.fromCharCode(i));
  });

  it('refuses padding that is not a short run of ones, and EOS inside a string', () => {
    // 'a' is 00011 (5 bits): padded with 111 it is 0x1f; with zeros it is invalid.
    expect(decodeHuffman(Buffer.from([0x1f]))).toBe('a');
    expect(() => decodeHuffman(Buffer.from([0x18]))).toThrow(HpackError);
    // A whole octet of padding (eight ones) is too long.
    expect(() => decodeHuffman(Buffer.from([0x1f, 0xff]))).toThrow(HpackError);
    // EOS (30 ones) decoded as a symbol.
    expect(() => decodeHuffman(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow(/EOS/);
  });
});

describe('HpackDecoder (RFC 7541 Appendix C)', () => {
  it('C.2: one field of each representation', () => {
    const d = new HpackDecoder();
    expect(d.decode(hex('400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572'))).toEqual([['custom-key', 'custom-header']]);
    expect(d.tableSize).toBe(55);
    expect(d.decode(hex('040c 2f73 616d 706c 652f 7061 7468'))).toEqual([[':path', '/sample/path']]);
    expect(d.decode(hex('1008 7061 7373 776f 7264 0673 6563 7265 74'))).toEqual([['password', 'secret']]);
    expect(d.decode(hex('82'))).toEqual([[':method', 'GET']]);
    // Neither the never-indexed nor the without-indexing field went into the table.
    expect(d.tableSize).toBe(55);
  });

  const requests: HeaderList[] = [
    [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']],
    [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']],
    [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']],
  ];

  it('C.3: requests without Huffman coding, sharing a dynamic table', () => {
    const d = new HpackDecoder();
    expect(d.decode(hex('8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d'))).toEqual(requests[0]);
    expect(d.tableSize).toBe(57);
    expect(d.decode(hex('8286 84be 5808 6e6f 2d63 6163 6865'))).toEqual(requests[1]);
    expect(d.tableSize).toBe(110);
    expect(d.decode(hex('8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65'))).toEqual(requests[2]);
    expect(d.tableSize).toBe(164);
  });

  it('C.4: the same requests with Huffman coding', () => {
    const d = new HpackDecoder();
    expect(d.decode(hex('8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff'))).toEqual(requests[0]);
    expect(d.decode(hex('8286 84be 5886 a8eb 1064 9cbf'))).toEqual(requests[1]);
    expect(d.decode(hex('8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf'))).toEqual(requests[2]);
    expect(d.tableSize).toBe(164);
  });

  it('C.5: responses with a 256-octet table, evicting the oldest entries', () => {
    const d = new HpackDecoder(256);
    const date1 = 'Mon, 21 Oct 2013 20:13:21 GMT';
    expect(d.decode(hex(`4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
      2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d`)))
      .toEqual([[':status', '302'], ['cache-control', 'private'], ['date', date1], ['location', 'https://www.example.com']]);
    expect(d.tableSize).toBe(222);
    // ":status: 307" evicts ":status: 302"; c1 c0 bf are then cache-control, date, location.
    expect(d.decode(hex('4803 3330 37c1 c0bf'))).toEqual([[':status', '307'], ['cache-control', 'private'], ['date', date1], ['location', 'https://www.example.com']]);
    expect(d.tableSize).toBe(222);
    expect(d.decode(hex(`88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
      54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49
      553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31`))).toEqual([
      [':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'],
      ['content-encoding', 'gzip'], ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'],
    ]);
    expect(d.tableSize).toBe(215);
  });

  it('applies a dynamic table size update at the start of a block, and refuses one above the limit or after a field', () => {
    const d = new HpackDecoder(256);
    d.decode(hex('400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572'));
    expect(d.tableSize).toBe(55);
    // 0x20: size update to 0 empties the table; the old entry (index 62) is gone.
    expect(d.decode(hex('20 82'))).toEqual([[':method', 'GET']]);
    expect(d.tableSize).toBe(0);
    expect(() => d.decode(hex('be'))).toThrow(/past the table/);
    // 3f 81 02: 31 + 1 + 2 * 128 = 288, above the 256 allowed.
    expect(() => d.decode(hex('3f 81 02'))).toThrow(/above/);
    expect(() => d.decode(hex('82 20'))).toThrow(/after a header field/);
  });

  it('refuses malformed blocks with HpackError, never another exception', () => {
    const d = new HpackDecoder();
    for (const bad of ['80', 'ff', '40', '4005 6162', '0f', 'ff80808080808080', '00 85 ff']) {
      expect(() => d.decode(hex(bad)), bad).toThrow(HpackError);
    }
    // A header list past the limit.
    const big = new HpackDecoder(4096, 100);
    expect(() => big.decode(Buffer.concat([Buffer.from([0x00, 0x01, 0x61, 0x64]), Buffer.alloc(100, 0x62)]))).toThrow(/too large/);
    expect(big.decode(Buffer.concat([Buffer.from([0x00, 0x01, 0x61, 0x20]), Buffer.alloc(32, 0x62)]))).toEqual([['a', 'b'.repeat(32)]]);
  });
});

describe('HpackEncoder', () => {
  it('uses the static table, indexes the repeated fields once, and sends the rest as literals the decoder reads back', () => {
    const e = new HpackEncoder(['authorization', ':authority']);
    const d = new HpackDecoder();
    const token = `bearer ${'x'.repeat(200)}`;
    const block = (path: string): HeaderList => [[':method', 'POST'], [':scheme', 'https'], [':authority', 'api.push.apple.com'], [':path', path], ['authorization', token], ['apns-expiration', '0']];
    const first = e.encode(block('/3/device/aa'));
    expect(d.decode(first)).toEqual(block('/3/device/aa'));
    const second = e.encode(block('/3/device/bb'));
    expect(d.decode(second)).toEqual(block('/3/device/bb'));
    // The token and authority went in once; the second block refers to them by index.
    expect(first.length).toBeGreaterThan(230);
    expect(second.length).toBeLessThan(40);
    expect(second[0]).toBe(0x83); // :method POST, static index 3
    // Exactly the two indexed fields are in the decoder's table (name + value + 32 each).
    expect(d.tableSize).toBe((':authority'.length + 'api.push.apple.com'.length + 32) + ('authorization'.length + token.length + 32));
  });

  it('evicts like the decoder does, so indexes stay in step across many renewed tokens', () => {
    const e = new HpackEncoder(['authorization']);
    const d = new HpackDecoder();
    for (let i = 0; i < 200; i++) {
      // A new 500-octet token every 10 blocks: the 4,096-octet table keeps evicting.
      const fields: HeaderList = [[':path', `/p/${i}`], ['authorization', `bearer ${String(Math.floor(i / 10)).padStart(500, '0')}`]];
      expect(d.decode(e.encode(fields))).toEqual(fields);
      expect(d.tableSize).toBeLessThanOrEqual(4096);
    }
  });

  it('never refers to an entry the decoder has evicted (two tokens that do not fit the table together)', () => {
    const e = new HpackEncoder(['authorization']);
    const d = new HpackDecoder();
    const a: HeaderList = [['authorization', `bearer ${'a'.repeat(3000)}`]];
    const b: HeaderList = [['authorization', `bearer ${'b'.repeat(3000)}`]];
    for (const fields of [a, b, a, b, a]) expect(d.decode(e.encode(fields))).toEqual(fields);
    // Each block had to carry its token again: the other one had pushed it out.
    expect(e.encode(a).length).toBeLessThan(5);
    expect(e.encode(b).length).toBeGreaterThan(3000);
  });

  it('follows the peer\'s SETTINGS_HEADER_TABLE_SIZE with a size update in the next block', () => {
    const e = new HpackEncoder(['authorization']);
    const d = new HpackDecoder();
    const fields: HeaderList = [['authorization', 'bearer abc']];
    d.decode(e.encode(fields));
    expect(d.tableSize).toBe(55);
    e.setLimit(0);
    const block = e.encode(fields);
    expect(block[0]).toBe(0x20);
    expect(d.decode(block)).toEqual(fields);
    expect(d.tableSize).toBe(0);
    // Down to 0 then back up before a block: both updates, smallest first.
    e.setLimit(4096);
    e.setLimit(0);
    e.setLimit(4096);
    const again = e.encode(fields);
    // 20: size 0; 3f e1 1f: 31 + 97 + 31 * 128 = 4096.
    expect([...again.subarray(0, 4)]).toEqual([0x20, 0x3f, 0xe1, 0x1f]);
    expect(d.decode(again)).toEqual(fields);
    expect(d.tableSize).toBe(55);
  });

  it('keeps the static table of Appendix A', () => {
    expect(STATIC_TABLE).toHaveLength(61);
    expect(STATIC_TABLE[0]).toEqual([':authority', '']);
    expect(STATIC_TABLE[7]).toEqual([':status', '200']);
    expect(STATIC_TABLE[60]).toEqual(['www-authenticate', '']);
  });
});
