import { describe, expect, it } from 'vitest';
import { CategoryAssignmentInput, CategoryInput, MAX_CATEGORIES_PER_ENTITY } from './categories.ts';

describe('category input', () => {
  it('takes a #RRGGBB colour and refuses any other spelling', () => {
    for (const colour of ['#1c7ed6', '#1C7ED6', ' #000000 ']) expect(CategoryInput.safeParse({ name: 'Retail', colour, entityTypes: ['app'] }).success, colour).toBe(true);
    for (const colour of ['1C7ED6', '#1C7ED', '#1C7ED6F', '#GGGGGG', 'red', 'rgb(0,0,0)', '']) {
      const parsed = CategoryInput.safeParse({ name: 'Retail', colour, entityTypes: ['app'] });
      expect(parsed.success, colour).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['colour']);
    }
  });

  it('needs at least one known entity type, keeps each once, in a fixed order', () => {
    expect(CategoryInput.parse({ name: 'R', colour: '#000000', entityTypes: ['message', 'app', 'message'] }).entityTypes).toEqual(['app', 'message']);
    expect(CategoryInput.safeParse({ name: 'R', colour: '#000000', entityTypes: [] }).success).toBe(false);
    expect(CategoryInput.safeParse({ name: 'R', colour: '#000000', entityTypes: ['journey'] }).success).toBe(false);
  });

  it('assignments name each category once (any case) and at most a limit of them', () => {
    const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    expect(CategoryAssignmentInput.parse({ entityType: 'app', entityId: id, categoryIds: [id, id.toUpperCase()] }).categoryIds).toEqual([id]);
    const many = Array.from({ length: MAX_CATEGORIES_PER_ENTITY + 1 }, (_, i) => `3f2504e0-4f89-41d3-9a0c-${String(i).padStart(12, '0')}`);
    expect(CategoryAssignmentInput.safeParse({ entityType: 'app', entityId: id, categoryIds: many }).success).toBe(false);
  });
});
