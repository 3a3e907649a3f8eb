/**
 * The account's categories as the list screens use them (shared schemas/categories.ts): the
 * categories of an entity type, an app's assignments by entity, and saving one entity's
 * categories. The pure helpers are in categoryIds.ts (re-exported here).
 */
import { useMemo } from 'react';
import type { CategoryEntityType } from '@gd/shared/schemas/categories';
import { api } from '../../api/client.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { assignmentMap } from './categoryIds.ts';

export { assignmentMap, categoryParam, pickCategories, sameIds } from './categoryIds.ts';

/** The categories that apply to `entityType` (every category without one), by name. */
export function useCategories(entityType?: CategoryEntityType) {
  return useApiQuery('listCategories', { query: entityType ? { entityType } : {} });
}

/** The categories of the app's entities of a type (the app itself, its campaigns or its messages), by entity id. */
export function useCategoryAssignments(appId: string, entityType: CategoryEntityType, enabled = true) {
  const query = useApiQuery('categoryAssignments', { params: { appId }, query: { entityType }, scope: 'app', enabled: enabled && appId !== '' });
  const byEntity = useMemo(() => assignmentMap(query.data?.assignments), [query.data]);
  return { ...query, byEntity };
}

/** The categories of every app of the account, by app id (the apps list). */
export function useAppCategories() {
  const query = useApiQuery('appCategories');
  const byEntity = useMemo(() => assignmentMap(query.data?.assignments), [query.data]);
  return { ...query, byEntity };
}

/** Replaces an entity's categories; answers the ones it now has. */
export async function saveCategories(appId: string, entityType: CategoryEntityType, entityId: string, categoryIds: readonly string[]): Promise<string[]> {
  const { assignment } = await api.call('setCategoryAssignments', { params: { appId }, body: { entityType, entityId, categoryIds: [...categoryIds] } });
  return assignment.categoryIds;
}

