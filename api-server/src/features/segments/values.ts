/**
 * The most frequent values of a condition field in an app (GET /apps/:appId/segment-values), for
 * the segment editor's suggestions and pickers. The field is checked against the shared catalogue
 * (`conditionTarget`, as the compiler does) and mapped by the shared `valueSource` to the column
 * the compiler compares: people's attributes (ATTRIBUTE_COLUMNS), devices' fields, text user tags
 * or an event property (a scalar or the elements of an array, as `propertyPredicate` reads it).
 *
 * Cost: each query reads at most SEGMENT_VALUE_LIMITS.scanRows rows (scanEvents events) in an index's order (people
 * newest first by `people_created`, devices seen most recently by `devices_last_seen` (never seen last), a tag's rows by
 * `person_tags_tag`, an event's occurrences of the last `eventDays` days newest first by
 * `events_app_name_time`), then counts them: bounded however big the app is. Values compare
 * ignoring case (like the compiler), so they are grouped by lower case and shown in their most
 * frequent spelling. Counts are people: merged people are left out (their devices, events and
 * tags move to the person they merged into), and a person with several devices or events with
 * the value counts once.
 */
import {
  ErrorCode, SEGMENT_VALUE_LIMITS, conditionTarget, fail, ok, valueSource, type Result, type SegmentValue, type SegmentValuesQuery, type ValueSource,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { isUuid } from '../../http/validate.ts';
import { ATTRIBUTE_COLUMNS } from './compile/attributes.ts';
import { tagTypes } from './repository.ts';

export interface ValuesAnswer { values: SegmentValue[]; sampled: boolean }

const DEVICE_COLUMNS = { os: 'd.os', os_version: 'd.os_version', model: 'd.model' } as const;

/**
 * The newest rows of the source (`scanned`: at most $2 of them, $1 is the app) and their values as
 * (v text, person_id) (`values`, reading the CTE `scanned`).
 */
function sourceSql(source: ValueSource, params: unknown[]): { scanned: string; values: string } {
  const plain = 'SELECT v, person_id FROM scanned';
  switch (source.from) {
    case 'person': {
      const column = ATTRIBUTE_COLUMNS[source.attribute].sql;
      return { scanned: `SELECT ${column} AS v, p.id AS person_id FROM people p WHERE p.app_id = $1::uuid AND p.merged_into IS NULL ORDER BY p.created_at DESC LIMIT $2`, values: plain };
    }
    case 'device':
      // Devices never seen (no event yet: NULL) last, so they do not fill the sample; the index
      // has the same order (migration 013).
      return { scanned: `SELECT ${DEVICE_COLUMNS[source.field]} AS v, d.person_id FROM devices d WHERE d.app_id = $1::uuid ORDER BY d.last_seen_at DESC NULLS LAST LIMIT $2`, values: plain };
    case 'tag':
      params.push(source.tagId);
      return { scanned: `SELECT t.value_text AS v, t.person_id FROM person_tags t WHERE t.app_id = $1::uuid AND t.tag_id = $${params.length}::uuid LIMIT $2`, values: plain };
    case 'event_property': {
      params.push(source.event, source.property, SEGMENT_VALUE_LIMITS.eventDays, SEGMENT_VALUE_LIMITS.scanEvents);
      const [event, property, days, cap] = [params.length - 3, params.length - 2, params.length - 1, params.length];
      return {
        // The newest occurrences (partition pruning by the window, newest first by the index).
        scanned: `SELECT e.properties -> $${property}::text AS j, e.person_id FROM events e
          WHERE e.app_id = $1::uuid AND e.name = $${event}::text AND e.event_time >= now() - make_interval(days => $${days}::int)
          ORDER BY e.event_time DESC LIMIT least($2, $${cap}::int)`,
        // The property's text: a string or a number, or each element of an array
        // (the ingestion API takes arrays of strings and numbers only).
        values: `SELECT s.j #>> '{}' AS v, s.person_id FROM scanned s WHERE jsonb_typeof(s.j) IN ('string', 'number')
          UNION ALL
          SELECT el.x, s.person_id FROM scanned s CROSS JOIN LATERAL jsonb_array_elements_text(s.j) AS el(x) WHERE jsonb_typeof(s.j) = 'array'`,
      };
    }
    default: {
      const never: never = source;
      throw new Error(`unknown value source ${String(never)}`);
    }
  }
}

/** The most frequent values of `source` in the app. */
export async function topValues(db: Queryable, appId: string, source: ValueSource, q: string, limit: number): Promise<ValuesAnswer> {
  const params: unknown[] = [appId, SEGMENT_VALUE_LIMITS.scanRows];
  const sql = sourceSql(source, params);
  params.push(q, limit);
  const [prefix, max] = [params.length - 1, params.length];
  const { rows } = await db.query<{ scanned: number; values: SegmentValue[] }>(
    `WITH scanned AS MATERIALIZED (${sql.scanned}),
     found AS (${sql.values}),
     counted AS (
       SELECT mode() WITHIN GROUP (ORDER BY v) AS value, count(DISTINCT person_id)::int AS count
       FROM found
       WHERE v IS NOT NULL AND btrim(v) <> '' AND ($${prefix}::text = '' OR starts_with(lower(v), lower($${prefix}::text)))
       GROUP BY lower(v)
       ORDER BY count DESC, value
       LIMIT $${max}::int
     )
     SELECT (SELECT count(*) FROM scanned)::int AS scanned,
            coalesce((SELECT json_agg(json_build_object('value', value, 'count', count) ORDER BY count DESC, value) FROM counted), '[]'::json) AS values`,
    params,
  );
  const row = rows[0];
  const cap = source.from === 'event_property' ? Math.min(SEGMENT_VALUE_LIMITS.scanRows, SEGMENT_VALUE_LIMITS.scanEvents) : SEGMENT_VALUE_LIMITS.scanRows;
  return { values: row?.values ?? [], sampled: (row?.scanned ?? 0) >= cap };
}

const refused = (code: 'unknown_target' | 'values_not_listed', message: string) => fail(ErrorCode.MANDATORY, message, [{ path: 'id', message: code }]);

/** Checks the field against the catalogue and lists its values. */
export async function fieldValues(db: Queryable, appId: string, query: SegmentValuesQuery): Promise<Result<ValuesAnswer>> {
  const id = query.id.trim();
  const tags = query.type === 'user_tag' && isUuid(id) ? await tagTypes(db, appId, [id]) : new Map<string, never>();
  const target = conditionTarget(query.type, id, (tagId) => tags.get(tagId));
  if (!target) return refused('unknown_target', `No field "${id}" of kind ${query.type} in this app`);
  const source = valueSource(query.type, id);
  // Only text tags have text values to list.
  if (!source || (source.from === 'tag' && tags.get(id) !== 'text')) return refused('values_not_listed', `The field "${id}" of kind ${query.type} has no values to list`);
  return ok(await topValues(db, appId, source, query.q, query.limit));
}
