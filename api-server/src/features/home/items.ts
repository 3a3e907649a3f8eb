/**
 * "Needs attention" as a list (pure): the findings of each area merged, the most serious kind
 * first (a live journey that launch would refuse today, then audiences in error, failed imports,
 * and live journeys with edits not launched), latest first within a kind, at most `max` items.
 * An audience whose failure is told by a listed failed import of it is not told twice.
 */
import type { AttentionItem, AttentionType } from '@gd/shared';

const SEVERITY: Record<AttentionType, number> = {
  journey_problems: 0,
  audience_error: 1,
  import_failed: 2,
  journey_unlaunched_edits: 3,
};

/** The time an item happened, for ordering within a kind (journeys with problems keep their given order). */
function timeOf(item: AttentionItem): string {
  switch (item.type) {
    case 'journey_problems':
      return '';
    case 'journey_unlaunched_edits':
      return item.editedAt;
    case 'audience_error':
    case 'import_failed':
      return item.at;
    default: {
      const never: never = item;
      throw new Error(`unknown attention item ${JSON.stringify(never)}`);
    }
  }
}

export function mergeAttention(items: readonly AttentionItem[], max: number): AttentionItem[] {
  const toldByImport = new Set(items.flatMap((i) => (i.type === 'import_failed' && i.audienceId ? [i.audienceId] : [])));
  const kept = items.filter((i) => !(i.type === 'audience_error' && toldByImport.has(i.audienceId)));
  const order = new Map(kept.map((item, index) => [item, index]));
  return [...kept]
    .sort((a, b) => SEVERITY[a.type] - SEVERITY[b.type] || timeOf(b).localeCompare(timeOf(a)) || (order.get(a) ?? 0) - (order.get(b) ?? 0))
    .slice(0, max);
}
