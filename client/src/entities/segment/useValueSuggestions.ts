/**
 * The values a condition's field holds in the app's data, most frequent first, with how many
 * people have each (GET /apps/:appId/segment-values). Asked for only when the field has values to
 * list (shared `valueSource`; a user tag only when it is a text tag) and the user may use the
 * segment editor; otherwise, and while loading or offline, the list is empty and the inputs take
 * typed text as before. The top values are asked once per field; what the person types narrows
 * them at once, and 250 ms after typing stops the values starting with it are asked too (values
 * beyond the top ones).
 */
import { useEffect, useMemo, useState } from 'react';
import type { SegmentCondition } from '@gd/shared/segment/model';
import { valueSource } from '@gd/shared/segment/valueSuggestions';
import type { SegmentValue } from '@gd/shared/schemas/segments';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import type { TagTypeOf } from './conditionShape.ts';

const SEARCH_DELAY_MS = 250;
const EDITOR = { or: ['ui:audience.view', 'ui:segment.modify'] } as const;

/** The field to ask about, or null when it has no values to list. */
export function suggestedField(c: Pick<SegmentCondition, 'type' | 'id'>, tagType: TagTypeOf): { type: NonNullable<SegmentCondition['type']>; id: string } | null {
  if (c.type === null || c.id === null || c.id.trim() === '') return null;
  const source = valueSource(c.type, c.id);
  if (!source) return null;
  if (source.from === 'tag' && tagType(source.tagId) !== 'text') return null;
  return { type: c.type, id: c.id.trim() };
}

/** Values of `values` starting with `search` (case ignored), in their order. */
export const startingWith = (values: readonly SegmentValue[], search: string): SegmentValue[] => {
  const q = search.trim().toLowerCase();
  return q === '' ? [...values] : values.filter((v) => v.value.toLowerCase().startsWith(q));
};

function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export interface ValueSuggestions {
  /** Most frequent first. */
  values: SegmentValue[];
  /** How many people have a value (compared ignoring case), when it is among the values loaded. */
  countOf: (value: string) => number | undefined;
}

export function useValueSuggestions(c: Pick<SegmentCondition, 'type' | 'id'>, tagType: TagTypeOf, search = ''): ValueSuggestions {
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const field = suggestedField(c, tagType);
  const enabled = appId !== '' && field !== null && can(EDITOR);
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const params = { appId };
  const top = useApiQuery('segmentValues', { params, query: { type: field?.type ?? '', id: field?.id ?? '' }, scope: 'app', enabled });
  const prefixed = useApiQuery('segmentValues', { params, query: { type: field?.type ?? '', id: field?.id ?? '', q }, scope: 'app', enabled: enabled && q !== '' });
  const topValues = top.data?.values;
  const prefixValues = prefixed.data?.values;

  return useMemo(() => {
    const base = topValues ?? [];
    // The top values narrowed at once; the prefix answer adds those beyond the top ones.
    const narrowed = startingWith(base, search);
    const seen = new Set(narrowed.map((v) => v.value.toLowerCase()));
    const more = q !== '' && search.trim().toLowerCase().startsWith(q.toLowerCase())
      ? startingWith(prefixValues ?? [], search).filter((v) => !seen.has(v.value.toLowerCase()))
      : [];
    const values = [...narrowed, ...more].sort((a, b) => b.count - a.count);
    const counts = new Map([...base, ...(prefixValues ?? [])].map((v) => [v.value.toLowerCase(), v.count]));
    return { values, countOf: (value: string) => counts.get(value.toLowerCase()) };
  }, [topValues, prefixValues, search, q]);
}
