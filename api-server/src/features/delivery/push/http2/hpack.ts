/**
 * HPACK (RFC 7541), the header compression of HTTP/2, for the push clients' own HTTP/2 connection
 * (connection.ts says why the clients do not use node:http2).
 *
 * Decoding is complete: indexed fields, the three literal forms, dynamic table size updates, the
 * dynamic table with its eviction, and Huffman-coded strings, since a server may use any of them.
 * Encoding uses what a client sending the same few headers thousands of times a second needs: a
 * static-table match, incremental indexing for the fields the caller marks as repeating (the
 * provider token, the topic), and plain literals for the rest (device tokens, expirations), which
 * are never worth a table entry. Strings are sent without Huffman coding: it would save a few
 * bytes per request and cost more CPU than it saves on the wire.
 *
 * Errors are `HpackError` (the connection answers them with COMPRESSION_ERROR, RFC 9113 4.3).
 */

export class HpackError extends Error {
  override name = 'HpackError';
}

/** RFC 7541 Appendix A: index 1..61. */
export const STATIC_TABLE: readonly (readonly [string, string])[] = [
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''],
  ['etag', ''], ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''],
  ['if-modified-since', ''], ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''],
  ['last-modified', ''], ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''], ['retry-after', ''],
  ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''], ['transfer-encoding', ''],
  ['user-agent', ''], ['vary', ''], ['via', ''], ['www-authenticate', ''],
];

const STATIC_PAIR = new Map<string, number>();
const STATIC_NAME = new Map<string, number>();
STATIC_TABLE.forEach(([name, value], i) => {
  STATIC_PAIR.set(`${name}\n${value}`, i + 1);
  if (!STATIC_NAME.has(name)) STATIC_NAME.set(name, i + 1);
});

/** RFC 7541 4.1: an entry's size is its name and value in octets plus 32. */
const entrySize = (name: string, value: string) => name.length + value.length + 32;

// ── Huffman (RFC 7541 Appendix B) ──────────────────────────────────────────────────────────────

/**
 * The code length of every symbol 0..256 (256 is EOS) from Appendix B, one letter each: 'a' is 5
 * bits, 'b' 6 and so on to 'z' (30). The code is canonical (within a length, codes rise with the
 * symbol; each length starts where the shorter one ended, shifted), so the lengths alone give every
 * code; hpack.test.ts checks codes against the RFC's table and its worked examples.
 */
const CODE_LENGTHS =
  'isxxxxxxxtzxxzxxxxxxxxzxxxxxxxxxbffhibdgffdgdbbbaaabbbbbbbcdkbhfibccccccccccccccccccccccdcdioijbkab' +
  'ababbbaccbbbabcbaabccccckgjixprpprrrsrssssststtrstssssqrsrsstrqprrssqsrrtqrssqqrqsrssprrrsrrsvvporsr' +
  'uvvvwwvtuoqvwwvwtqqvvxwwwptpqrqqsrruuttvsvwvvwwwwwxwwwwwvz';
const EOS = 256;

/** Each symbol's code and length (exported for the tests that check them against the RFC). */
export const HUFFMAN_CODES: readonly { code: number; bits: number }[] = (() => {
  const bits = Array.from(CODE_LENGTHS, (c) => c.charCodeAt(0) - 97 + 5);
  if (bits.length !== 257) throw new Error('HPACK Huffman table: 257 code lengths expected');
  const order = bits.map((_, s) => s).sort((a, b) => (bits[a] ?? 0) - (bits[b] ?? 0) || a - b);
  const codes = new Array<{ code: number; bits: number }>(257);
  let code = 0;
  let previous = bits[order[0] ?? 0] ?? 0;
  for (const s of order) {
    const length = bits[s] ?? 0;
    // Multiplication, not <<: codes reach 30 bits and the shift would be in 32-bit signed arithmetic.
    code *= 2 ** (length - previous);
    previous = length;
    codes[s] = { code, bits: length };
    code++;
  }
  return codes;
})();

/**
 * The decoding tree, a node per prefix: child[2n] and child[2n+1] are node n's children for a 0
 * and a 1 bit, a negative child is a leaf holding symbol -child-1.
 */
const TREE: Int32Array = (() => {
  const child = new Int32Array(2 * 2 * 257).fill(0);
  let nodes = 1;
  HUFFMAN_CODES.forEach(({ code, bits }, symbol) => {
    let node = 0;
    for (let i = bits - 1; i >= 0; i--) {
      const bit = Math.floor(code / 2 ** i) % 2;
      const slot = 2 * node + bit;
      if (i === 0) child[slot] = -symbol - 1;
      else {
        if (child[slot] === 0) child[slot] = nodes++;
        node = child[slot] ?? 0;
      }
    }
  });
  return child;
})();

/** Decodes a Huffman-coded string (RFC 7541 5.2): octets as latin1, as node:http2 gives them. */
export function huffmanDecode(data: Uint8Array, start: number, end: number): string {
  let out = '';
  let node = 0;
  // Bits read since the last complete symbol, and whether they were all ones (the only padding allowed).
  let pending = 0;
  let allOnes = true;
  for (let i = start; i < end; i++) {
    const octet = data[i] ?? 0;
    for (let b = 7; b >= 0; b--) {
      const bit = (octet >> b) & 1;
      const next = TREE[2 * node + bit] ?? 0;
      pending++;
      if (bit === 0) allOnes = false;
      if (next < 0) {
        const symbol = -next - 1;
        if (symbol === EOS) throw new HpackError('Huffman string contains EOS');
        out += String.fromCharCode(symbol);
        node = 0;
        pending = 0;
        allOnes = true;
      } else if (next === 0) {
        throw new HpackError('invalid Huffman code');
      } else node = next;
    }
  }
  // Padding: fewer than 8 bits, all ones (a prefix of EOS).
  if (pending > 7 || !allOnes) throw new HpackError('invalid Huffman padding');
  return out;
}

/** Huffman-encodes latin1 text (the tests use it to build the blocks a server may send). */
export function huffmanEncode(text: string): Buffer {
  const out: number[] = [];
  let acc = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const { code, bits } = HUFFMAN_CODES[text.charCodeAt(i) & 0xff] ?? { code: 0, bits: 0 };
    for (let b = bits - 1; b >= 0; b--) {
      acc = (acc << 1) | (Math.floor(code / 2 ** b) % 2);
      if (++n === 8) {
        out.push(acc);
        acc = 0;
        n = 0;
      }
    }
  }
  if (n > 0) out.push(((acc << (8 - n)) | (0xff >> n)) & 0xff);
  return Buffer.from(out);
}

// ── Integers and strings (RFC 7541 5.1, 5.2) ─────────────────────────────────────────────────────

/** Largest integer accepted: far past any table index or string length a sane peer sends. */
const MAX_INT = 2 ** 24;

/** Writes `value` with an N-bit prefix; `first` carries the representation's flag bits. */
function pushInt(out: number[], first: number, prefixBits: number, value: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(first | value);
    return;
  }
  out.push(first | max);
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

function pushString(out: number[], text: string): void {
  pushInt(out, 0, 7, text.length);
  for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i) & 0xff);
}

// ── Decoder ──────────────────────────────────────────────────────────────────────────────────────

export type HeaderList = [name: string, value: string][];

/** Decodes header blocks with one dynamic table, as one connection's peer encodes them. */
export class HpackDecoder {
  private table: [string, string][] = [];
  private size = 0;
  private max: number;
  /** The largest table the peer may use: what our SETTINGS_HEADER_TABLE_SIZE allowed. */
  private readonly limit: number;
  /** Largest decoded header list accepted (name + value + 32 per field, as RFC 9113 counts it). */
  private readonly maxListSize: number;

  constructor(limit = 4096, maxListSize = 64 * 1024) {
    this.limit = limit;
    this.max = limit;
    this.maxListSize = maxListSize;
  }

  /** Entries in the dynamic table now (for the tests). */
  get tableSize(): number {
    return this.size;
  }

  decode(block: Uint8Array): HeaderList {
    const fields: HeaderList = [];
    let pos = 0;
    let listSize = 0;
    let fieldSeen = false;

    const readInt = (prefixBits: number): number => {
      const mask = (1 << prefixBits) - 1;
      let value = (block[pos++] ?? 0) & mask;
      if (value < mask) return value;
      let factor = 1;
      for (;;) {
        if (pos >= block.length) throw new HpackError('truncated integer');
        const octet = block[pos++] ?? 0;
        value += (octet & 127) * factor;
        factor *= 128;
        if (value > MAX_INT) throw new HpackError('integer too large');
        if ((octet & 128) === 0) return value;
      }
    };
    const readString = (): string => {
      if (pos >= block.length) throw new HpackError('truncated string');
      const huffman = ((block[pos] ?? 0) & 0x80) !== 0;
      const length = readInt(7);
      if (pos + length > block.length) throw new HpackError('truncated string');
      const start = pos;
      pos += length;
      return huffman ? huffmanDecode(block, start, pos) : Buffer.from(block.buffer, block.byteOffset + start, length).toString('latin1');
    };
    const entry = (index: number): readonly [string, string] => {
      if (index === 0) throw new HpackError('index 0');
      if (index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1] ?? ['', ''];
      const dynamic = this.table[index - STATIC_TABLE.length - 1];
      if (!dynamic) throw new HpackError(`index ${index} is past the table`);
      return dynamic;
    };
    const emit = (name: string, value: string) => {
      listSize += entrySize(name, value);
      if (listSize > this.maxListSize) throw new HpackError('header list too large');
      fields.push([name, value]);
      fieldSeen = true;
    };

    while (pos < block.length) {
      const octet = block[pos] ?? 0;
      if (octet & 0x80) {
        // 6.1 Indexed header field.
        const [name, value] = entry(readInt(7));
        emit(name, value);
      } else if (octet & 0x40) {
        // 6.2.1 Literal with incremental indexing.
        const index = readInt(6);
        const name = index === 0 ? readString() : entry(index)[0];
        const value = readString();
        this.insert(name, value);
        emit(name, value);
      } else if (octet & 0x20) {
        // 6.3 Dynamic table size update: only before the block's first field, never above our limit.
        if (fieldSeen) throw new HpackError('table size update after a header field');
        const size = readInt(5);
        if (size > this.limit) throw new HpackError(`table size ${size} is above the ${this.limit} allowed`);
        this.max = size;
        this.evict(0);
      } else {
        // 6.2.2 without indexing (0000), 6.2.3 never indexed (0001).
        const index = readInt(4);
        const name = index === 0 ? readString() : entry(index)[0];
        emit(name, readString());
      }
    }
    return fields;
  }

  private insert(name: string, value: string): void {
    const size = entrySize(name, value);
    // An entry larger than the table empties it and is not added (4.4).
    this.evict(size);
    if (size <= this.max) {
      this.table.unshift([name, value]);
      this.size += size;
    }
  }

  /** Evicts the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.size + room > this.max && this.table.length > 0) {
      const [name, value] = this.table.pop() ?? ['', ''];
      this.size -= entrySize(name, value);
    }
  }
}

// ── Encoder ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Encodes header blocks for one connection. `indexed` names are added to the dynamic table the
 * first time a value is sent and referenced by index after (the provider token is ~200 octets on
 * every request otherwise); all others are literals without indexing. The table follows the
 * peer's SETTINGS_HEADER_TABLE_SIZE (`setLimit`), announced with a size update in the next block.
 * Blocks must reach the peer in the order they were encoded (the connection writes them so).
 */
export class HpackEncoder {
  private table: { key: string; size: number }[] = [];
  private size = 0;
  private max: number;
  private pendingUpdate: number | null = null;
  private readonly indexed: ReadonlySet<string>;

  constructor(indexed: Iterable<string> = [], max = 4096) {
    this.indexed = new Set(indexed);
    this.max = max;
  }

  /** The peer changed SETTINGS_HEADER_TABLE_SIZE: use at most that (and at most 4096) from the next block. */
  setLimit(peerLimit: number): void {
    const max = Math.min(peerLimit, 4096);
    if (max === this.max && this.pendingUpdate === null) return;
    this.max = max;
    this.pendingUpdate = Math.min(this.pendingUpdate ?? max, max);
    this.evict(0);
  }

  encode(fields: HeaderList): Buffer {
    const out: number[] = [];
    if (this.pendingUpdate !== null) {
      // If the limit went down and up again, the decoder must see the smallest first (RFC 7541 4.2).
      if (this.pendingUpdate !== this.max) pushInt(out, 0x20, 5, this.pendingUpdate);
      pushInt(out, 0x20, 5, this.max);
      this.pendingUpdate = null;
    }
    for (const [name, value] of fields) {
      const pair = STATIC_PAIR.get(`${name}\n${value}`);
      if (pair !== undefined) {
        pushInt(out, 0x80, 7, pair);
        continue;
      }
      if (this.indexed.has(name)) {
        const key = `${name}\n${value}`;
        const position = this.table.findIndex((e) => e.key === key);
        if (position >= 0) {
          pushInt(out, 0x80, 7, STATIC_TABLE.length + 1 + position);
          continue;
        }
        const size = entrySize(name, value);
        if (size <= this.max) {
          const nameIndex = STATIC_NAME.get(name);
          pushInt(out, 0x40, 6, nameIndex ?? 0);
          if (nameIndex === undefined) pushString(out, name);
          pushString(out, value);
          this.evict(size);
          this.table.unshift({ key, size });
          this.size += size;
          continue;
        }
      }
      const nameIndex = STATIC_NAME.get(name);
      pushInt(out, 0x00, 4, nameIndex ?? 0);
      if (nameIndex === undefined) pushString(out, name);
      pushString(out, value);
    }
    return Buffer.from(out);
  }

  private evict(room: number): void {
    while (this.size + room > this.max && this.table.length > 0) this.size -= this.table.pop()?.size ?? 0;
  }
}
