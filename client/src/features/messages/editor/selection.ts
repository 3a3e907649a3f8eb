/** Which variant and language the form and the preview show: the chosen ones while they exist, else the first variant and the default language. */
import type { MessageDraft, MessageVariant } from '@gd/shared/message/draft';
import { createMessageContent, type MessageContent } from '@gd/shared/message/model';
import { variantTypeOf } from './draftEdits.ts';

export interface Shown {
  variant: MessageVariant;
  language: string;
  content: MessageContent;
}

export function shownIn(draft: MessageDraft, variantId: string, language: string): Shown {
  // A draft always has a variant (the schema's minimum); the fallback only satisfies the compiler.
  const variant = draft.variants.find((v) => v.id === variantId) ?? draft.variants[0] ?? { id: 'main', name: '', share: 100, content: {} };
  const lang = draft.languages.includes(language) ? language : draft.languages.includes(draft.defaultLanguage) ? draft.defaultLanguage : (draft.languages[0] ?? language);
  const content = variant.content[lang] ?? createMessageContent(variantTypeOf(draft, variant));
  return { variant, language: lang, content };
}
