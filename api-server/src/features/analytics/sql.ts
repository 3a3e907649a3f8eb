/**
 * SQL fragments of the analytics queries (pure strings, no I/O): positional parameters, bucket
 * expressions that produce exactly the labels of range.ts, and the breakdown columns. Only
 * whitelisted column names are ever spliced into SQL; every value travels as a parameter.
 */
import type { ExploreBreakdown, TimeGroup } from '@gd/shared';

/** Collects parameter values and answers their `$n` placeholders. Add a value only where the SQL uses it: Postgres cannot type an unused parameter. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Rollup and events columns of the row dimensions (both tables spell them alike). */
export const DIMENSION_COLUMNS = { source: 'source', country: 'country', os: 'os', appVersion: 'app_version' } as const satisfies Record<Exclude<ExploreBreakdown, 'property'>, string>;
export type RowDimension = keyof typeof DIMENSION_COLUMNS;

/**
 * The bucket label of a day, as text: the day itself, or the start of its ISO week or month
 * clipped to the range start (`start`, a date placeholder). `day` is a date expression.
 */
export function dayBucket(group: Exclude<TimeGroup, 'hour'>, day: string, start: string): string {
  switch (group) {
    case 'day':
      return `to_char(${day}, 'YYYY-MM-DD')`;
    case 'week':
    case 'month':
      // date_trunc on a timestamp without time zone, so the session's zone plays no part.
      return `to_char(greatest(date_trunc('${group}', (${day})::timestamp)::date, ${start}::date), 'YYYY-MM-DD')`;
    default: {
      const never: never = group;
      throw new Error(`unknown time group ${String(never)}`);
    }
  }
}

/** The HH:00 label of a local timestamp expression. */
export const hourBucket = (localTime: string) => `to_char(${localTime}, 'HH24') || ':00'`;
