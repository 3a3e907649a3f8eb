import { describe, expect, it } from 'vitest';
import { mapCaret } from './caret.ts';

describe('mapCaret', () => {
  it('keeps a caret before the change where it is', () => {
    expect(mapCaret('Hello world', 'Hello brave world', 3)).toBe(3);
  });
  it('moves a caret after the change by what was inserted or deleted', () => {
    expect(mapCaret('Hello world', 'Hello brave world', 8)).toBe(14);
    expect(mapCaret('Hello brave world', 'Hello world', 14)).toBe(8);
  });
  it('puts a caret inside a replaced span at its end', () => {
    expect(mapCaret('Hello world', 'Hello there', 8)).toBe(11);
  });
  it('is the caret itself when nothing changed', () => {
    expect(mapCaret('same', 'same', 2)).toBe(2);
  });
});
