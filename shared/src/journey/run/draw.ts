/**
 * The deterministic draw of flowRandom: a pure-JS hash (no node:crypto; this runs in the browser's
 * simulator as on the server), so the same entry at the same step always takes the same branch,
 * even when its transition is retried.
 */

/**
 * A 53-bit hash of `text` (cyrb53: two 32-bit multiply-xorshift lanes over the UTF-16 code units,
 * mixed at the end; public domain). Not cryptographic: it only needs to spread ids evenly.
 */
function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const TWO_POW_53 = 2 ** 53;

/** A number in [0, 1) fixed by person, entry and step. The parts are joined with a separator no id holds. */
export function entryDraw(personId: string, entryId: string, stepId: string): number {
  return hash53(`${personId}\u0000${entryId}\u0000${stepId}`) / TWO_POW_53;
}
