/** Conditions on a person's timed rows: events (with a property condition too) and message interactions. */
import type { SegmentOperator } from '@gd/shared';
import { conditionWindow, dateOperatorRange, inDays, invalid, nullSafe, numberValue, positiveOf, values, type Cond, type DayRange, type Params } from './sql.ts';
import { propertyPredicate } from './values.ts';

/**
 * A source of timed rows for one person: events or message interactions, with fixed filters.
 * `eventName` (a parameter) when the rows are one event's with no other filter: whether one exists
 * on some local days can then be read from the person-month day bitmaps (see eventDaysExist).
 */
export interface Occurrences { table: 'events' | 'message_interactions'; alias: 'e' | 'mi'; filters: string[]; eventName?: string }

/**
 * Whether the person sent the event on at least one local day of `range` (all time when null),
 * from event_person_months (migration 034: per person, event and month, a bitmask of the days of
 * the month they sent it, in the app's time zone, kept exact by ingestion). Same answer as the
 * events, since every range here is whole local days of that zone; a handful of narrow rows per
 * person instead of each event.
 */
export function eventDaysExist(p: Params, eventName: string, range: DayRange | null): string {
  const where = ['m.app_id = p.app_id', 'm.person_id = p.id', `m.name = ${eventName}`];
  const from = range?.from ?? null;
  const to = range?.to ?? null;
  // Months that can hold a day of the range: from the month of `from`, before `to`.
  if (from) where.push(`m.month >= (${from} - (extract(day FROM ${from})::int - 1))`);
  if (to) where.push(`m.month < ${to}`);
  if (from || to) where.push(`(m.days & gd_month_days_mask(m.month, ${from ?? 'NULL'}, ${to ?? 'NULL'})) <> 0`);
  return `EXISTS (SELECT 1 FROM event_person_months m WHERE ${where.join(' AND ')})`;
}

export function occurrencesExist(o: Occurrences, extra: string[], offset?: string): string {
  const where = [`${o.alias}.app_id = p.app_id`, `${o.alias}.person_id = p.id`, ...o.filters, ...extra].join(' AND ');
  return `EXISTS (SELECT 1 FROM ${o.table} ${o.alias} WHERE ${where}${offset ? ` OFFSET ${offset}` : ''})`;
}
export const timeIn = (p: Params, o: Occurrences, range: DayRange | null) => (range ? [inDays(p, { kind: 'instant', sql: `${o.alias}.event_time` }, range)] : []);

/**
 * Positive operators on occurrences (events, in-app impressions or clicks). `source` adds its
 * filters' parameters when called: only when the answer needs rows (a count below zero is a
 * constant, and a parameter the SQL does not use fails the whole query).
 */
export function occurrencePredicate(c: Cond, source: () => Occurrences, op: SegmentOperator): string {
  const exists = (range: DayRange | null, offset?: () => string) => {
    const o = source();
    if (!offset && o.eventName && c.ctx.eventDays) return eventDaysExist(c.p, o.eventName, range);
    return occurrencesExist(o, timeIn(c.p, o, range), offset?.());
  };
  switch (op) {
    case 'was_made':
      return exists(conditionWindow(c));
    case 'more_than': {
      // count > x  <=>  at least floor(x) + 1 rows: a row exists after skipping floor(x).
      // No one has 2^53 rows: a larger count would not fit OFFSET's bigint anyway.
      const x = numberValue(c);
      if (x < 0) return 'TRUE';
      if (x >= Number.MAX_SAFE_INTEGER) return 'FALSE';
      return exists(conditionWindow(c), () => c.p.add(Math.floor(x), 'bigint'));
    }
    case 'less_than': {
      // count < x  <=>  not at least ceil(x) rows.
      const k = Math.ceil(numberValue(c));
      if (k <= 0) return 'FALSE';
      if (k > Number.MAX_SAFE_INTEGER) return 'TRUE';
      return `NOT ${exists(conditionWindow(c), () => c.p.add(k - 1, 'bigint'))}`;
    }
    case 'was_on': case 'was_ago': case 'was_more_than': case 'was_less_than':
      return exists(dateOperatorRange(c, op));
    default:
      return invalid('condition', 'operator_not_applicable');
  }
}

/** Events with a property condition: with_property, user_event_tag, user_product_tag. */
export function eventPropertyPredicate(c: Cond, event: string, property: string, op: SegmentOperator): string {
  const o: Occurrences = { table: 'events', alias: 'e', filters: [`e.name = ${c.p.add(event, 'text')}`] };
  const { op: positive, negated } = positiveOf(op);
  const inner = nullSafe(propertyPredicate(c, positive, `(e.properties -> ${c.p.add(property, 'text')})`));
  return occurrencesExist(o, [...timeIn(c.p, o, conditionWindow(c)), negated ? `NOT ${inner}` : inner]);
}

export const interactions = (filters: string[]): Occurrences => ({ table: 'message_interactions', alias: 'mi', filters });

/** sent / clicked / engaged on message interactions, optionally of one channel. */
export function messagesPredicate(c: Cond, op: SegmentOperator, channel: string | null, idColumn: 'mi.campaign_id' | 'mi.journey_id'): string {
  const filters = channel ? [`mi.channel = ${c.p.add(channel, 'text')}`] : [];
  switch (op) {
    case 'sent': filters.push(`${idColumn} = ANY(${c.p.add(values(c), 'text[]')})`); break;
    case 'clicked': filters.push(`${idColumn} = ANY(${c.p.add(values(c), 'text[]')})`, `mi.kind = 'click'`); break;
    case 'engaged': filters.push(`mi.kind IN ('click','open')`); if (idColumn === 'mi.journey_id') filters.push('mi.journey_id IS NOT NULL'); break;
    default: return invalid('condition', 'operator_not_applicable');
  }
  const o = interactions(filters);
  return occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)));
}
