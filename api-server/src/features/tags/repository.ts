/** SQL for tags. `people` counts person_tags rows of the tag (user tags). */
import type { Tag, TagInput, TagUpdate } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

interface TagRow {
  id: string; name: string; kind: Tag['kind']; value_type: Tag['valueType']; description: string | null;
  people: number; created_at: Date; updated_at: Date;
}
const toTag = (r: TagRow): Tag => ({
  id: r.id, name: r.name, kind: r.kind, valueType: r.value_type, description: r.description, people: r.people,
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

const SELECT = `SELECT t.id, t.name, t.kind, t.value_type, t.description, t.created_at, t.updated_at,
  (SELECT count(*) FROM person_tags pt WHERE pt.app_id = t.app_id AND pt.tag_id = t.id)::int AS people
  FROM tags t`;

export async function listTags(db: Queryable, appId: string): Promise<Tag[]> {
  const { rows } = await db.query<TagRow>(`${SELECT} WHERE t.app_id = $1 ORDER BY t.kind DESC, lower(t.name)`, [appId]);
  return rows.map(toTag);
}

export async function findTag(db: Queryable, appId: string, id: string): Promise<Tag | undefined> {
  const row = (await db.query<TagRow>(`${SELECT} WHERE t.app_id = $1 AND t.id = $2`, [appId, id])).rows[0];
  return row && toTag(row);
}

export async function insertTag(db: Queryable, appId: string, userId: string, input: TagInput): Promise<Tag> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO tags (app_id, name, kind, value_type, description, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [appId, input.name, input.kind, input.valueType, input.description ?? null, userId],
  );
  const tag = rows[0] && (await findTag(db, appId, rows[0].id));
  if (!tag) throw new Error('inserted tag not found');
  return tag;
}

/** Updates name, description and type; answers 'typed' when the type would change under existing values. */
export async function updateTag(db: Queryable, appId: string, id: string, input: TagUpdate): Promise<Tag | 'typed' | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE tags t SET name = $3, description = $4, value_type = $5, updated_at = now()
      WHERE t.app_id = $1 AND t.id = $2
        AND (t.value_type = $5 OR NOT EXISTS (SELECT 1 FROM person_tags pt WHERE pt.app_id = t.app_id AND pt.tag_id = t.id))
      RETURNING t.id`,
    [appId, id, input.name, input.description ?? null, input.valueType],
  );
  if (rows[0]) return findTag(db, appId, id);
  return (await findTag(db, appId, id)) ? 'typed' : undefined;
}

export async function deleteTag(db: Queryable, appId: string, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM tags WHERE app_id = $1 AND id = $2', [appId, id])).rowCount ?? 0) > 0;
}
