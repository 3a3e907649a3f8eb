/**
 * Typed fields hold a local draft: the shared document gets the value 300 ms after typing stops,
 * on Enter and on blur, not on every keystroke. While a person types, the field shows their draft;
 * once it is committed, a different value from the document (another person's change) shows at once.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { NumberInput, TextInput, type NumberInputProps, type TextInputProps } from '@mantine/core';
import { jsonEqual } from '@gd/shared/journey/json';

export const COMMIT_DELAY_MS = 300;

export interface Draft<T> {
  value: T;
  change: (value: T) => void;
  /** Commits a pending change now. */
  flush: () => void;
  /** Commits and drops the draft (on blur). */
  end: () => void;
}

export function useDraft<T>(value: T, commit: (value: T) => void, delay = COMMIT_DELAY_MS): Draft<T> {
  // `base`: the value the document held (or was given by our commit) when the draft last agreed
  // with it; `dirty`: typed and not committed yet.
  const [draft, setDraft] = useState<{ value: T; base: T; dirty: boolean } | null>(null);
  const pending = useRef<{ value: T } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestCommit = useRef(commit);
  const latestValue = useRef(value);
  useEffect(() => {
    latestCommit.current = commit;
    latestValue.current = value;
  });
  const flush = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const p = pending.current;
    pending.current = null;
    if (!p) return;
    latestCommit.current(p.value);
    setDraft((d) => (d ? { value: d.value, base: p.value, dirty: false } : d));
  }, []);
  const change = useCallback(
    (next: T) => {
      setDraft((d) => ({ value: next, base: d?.base ?? latestValue.current, dirty: true }));
      pending.current = { value: next };
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(flush, delay);
    },
    [delay, flush],
  );
  const end = useCallback(() => {
    flush();
    setDraft(null);
  }, [flush]);
  // A pending edit is committed when the field goes away (another step selected, panel closed).
  useEffect(() => flush, [flush]);
  // A committed draft gives way to a different value from the document (someone else's change,
  // or a concurrent one that replaced ours): the field never shows a value the journey lacks.
  const shown = draft && (draft.dirty || jsonEqual(value, draft.base)) ? draft.value : value;
  return { value: shown, change, flush, end };
}

const onEnter = (flush: () => void) => (e: KeyboardEvent<HTMLInputElement>) => {
  if (e.key === 'Enter') flush();
};

type DraftTextProps = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: string;
  onCommit: (value: string) => void;
};

export function DraftTextInput({ value, onCommit, ...rest }: DraftTextProps) {
  const draft = useDraft(value, onCommit);
  return (
    <TextInput
      {...rest}
      value={draft.value}
      onChange={(e) => draft.change(e.currentTarget.value)}
      onBlur={draft.end}
      onKeyDown={onEnter(draft.flush)}
    />
  );
}

type DraftNumberProps = Omit<NumberInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: number | null;
  /** Called with null when the field is emptied. */
  onCommit: (value: number | null) => void;
};

export function DraftNumberInput({ value, onCommit, ...rest }: DraftNumberProps) {
  const draft = useDraft<number | null>(value, onCommit);
  return (
    <NumberInput
      {...rest}
      value={draft.value ?? ''}
      onChange={(v) => draft.change(typeof v === 'number' ? v : v.trim() === '' || Number.isNaN(Number(v)) ? null : Number(v))}
      onBlur={draft.end}
      onKeyDown={onEnter(draft.flush)}
    />
  );
}
