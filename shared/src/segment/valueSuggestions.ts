/**
 * Which condition fields have values to suggest (issue 11: "Country 'Spain' finds nobody"), and
 * where those values are stored: the same columns the API's segment compiler compares (see
 * api-server/src/features/segments/compile/attributes.ts and compile.ts). The API lists the most
 * frequent values of the app for such a field (GET /apps/:appId/segment-values); the editor offers
 * them as suggestions, and for countries and operating systems a picker of known values.
 *
 * Decisions:
 * - Text and version attributes of the person (app, OS and SDK versions, city, country, state,
 *   first campaign and source), the device fields, text user tags and event properties (of an
 *   event, of the purchase event) have suggestions. E-mail does not: each address belongs to one
 *   person, so listing them would be a people search, not a value suggestion.
 * - Fields of other kinds (days, numbers, booleans, audiences, journeys, messages) have none.
 */
import { PURCHASE_EVENT, DeviceField, parseEventProperty } from './semantics.ts';
import type { SegmentAttribute, SegmentFilterKind } from './model.ts';

/** Person attributes whose stored values are listed. */
export const SUGGESTED_ATTRIBUTES = ['app_version', 'os_version', 'sdk_version', 'city', 'country', 'state', 'campaign', 'source'] as const satisfies readonly SegmentAttribute[];
export type SuggestedAttribute = (typeof SUGGESTED_ATTRIBUTES)[number];

export type ValueSource =
  | { from: 'person'; attribute: SuggestedAttribute }
  | { from: 'device'; field: DeviceField }
  /** A user tag's text values (the tag must be a text tag of the app). */
  | { from: 'tag'; tagId: string }
  | { from: 'event_property'; event: string; property: string };

const isSuggestedAttribute = (id: string): id is SuggestedAttribute => (SUGGESTED_ATTRIBUTES as readonly string[]).includes(id);

/**
 * Where the values of the field (filter kind, id) are stored, or null when the field has no values
 * to list. Event kinds name a property as `<event>/<property>` (as for `with_property`).
 * Whether the id exists (a tag of the app, a valid event name) is checked with `conditionTarget`.
 */
export function valueSource(type: SegmentFilterKind, id: string): ValueSource | null {
  const trimmed = id.trim();
  switch (type) {
    case 'attribute':
      return isSuggestedAttribute(trimmed) ? { from: 'person', attribute: trimmed } : null;
    case 'device_os': {
      const field = DeviceField.safeParse(trimmed);
      return field.success ? { from: 'device', field: field.data } : null;
    }
    case 'user_tag':
      return trimmed === '' ? null : { from: 'tag', tagId: trimmed };
    case 'aevent':
    case 'user_event':
    case 'user_event_tag': {
      const parsed = parseEventProperty(trimmed);
      return parsed ? { from: 'event_property', event: parsed.event, property: parsed.property } : null;
    }
    case 'user_product_tag':
      return trimmed === '' ? null : { from: 'event_property', event: PURCHASE_EVENT, property: trimmed };
    case 'user_purchase_tag':
    case 'inapp_impressions':
    case 'inapp_clicks':
    case 'filter_campaign':
    case 'unsupported':
      return null;
    default: {
      const never: never = type;
      throw new Error(`unknown filter kind ${String(never)}`);
    }
  }
}

/** The picker a field's values are chosen with: countries (ISO codes), operating systems, or typed text with suggestions. */
export type ValuePicker = 'country' | 'os' | 'text';

export function valuePicker(type: SegmentFilterKind | null, id: string | null): ValuePicker {
  if (type === 'attribute' && id?.trim() === 'country') return 'country';
  if (type === 'device_os' && id?.trim() === 'os') return 'os';
  return 'text';
}
