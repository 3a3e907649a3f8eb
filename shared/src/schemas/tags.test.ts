import { describe, expect, it } from 'vitest';
import { TAG_NAME_CHARACTERS_TEXT, TagInput, tagNameRefused } from './tags.ts';

describe('tag names', () => {
  it('refuse other characters than letters, digits, spaces and _ . -, saying which are allowed', () => {
    const parsed = TagInput.safeParse({ name: 'vip#1', kind: 'user_tag', valueType: 'text' });
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['name'], message: TAG_NAME_CHARACTERS_TEXT });
    expect(TAG_NAME_CHARACTERS_TEXT).toMatch(/letters, digits, spaces, underscores \(_\), dots \(\.\) and hyphens \(-\)/);
    expect(TagInput.safeParse({ name: 'Nivel_2.0-ñ 会员', kind: 'user_tag', valueType: 'text' }).success).toBe(true);
  });

  it('list the refused characters once each, in order', () => {
    expect(tagNameRefused('a#b/c#😀')).toEqual(['#', '/', '😀']);
    expect(tagNameRefused('loyalty_level')).toEqual([]);
  });
});
