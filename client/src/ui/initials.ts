/**
 * Initials for avatars: the one place the product makes them (users, presence, people).
 *
 * Split by grapheme, what a reader sees as one character (`Intl.Segmenter`), never by UTF-16 code
 * unit: `name[0]` of "😀 Ana" was half an emoji, a lone surrogate shown as "�", and cut a letter
 * from its combining accent or a family emoji from its joiners. Without `Intl.Segmenter` (browsers
 * before 2024), code points: never a lone surrogate; the name is composed (NFC) first, so only an
 * accent with no composed form, or the rest of an emoji sequence, is left behind.
 *
 * Rules: the first grapheme of each of the first two words ("Ana María López" → "AM"; a name in
 * one word, or CJK without spaces, gives one), upper-cased when that keeps it one grapheme ("ß"
 * stays "ß" rather than "SS"), in NFC (a decomposed "é" comes out as one "É"). Leading punctuation
 * of a word is skipped ("(Ana)" → "A"), a word of punctuation alone does not count. Empty when there
 * is nothing to show: Mantine's Avatar then shows its generic person icon, never a "?" or digits.
 */

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** The graphemes of a text, at most `max` of them. */
function graphemes(text: string, max: number): string[] {
  const out: string[] = [];
  if (segmenter) {
    for (const { segment } of segmenter.segment(text)) {
      if (out.length >= max) break;
      out.push(segment);
    }
  } else {
    for (const codePoint of text) {
      if (out.length >= max) break;
      out.push(codePoint);
    }
  }
  return out;
}

function initialOf(word: string): string {
  const first = graphemes(word, 1)[0] ?? '';
  const upper = first.toUpperCase();
  return graphemes(upper, 2).length === 1 ? upper : first;
}

/** Up to two initials of a name, for avatars ('' when the name has no word). */
export function initials(name: string): string {
  const words = name
    .normalize('NFC')
    .split(/\s+/u)
    .map((word) => word.replace(/^\p{P}+/u, ''))
    .filter(Boolean);
  return words.slice(0, 2).map(initialOf).join('').normalize('NFC');
}

/**
 * Initials of an e-mail address, from the words of its local part ("ana.lopez@x.com" → "AL").
 * Digits are not words there ("10023@shop.com" → ''): an avatar showing "1" says nothing.
 */
export function emailInitials(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at > 0 ? email.slice(0, at) : email;
  return initials(local.replace(/[\p{N}\p{P}\p{S}]+/gu, ' '));
}
