import { describe, expect, it } from 'vitest';
import { createMessageDraft } from '@gd/shared/message/draft';
import { validateDraft } from '@gd/shared/message/validate';
import type { TKey, TVars } from '../../../i18n/keys.ts';
import { anyUnder, locateProblems, problemPath, problemText } from './problems.ts';

describe('message problems', () => {
  const draft = createMessageDraft('test_ab');

  it('names content paths by variant id, as diffs and comments do', () => {
    expect(problemPath(draft, ['variants', 1, 'content', 'es', 'buttons', 0, 'text'])).toBe('variants.B.content.es.buttons.0.text');
    expect(problemPath(draft, ['schedule', 'endsAt'])).toBe('schedule.endsAt');
  });

  it('locates every problem of a new draft at its variant and language', () => {
    const located = locateProblems(draft, validateDraft(draft, { tags: [], parameters: [] }));
    expect(located.find((p) => p.path === 'variants.B.content.es.message')).toMatchObject({ variantId: 'B', language: 'es' });
    expect(located.find((p) => p.path === 'name')).toMatchObject({ variantId: null, language: null });
  });

  it('translates a code with its parameters, a placeholder written as one and a language by its name', () => {
    const calls: [TKey, TVars | undefined][] = [];
    const t = (key: TKey, vars?: TVars) => {
      calls.push([key, vars]);
      return key;
    };
    problemText(t, { code: 'placeholder_unknown', params: { name: 'x' } });
    problemText(t, { code: 'language_missing', params: { language: 'fr' } }, (c) => (c === 'fr' ? 'French' : c));
    problemText(t, { code: 'variants_too_few' });
    expect(calls).toEqual([
      ['messageEditor.problem.placeholder_unknown', { name: '{{x}}' }],
      ['messageEditor.problem.language_missing', { language: 'French' }],
      ['messageEditor.problem.variants_too_few', {}],
    ]);
  });

  it('finds paths under a prefix, not merely starting with it', () => {
    const paths = new Set(['variants.A.content.en.title']);
    expect(anyUnder(paths, 'variants.A')).toBe(true);
    expect(anyUnder(paths, 'variants.A.content.en.title')).toBe(true);
    expect(anyUnder(paths, 'variants.A.content.e')).toBe(false);
    expect(anyUnder(undefined, 'name')).toBe(false);
  });
});
