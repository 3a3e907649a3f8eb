/**
 * The common parts of analytics queries (funnels, cohorts, dashboards, reports): the range, a
 * property filter on an event, a step event, and a breakdown of people.
 *
 * Decisions:
 * - The range fields and their rules are explore's (`checkRange` in behaviour.ts): `startDay` and
 *   `endDay` are days in the app's time zone, both included, both or neither (neither = the last
 *   7 days including today), at most ANALYTICS_LIMITS.maxRangeDays days.
 * - A property filter compares the event's `properties ->> property` as text for `eq`, `neq` and
 *   `contains` (case-sensitive for eq/neq, case-insensitive for contains), and as a number for
 *   `gt` and `lt` (a value that is not a plain decimal number does not match). Arrays and objects
 *   have no text: only `set` and `neq` match them. Numbers compare as their JSON text for eq
 *   (send 1.5, not 1.50). `set` = the key is present and
 *   not null; `notSet` = absent or null. `neq` matches an event without the property (as
 *   Mixpanel's "is not" does). `set` and `notSet` take no value; the others need one.
 * - A breakdown by a person attribute reads the column of `people` (its latest value), by an
 *   event property the step event's `properties`. Missing values are EMPTY_SENTINEL; values past
 *   the top ANALYTICS_LIMITS.breakdownTop are OTHER_SENTINEL.
 */
import { z } from 'zod';
import { TimeGroup } from '../enums.ts';
import { DateString } from '../formats.ts';
import { EventNameParam, checkRange } from './behaviour.ts';

export { EMPTY_SENTINEL, OTHER_SENTINEL } from '../behaviour/events.ts';

/** Range fields of an analytics query; combine with `.superRefine(checkRange)`. */
export const analyticsRangeFields = {
  startDay: DateString.optional(),
  endDay: DateString.optional(),
  timeGroup: TimeGroup.default('day'),
};
export { checkRange };

export const PROPERTY_FILTER_OPS = ['eq', 'neq', 'contains', 'gt', 'lt', 'set', 'notSet'] as const;
export const PropertyFilterOp = z.enum(PROPERTY_FILTER_OPS);
export type PropertyFilterOp = z.infer<typeof PropertyFilterOp>;

/** Filters on one step's event, at most this many. */
export const MAX_STEP_FILTERS = 5;

export const PropertyName = z.string().trim().min(1).max(64);

export const PropertyFilter = z
  .object({
    property: PropertyName,
    op: PropertyFilterOp,
    value: z.union([z.string().max(200), z.number().finite()]).optional(),
  })
  .superRefine((f, ctx) => {
    const needsValue = f.op !== 'set' && f.op !== 'notSet';
    if (needsValue && (f.value === undefined || f.value === '')) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Give a value to compare with' });
    if ((f.op === 'gt' || f.op === 'lt') && f.value !== undefined && !Number.isFinite(Number(f.value))) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Give a number' });
  });
export type PropertyFilter = z.infer<typeof PropertyFilter>;

export const StepEvent = z.object({
  event: EventNameParam,
  filters: z.array(PropertyFilter).max(MAX_STEP_FILTERS).default([]),
});
export type StepEvent = z.infer<typeof StepEvent>;

export const PERSON_ATTRIBUTES = ['country', 'os', 'app_version', 'from_source', 'from_campaign', 'carrier', 'city', 'state'] as const;
export const PersonAttribute = z.enum(PERSON_ATTRIBUTES);
export type PersonAttribute = z.infer<typeof PersonAttribute>;

export const PersonBreakdown = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('attribute'), field: PersonAttribute }),
  z.object({ kind: z.literal('property'), property: PropertyName }),
]);
export type PersonBreakdown = z.infer<typeof PersonBreakdown>;

/** A value compared by gt/lt must look like this (the SQL uses the same pattern). */
export const NUMERIC_TEXT_PATTERN = '^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$';
const NUMERIC_TEXT = new RegExp(NUMERIC_TEXT_PATTERN);

/** Whether an event's properties pass a filter (the rule the SQL of every query follows). */
export function matchesFilter(properties: Record<string, unknown> | null | undefined, f: PropertyFilter): boolean {
  const raw = properties?.[f.property];
  const present = raw !== undefined && raw !== null;
  // Arrays and objects are present but have no text to compare: only set/neq match them.
  const text = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : null;
  switch (f.op) {
    case 'set':
      return present;
    case 'notSet':
      return !present;
    case 'eq':
      return text !== null && text === String(f.value);
    case 'neq':
      return text === null || text !== String(f.value);
    case 'contains':
      return text !== null && text.toLowerCase().includes(String(f.value).toLowerCase());
    case 'gt':
    case 'lt': {
      if (text === null || !NUMERIC_TEXT.test(text)) return false;
      const n = Number(text);
      return f.op === 'gt' ? n > Number(f.value) : n < Number(f.value);
    }
  }
}

export function matchesStep(name: string, properties: Record<string, unknown> | null | undefined, step: StepEvent): boolean {
  return name === step.event && step.filters.every((f) => matchesFilter(properties, f));
}
