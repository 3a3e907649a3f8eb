/**
 * The Yjs layout of each document kind. Every document has a Y.Map `meta` (schemaVersion, kind,
 * plus a kind's own keys); the other roots are:
 * - journey: `steps` (stepId → Y.Map of the step's fields, `paths` a Y.Array of Y.Map), `layout`
 *   (stepId → {x, y}, written when a drag ends; live dragging travels as awareness), `settings`
 *   (reentry, entryKey, exit, goal → plain values; absent in older documents, which run with the
 *   defaults, so no schema version change), `simulation` (the last simulation run in the editor:
 *   request, answer, who and when as plain values; not part of the journey, which never reads it);
 * - segment: `nodes` (key → Y.Map of a group or condition; a group's `children` a Y.Array of keys,
 *   a condition's `multiSelect` a Y.Array of values merged as a set, since version 2);
 * - message (version 4, messageDoc.ts; 3 added the `conversion` setting, 4 `abTest`): `settings` (setting → value), `languages` (language →
 *   position), `variants` (id → Y.Map), `content` (`<variantId>/<language>` → Y.Map of fields, the
 *   long texts as Y.Text);
 * - dashboard (dashboardDoc.ts): `widgets` (widget id → Y.Map of title, kind, query, x, y, w, h).
 */
import type { DocumentKind } from './names.ts';

export const DOC_ROOTS = {
  journey: ['meta', 'steps', 'layout', 'settings', 'simulation'],
  segment: ['meta', 'nodes'],
  message: ['meta', 'settings', 'languages', 'variants', 'content'],
  dashboard: ['meta', 'widgets'],
} as const satisfies Record<DocumentKind, readonly string[]>;
export type DocRoot<K extends DocumentKind> = (typeof DOC_ROOTS)[K][number];

/** What a root map holds: nested Y.Maps, or plain JSON values. */
export const DOC_ROOT_VALUES: { [K in DocumentKind]: Record<DocRoot<K>, 'map' | 'json'> } = {
  journey: { meta: 'json', steps: 'map', layout: 'json', settings: 'json', simulation: 'json' },
  segment: { meta: 'json', nodes: 'map' },
  message: { meta: 'json', settings: 'json', languages: 'json', variants: 'map', content: 'map' },
  dashboard: { meta: 'json', widgets: 'map' },
};

export const META_KEYS = {
  journey: ['schemaVersion', 'kind', 'entryId'],
  segment: ['schemaVersion', 'kind', 'rootKey'],
  message: ['schemaVersion', 'kind'],
  dashboard: ['schemaVersion', 'kind'],
} as const satisfies Record<DocumentKind, readonly string[]>;

/** The schema version this code writes, per kind. Older documents are migrated on load. */
export const SCHEMA_VERSION = { journey: 1, segment: 2, message: 4, dashboard: 1 } as const satisfies Record<DocumentKind, number>;

/** Largest live update (one edit, sent as it is made) the sync server accepts in one message. */
export const MAX_UPDATE_BYTES = 512 * 1024;
/**
 * Largest catch-up (SyncStep2: everything a client made offline, sent in one message when it
 * connects) the sync server accepts: what a document may hold, not what one edit may. Bigger
 * offline sessions than a live edit are normal (a marketer working a day on a plane) and must never
 * be refused: a refused catch-up used to make the browser drop its copy.
 */
export const MAX_CATCHUP_BYTES = 16 * 1024 * 1024;
