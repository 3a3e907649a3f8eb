/**
 * Co-edited texts (title, message, subject, HTML body merge character by character) change under a
 * person's caret when someone else types in the same field. A controlled input given a new value
 * puts the caret at the end; `useKeptCaret` puts it back where it was relative to the text: moved
 * by what was inserted or deleted before it, not by what changed after it.
 */
import { useCallback, useLayoutEffect, useRef, type SyntheticEvent } from 'react';

/** Where position `pos` of `before` is in `after`, the one changed span found by common prefix and suffix. */
export function mapCaret(before: string, after: string, pos: number): number {
  if (before === after) return pos;
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  if (pos <= start) return pos;
  // At or after the end of the changed span: shifted by the change in length.
  if (pos >= before.length - end) return pos + after.length - before.length;
  // Inside the replaced span: the end of what replaced it.
  return after.length - end;
}

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export function useKeptCaret<E extends TextElement>(value: string) {
  const ref = useRef<E>(null);
  // The text and selection as this person last saw them in the field.
  const seen = useRef({ value, start: value.length, end: value.length });
  const remember = useCallback((e: SyntheticEvent<E>) => {
    const el = e.currentTarget;
    seen.current = { value: el.value, start: el.selectionStart ?? el.value.length, end: el.selectionEnd ?? el.value.length };
  }, []);
  useLayoutEffect(() => {
    const el = ref.current;
    const last = seen.current;
    if (el && last.value !== value && document.activeElement === el) {
      const start = mapCaret(last.value, value, last.start);
      const end = mapCaret(last.value, value, last.end);
      el.setSelectionRange(start, Math.max(start, end));
      seen.current = { value, start, end: Math.max(start, end) };
    } else {
      seen.current = { ...last, value };
    }
  }, [value]);
  /** Spread on the input: its ref and the events that tell where the caret is. */
  return { ref, onSelect: remember, onKeyUp: remember, onMouseUp: remember, onInput: remember };
}
