/**
 * The pure helpers of the lists' categories (tested in features/categories/categoryForm.test.ts):
 * assignments by entity, a row's categories, comparing id lists and the address's `?category=`.
 */
import type { Category, CategoryAssignment } from '@gd/shared/schemas/categories';

/** entity id -> its category ids, from the assignments an endpoint answers. */
export function assignmentMap(assignments: readonly CategoryAssignment[] | undefined): ReadonlyMap<string, readonly string[]> {
  return new Map((assignments ?? []).map((a) => [a.entityId, a.categoryIds]));
}

/** The categories named by `ids`, in the order of `all` (by name); ids of categories gone are skipped. */
export function pickCategories(all: readonly Category[] | undefined, ids: readonly string[] | undefined): Category[] {
  if (!all || !ids || ids.length === 0) return [];
  const wanted = new Set(ids);
  return all.filter((c) => wanted.has(c.id));
}

/** Whether two lists of ids hold the same ids, in any order. */
export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}

/** The category id of a list's `?category=` parameter, when it is a uuid. */
export function categoryParam(value: string | null): string | undefined {
  return value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ? value.toLowerCase() : undefined;
}
