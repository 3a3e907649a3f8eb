/**
 * SQL of categories (migration 051): the account's categories, their assignments to an app's
 * entities, and the SQL fragments other features' queries use to filter by a category
 * (`categoryFilterSql`) and to read an app's category names (`appCategoryNamesSql`, the
 * `app_cats` macro). Categories are scoped by account, assignments by app as well as by entity.
 */
import type { Category, CategoryAssignment, CategoryEntityType } from '@gd/shared';
import { MAX_CATEGORIES } from '@gd/shared/schemas/categories';
import type { Queryable } from '../../db/pool.ts';

interface CategoryRow {
  id: string; name: string; colour: string; entity_types: CategoryEntityType[];
  apps: number; campaigns: number; messages: number; created_at: Date; updated_at: Date;
}
const toCategory = (r: CategoryRow): Category => ({
  id: r.id, name: r.name, colour: r.colour, entityTypes: r.entity_types,
  counts: { app: r.apps, campaign: r.campaigns, message: r.messages },
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

const SELECT = `SELECT c.id, c.name, c.colour, c.entity_types, c.created_at, c.updated_at,
  (SELECT count(*) FROM category_assignments a WHERE a.category_id = c.id AND a.entity_type = 'app')::int AS apps,
  (SELECT count(*) FROM category_assignments a WHERE a.category_id = c.id AND a.entity_type = 'campaign')::int AS campaigns,
  (SELECT count(*) FROM category_assignments a WHERE a.category_id = c.id AND a.entity_type = 'message')::int AS messages
  FROM categories c`;

export interface CategoryFields { name: string; colour: string; entityTypes: CategoryEntityType[] }

export async function listCategories(db: Queryable, accountId: string, entityType?: CategoryEntityType): Promise<Category[]> {
  const { rows } = await db.query<CategoryRow>(
    `${SELECT} WHERE c.account_id = $1 AND ($2::text IS NULL OR $2 = ANY(c.entity_types)) ORDER BY lower(c.name), c.id`,
    [accountId, entityType ?? null],
  );
  return rows.map(toCategory);
}

export async function findCategory(db: Queryable, accountId: string, id: string): Promise<Category | undefined> {
  const row = (await db.query<CategoryRow>(`${SELECT} WHERE c.account_id = $1 AND c.id = $2`, [accountId, id])).rows[0];
  return row && toCategory(row);
}

/** Inserts a category unless the account already has MAX_CATEGORIES ('full'). */
export async function insertCategory(db: Queryable, accountId: string, userId: string, c: CategoryFields): Promise<Category | 'full'> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO categories (account_id, name, colour, entity_types, created_by)
     SELECT $1, $2, $3, $4::text[], $5 WHERE (SELECT count(*) FROM categories WHERE account_id = $1) < $6
     RETURNING id`,
    [accountId, c.name, c.colour, c.entityTypes, userId, MAX_CATEGORIES],
  );
  if (!rows[0]) return 'full';
  const category = await findCategory(db, accountId, rows[0].id);
  if (!category) throw new Error('inserted category not found');
  return category;
}

/** Updates a category and drops its assignments of the types it no longer applies to (call in a transaction). */
export async function updateCategory(db: Queryable, accountId: string, id: string, c: CategoryFields): Promise<Category | undefined> {
  const { rowCount } = await db.query(
    'UPDATE categories SET name = $3, colour = $4, entity_types = $5::text[], updated_at = now() WHERE account_id = $1 AND id = $2',
    [accountId, id, c.name, c.colour, c.entityTypes],
  );
  if (!rowCount) return undefined;
  await db.query('DELETE FROM category_assignments WHERE category_id = $1 AND NOT (entity_type = ANY($2::text[]))', [id, c.entityTypes]);
  return findCategory(db, accountId, id);
}

export async function deleteCategory(db: Queryable, accountId: string, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM categories WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount ?? 0) > 0;
}

/** Of `ids`, those the account has, each with whether it applies to `entityType`. */
export async function categoriesOf(db: Queryable, accountId: string, ids: readonly string[], entityType: CategoryEntityType): Promise<Map<string, boolean>> {
  const { rows } = await db.query<{ id: string; applies: boolean }>(
    'SELECT id::text, $3 = ANY(entity_types) AS applies FROM categories WHERE account_id = $1 AND id = ANY($2::uuid[])',
    [accountId, ids, entityType],
  );
  return new Map(rows.map((r) => [r.id, r.applies]));
}

const grouped = (rows: { entity_id: string; category_ids: string[] }[]): CategoryAssignment[] =>
  rows.map((r) => ({ entityId: r.entity_id, categoryIds: r.category_ids }));

/** The categories of the app's entities of a type, by entity (categories by name). */
export async function assignmentsOf(db: Queryable, appId: string, entityType: CategoryEntityType): Promise<CategoryAssignment[]> {
  const { rows } = await db.query<{ entity_id: string; category_ids: string[] }>(
    `SELECT a.entity_id::text, array_agg(a.category_id::text ORDER BY lower(c.name), c.id) AS category_ids
       FROM category_assignments a JOIN categories c ON c.id = a.category_id
      WHERE a.app_id = $1 AND a.entity_type = $2
      GROUP BY a.entity_id ORDER BY a.entity_id`,
    [appId, entityType],
  );
  return grouped(rows);
}

/** The categories of every app of the account. */
export async function appAssignments(db: Queryable, accountId: string): Promise<CategoryAssignment[]> {
  const { rows } = await db.query<{ entity_id: string; category_ids: string[] }>(
    `SELECT a.entity_id::text, array_agg(a.category_id::text ORDER BY lower(c.name), c.id) AS category_ids
       FROM category_assignments a JOIN categories c ON c.id = a.category_id AND c.account_id = $1
       JOIN apps p ON p.id = a.app_id AND p.account_id = $1
      WHERE a.entity_type = 'app' AND a.entity_id = a.app_id
      GROUP BY a.entity_id ORDER BY a.entity_id`,
    [accountId],
  );
  return grouped(rows);
}

/** What an assignment names: the app itself, an apptracker or message campaign, or a message of the app. */
export type EntityKind = 'app' | 'acqCampaign' | 'messageCampaign' | 'message';
export interface EntityFacts { kind: EntityKind; ownerId: string | null }

/** The live entity of the app that `entityType` and `entityId` name, with who owns it; undefined when the app has none. */
export async function findEntity(db: Queryable, appId: string, entityType: CategoryEntityType, entityId: string): Promise<EntityFacts | undefined> {
  switch (entityType) {
    case 'app':
      return entityId === appId ? { kind: 'app', ownerId: null } : undefined;
    case 'campaign': {
      const { rows } = await db.query<{ kind: EntityKind; owner_id: string | null }>(
        `SELECT 'acqCampaign' AS kind, created_by::text AS owner_id FROM acq_campaigns WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL
         UNION ALL
         SELECT 'messageCampaign', created_by::text FROM campaigns WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
        [appId, entityId],
      );
      return rows[0] && { kind: rows[0].kind, ownerId: rows[0].owner_id };
    }
    case 'message': {
      const { rows } = await db.query<{ owner_id: string | null }>(
        'SELECT owner_id::text FROM messages WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, entityId]);
      return rows[0] && { kind: 'message', ownerId: rows[0].owner_id };
    }
    default: {
      const never: never = entityType;
      throw new Error(`unknown entity type ${String(never)}`);
    }
  }
}

const LOCKS: Record<EntityKind, string | null> = {
  // The assignment's foreign key on app_id already keeps the app from going away meanwhile.
  app: null,
  acqCampaign: 'SELECT 1 FROM acq_campaigns WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE',
  messageCampaign: 'SELECT 1 FROM campaigns WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE',
  message: 'SELECT 1 FROM messages WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE',
};

/** Locks the live entity for an assignment (in a transaction): false when it is gone meanwhile. */
export async function lockEntity(db: Queryable, appId: string, kind: EntityKind, entityId: string): Promise<boolean> {
  const sql = LOCKS[kind];
  return sql === null || ((await db.query(sql, [appId, entityId])).rowCount ?? 0) > 0;
}

/** Replaces an entity's categories (call in a transaction, after checking the entity and the categories). */
export async function replaceAssignments(db: Queryable, appId: string, entityType: CategoryEntityType, entityId: string, categoryIds: readonly string[]): Promise<CategoryAssignment> {
  await db.query(
    'DELETE FROM category_assignments WHERE app_id = $1 AND entity_type = $2 AND entity_id = $3 AND NOT (category_id = ANY($4::uuid[]))',
    [appId, entityType, entityId, categoryIds],
  );
  await db.query(
    `INSERT INTO category_assignments (category_id, entity_type, entity_id, app_id)
     SELECT unnest($4::uuid[]), $2, $3, $1 ON CONFLICT DO NOTHING`,
    [appId, entityType, entityId, categoryIds],
  );
  const { rows } = await db.query<{ category_ids: string[] }>(
    `SELECT coalesce(array_agg(a.category_id::text ORDER BY lower(c.name), c.id), '{}') AS category_ids
       FROM category_assignments a JOIN categories c ON c.id = a.category_id
      WHERE a.app_id = $1 AND a.entity_type = $2 AND a.entity_id = $3`,
    [appId, entityType, entityId],
  );
  return { entityId, categoryIds: rows[0]?.category_ids ?? [] };
}

/**
 * A WHERE condition for other features' list queries: one of the entities `on` names (entity
 * type and a column of the query, e.g. `['campaign', 'c.id']`) has the category bound at
 * parameter `$param` (a uuid, or null: no filter).
 */
export function categoryFilterSql(on: readonly (readonly [CategoryEntityType, string])[], param: number): string {
  const has = on.map(([type, idExpr]) =>
    `EXISTS (SELECT 1 FROM category_assignments ca_f WHERE ca_f.category_id = $${param}::uuid AND ca_f.entity_type = '${type}' AND ca_f.entity_id = ${idExpr})`);
  return `($${param}::uuid IS NULL OR ${has.join(' OR ')})`;
}

/** A column expression for the `app_cats` macro: the app's category names in alphabetical order, comma separated ('' for none). */
export const appCategoryNamesSql = (appIdExpr: string): string =>
  `(SELECT coalesce(string_agg(cat.name, ',' ORDER BY lower(cat.name), cat.id), '') FROM category_assignments ca_n JOIN categories cat ON cat.id = ca_n.category_id
     WHERE ca_n.entity_type = 'app' AND ca_n.entity_id = ${appIdExpr} AND ca_n.app_id = ${appIdExpr})`;
