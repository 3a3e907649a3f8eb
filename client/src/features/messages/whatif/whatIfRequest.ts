/**
 * What the what-if asks for a draft: its target, type (with an A/B test's variant types) and
 * schedule; nothing else of the draft changes the answer, so edits of texts ask nothing. Null when
 * the draft has no target yet (the panel then asks the author to choose one).
 */
import type { RequestOf } from '@gd/shared/endpoints';
import type { MessageDraft } from '@gd/shared/message/draft';

export type WhatIfRequest = RequestOf<'messageWhatIf'>;

export function whatIfRequest(draft: MessageDraft): WhatIfRequest | null {
  const { target, type, schedule } = draft;
  if (target.kind === 'none') return null;
  if ((target.kind === 'audience' || target.kind === 'segment') && !target.id) return null;
  if (type !== 'test_ab') return { target, type, schedule };
  // A variant's type is the same in every language: read it from any language it has.
  const variantTypes = draft.variants.flatMap((v) => {
    const content = v.content[draft.defaultLanguage] ?? Object.values(v.content)[0];
    return content ? [content.type] : [];
  });
  return { target, type, variantTypes, schedule };
}

/** The request's identity, and its text (the same content asks once). */
export const whatIfKey = (request: WhatIfRequest): string => JSON.stringify(request);
