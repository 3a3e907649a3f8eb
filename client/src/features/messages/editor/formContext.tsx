/**
 * What every part of the message form needs besides the draft: whether it may edit, the problems by
 * field path, the changed paths of a review diff and what the review screen puts beside a field.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { Box, Group } from '@mantine/core';
import type { MessageDraft } from '@gd/shared/message/draft';
import type { DraftViolation } from '@gd/shared/message/validate';
import { anyUnder } from './problems.ts';

export interface FormContext {
  draft: MessageDraft;
  readOnly: boolean;
  /** Applies an edit to the draft (nothing when read-only or when it changes nothing). */
  edit: (change: (draft: MessageDraft) => MessageDraft) => void;
  /** The translated problems of exactly this path, joined (undefined when none). */
  errorAt: (path: string) => string | undefined;
  /** Problems at this path or under it. */
  problemsUnder: (path: string) => DraftViolation[];
  changedPaths: ReadonlySet<string> | undefined;
  renderFieldExtra: ((path: string) => ReactNode) | undefined;
}

const Ctx = createContext<FormContext | null>(null);
export const FormProvider = Ctx.Provider;

export function useForm(): FormContext {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useForm outside MessageForm');
  return ctx;
}

/** The diff highlight of a changed field (review screen). */
export const CHANGED_STYLE = {
  borderLeft: '3px solid var(--mantine-color-yellow-5)',
  background: 'var(--mantine-color-yellow-0)',
  borderRadius: 'var(--mantine-radius-sm)',
  paddingLeft: 8,
  paddingRight: 4,
  paddingBottom: 4,
} as const;

/**
 * One field of the form: marked when the review diff changed it (this path or under it, so a
 * setting like `schedule` marks its whole block), with the review screen's extra beside it.
 * `data-path` lets the problems list bring a field into view.
 */
export function Field({ path, children, exact = false }: { path: string; children: ReactNode; exact?: boolean }) {
  const { changedPaths, renderFieldExtra } = useForm();
  const changed = exact ? (changedPaths?.has(path) ?? false) : anyUnder(changedPaths, path);
  const extra = renderFieldExtra?.(path);
  return (
    <Group data-path={path} data-changed={changed || undefined} gap="xs" wrap="nowrap" align="flex-start" style={changed ? CHANGED_STYLE : undefined}>
      <Box style={{ flex: 1, minWidth: 0 }}>{children}</Box>
      {extra != null && extra !== false && <Box pt={changed ? 4 : 0} style={{ flexShrink: 0 }}>{extra}</Box>}
    </Group>
  );
}
