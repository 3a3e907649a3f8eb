/**
 * The custom event catalogue (/manage/events): SQL of `event_definitions` and the catalogue as
 * the API answers it. Ingestion adds a row the first time a custom name arrives; names the rollup
 * knows but the catalogue does not (events stored before the catalogue existed, or a repair) are
 * listed too, with no label, and get their row when first edited. Built-in events are never stored
 * here: their labels come from the i18n catalogues.
 */
import {
  BUILT_IN_EVENT_KEYS, ConversionType, builtInEventName, isBuiltInEvent, type BreakdownMark, type BuiltInEventDefinition, type EventDefinition,
  type EventDefinitionUpdate, type Language,
} from '@gd/shared';
import { behaviourEn } from '@gd/shared/i18n/behaviour/en';
import { behaviourEs } from '@gd/shared/i18n/behaviour/es';
import type { Queryable } from '../../db/pool.ts';
import { marksByEvent } from './breakdowns.ts';
import { rollupNames } from './repository.ts';

interface DefinitionRow { name: string; label: string | null; conversion_type: string | null; hidden: boolean; first_seen_at: Date | null }

const toDefinition = (r: DefinitionRow, breakdowns: BreakdownMark[] = []): EventDefinition => {
  const conversion = ConversionType.safeParse(r.conversion_type);
  return {
    name: r.name, label: r.label, conversionType: conversion.success ? conversion.data : null, hidden: r.hidden,
    firstSeenAt: r.first_seen_at ? r.first_seen_at.toISOString() : null, breakdowns,
  };
};

/** Built-in events with their labels in `language` (Spanish for es, English otherwise: `to` has none yet). */
export function builtInDefinitions(language: Language): BuiltInEventDefinition[] {
  const labels = language === 'es' ? behaviourEs.builtInEvent : behaviourEn.builtInEvent;
  return BUILT_IN_EVENT_KEYS.map((key) => ({ name: builtInEventName(key), key, label: labels[key] }));
}

/** Stored definitions by name, with their breakdown marks. */
export async function definitionsByName(db: Queryable, appId: string): Promise<Map<string, EventDefinition>> {
  const [{ rows }, marks] = await Promise.all([
    db.query<DefinitionRow>('SELECT name, label, conversion_type, hidden, first_seen_at FROM event_definitions WHERE app_id = $1', [appId]),
    marksByEvent(db, appId),
  ]);
  return new Map(rows.map((r) => [r.name, toDefinition(r, marks.get(r.name))]));
}

/** Every custom event of the app: stored definitions plus names only the rollup knows, by name. */
export async function customEvents(db: Queryable, appId: string): Promise<EventDefinition[]> {
  const [stored, names] = await Promise.all([definitionsByName(db, appId), rollupNames(db, appId)]);
  for (const name of names) {
    if (!stored.has(name) && !isBuiltInEvent(name)) stored.set(name, { name, label: null, conversionType: null, hidden: false, firstSeenAt: null, breakdowns: [] });
  }
  return [...stored.values()].filter((d) => !isBuiltInEvent(d.name)).sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether the app has ever received an event of this name (catalogue or rollup). */
export async function eventKnown(db: Queryable, appId: string, name: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM event_definitions WHERE app_id = $1 AND name = $2
     UNION ALL SELECT 1 FROM (SELECT 1 FROM event_daily WHERE app_id = $1 AND name = $2 LIMIT 1) r LIMIT 1`,
    [appId, name],
  );
  return rows.length > 0;
}

/**
 * Applies a change to a custom event, creating its row when only the rollup knew it (first seen:
 * the start of its first day in the app's time zone). Fields absent from the change stay as they are.
 */
export async function updateDefinition(db: Queryable, appId: string, timezone: string, name: string, change: EventDefinitionUpdate): Promise<EventDefinition> {
  const { rows } = await db.query<DefinitionRow>(
    `INSERT INTO event_definitions AS d (app_id, name, label, conversion_type, hidden, first_seen_at, updated_at)
     VALUES ($1, $2, $3, $5, coalesce($7, false),
             coalesce((SELECT min(day)::timestamp AT TIME ZONE $9 FROM event_daily WHERE app_id = $1 AND name = $2), now()), now())
     ON CONFLICT (app_id, name) DO UPDATE SET
       label = CASE WHEN $4 THEN excluded.label ELSE d.label END,
       conversion_type = CASE WHEN $6 THEN excluded.conversion_type ELSE d.conversion_type END,
       hidden = CASE WHEN $8 THEN excluded.hidden ELSE d.hidden END,
       updated_at = now()
     RETURNING name, label, conversion_type, hidden, first_seen_at`,
    [
      appId, name, change.label ?? null, change.label !== undefined, change.conversionType ?? null, change.conversionType !== undefined,
      change.hidden ?? null, change.hidden !== undefined, timezone,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('event definition upsert returned no row');
  return toDefinition(row, (await marksByEvent(db, appId)).get(name));
}
