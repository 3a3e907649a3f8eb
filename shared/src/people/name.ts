/**
 * A person's name. The spec's user fields (SPEC.md section 3) have none, so apps send it as free
 * profile attributes; this is the one rule that reads it, used by the API (people list, segment
 * and audience samples) and the client (profile header) alike.
 *
 * The usual keys: a whole name (`name`, `full_name`, `display_name`, camelCase too), else first
 * and last names (`first_name`/`given_name` + `last_name`/`family_name`/`surname`, what the demo
 * data sends). Only text counts (a number under `name` is not a name); spaces are collapsed.
 *
 * `NAME_ATTRIBUTE_KEYS` is every key the rule reads, so the API selects only those from a person's
 * attributes (never the whole column) and gets the same answer as from the whole profile.
 */

export const WHOLE_NAME_KEYS = ['name', 'full_name', 'fullName', 'display_name', 'displayName'] as const;
export const FIRST_NAME_KEYS = ['first_name', 'firstName', 'given_name', 'givenName'] as const;
export const LAST_NAME_KEYS = ['last_name', 'lastName', 'family_name', 'familyName', 'surname'] as const;

/** Every attribute key `personName` reads. */
export const NAME_ATTRIBUTE_KEYS: readonly string[] = [...WHOLE_NAME_KEYS, ...FIRST_NAME_KEYS, ...LAST_NAME_KEYS];

function firstText(attributes: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().replace(/\s+/g, ' ');
  }
  return null;
}

/** The person's name from their profile attributes, when the app sends one; else null. */
export function personName(attributes: Record<string, unknown> | null | undefined): string | null {
  if (!attributes) return null;
  const whole = firstText(attributes, WHOLE_NAME_KEYS);
  if (whole) return whole;
  const parts = [firstText(attributes, FIRST_NAME_KEYS), firstText(attributes, LAST_NAME_KEYS)].filter(Boolean);
  return parts.length ? parts.join(' ') : null;
}
