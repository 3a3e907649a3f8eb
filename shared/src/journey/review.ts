/**
 * The launch review (issue 11): what a launch would change against the live version, and the
 * fingerprint of the journey the person reviewed, so that the server launches exactly that journey
 * (a launch whose journey changed after the review is refused and reviewed again).
 *
 * Automatic steps (ends, waits the rules add) are the rules' own: they are neither listed as added
 * or removed nor count as changes. A step's links (`next`, a path's `next`) are not a change of the
 * step by themselves: an insertion shows as the new step, not as its neighbour "changed".
 */
import { canonicalJson } from './json.ts';
import type { Journey, JourneyStep } from './model.ts';
import { normalizeJourney } from './normalize.ts';
import { settingsOf } from './settings.ts';

export interface StepChange {
  step: JourneyStep;
  /** The fields that differ (`paths` for a change to a path other than where it leads). */
  fields: string[];
}

export interface JourneyDiff {
  added: JourneyStep[];
  removed: JourneyStep[];
  changed: StepChange[];
  /** Only the links between steps changed (a step moved, a branch reconnected). */
  relinked: boolean;
  /** The journey settings (settings.ts) differ; absent settings count as the defaults. */
  settingsChanged: boolean;
}

const LINKS = new Set(['id', 'auto', 'next']);

/** The step without its links (paths keep their settings). */
function settings(step: JourneyStep): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(step)) {
    if (LINKS.has(key)) continue;
    out[key] = key === 'paths' && Array.isArray(value) ? value.map((p: Record<string, unknown>) => ({ ...p, next: undefined })) : value;
  }
  return out;
}

const links = (step: JourneyStep): string => canonicalJson('paths' in step ? step.paths.map((p) => p.next) : 'next' in step ? step.next : null);

/** What `after` changes against `before` (null: never launched, every step is new). Both are normalized first. */
export function diffJourneys(before: Journey | null, after: Journey): JourneyDiff {
  const b = before ? normalizeJourney(before) : null;
  const a = normalizeJourney(after);
  const user = (j: Journey) => new Map(j.steps.filter((s) => s.auto !== true).map((s) => [s.id, s]));
  const was = b ? user(b) : new Map<string, JourneyStep>();
  const now = user(a);
  const added = [...now.values()].filter((s) => !was.has(s.id));
  const removed = [...was.values()].filter((s) => !now.has(s.id));
  const changed: StepChange[] = [];
  let relinked = b !== null && b.entryId !== a.entryId;
  for (const step of now.values()) {
    const old = was.get(step.id);
    if (!old) continue;
    const s1 = settings(old);
    const s2 = settings(step);
    const fields = [...new Set([...Object.keys(s1), ...Object.keys(s2)])].filter((k) => canonicalJson(s1[k]) !== canonicalJson(s2[k])).sort();
    if (fields.length > 0) changed.push({ step, fields });
    if (links(old) !== links(step)) relinked = true;
  }
  const settingsChanged = canonicalJson(settingsOf(b ?? {})) !== canonicalJson(settingsOf(a));
  return { added, removed, changed, relinked: relinked && added.length === 0 && removed.length === 0, settingsChanged };
}

export const diffIsEmpty = (d: JourneyDiff): boolean =>
  d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0 && !d.relinked && !d.settingsChanged;

/** SHA-256 (hex) of the normalized journey as canonical JSON: the same in the browser and on the server. */
export async function journeyFingerprint(j: Journey): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(normalizeJourney(j)));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, '0')).join('');
}
