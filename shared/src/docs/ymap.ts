/** Minimal-diff writes between plain objects and Y.Maps, and lenient reads. */
import * as Y from 'yjs';
import type { z } from 'zod';
import { jsonEqual } from '../journey/json.ts';

/** A plain copy of a stored value (Yjs hands out the stored object itself). */
export function plain(value: unknown): unknown {
  if (value instanceof Y.Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [k, plain(v)]));
  if (value instanceof Y.Array) return value.toArray().map(plain);
  if (value instanceof Y.AbstractType) return value.toJSON();
  return value === undefined ? undefined : structuredClone(value);
}

/**
 * Writes `obj` into `map`: sets only keys whose value changed, deletes keys that are gone or
 * undefined. Keys in `nested` are left to the caller (Y types inside the map).
 */
export function patchMap(map: Y.Map<unknown>, obj: Record<string, unknown>, nested: readonly string[] = []) {
  for (const [key, value] of Object.entries(obj)) {
    if (nested.includes(key)) continue;
    if (value === undefined) {
      if (map.has(key)) map.delete(key);
    } else if (!map.has(key) || !jsonEqual(plain(map.get(key)), value)) {
      map.set(key, structuredClone(value));
    }
  }
  for (const key of [...map.keys()]) {
    if (!nested.includes(key) && obj[key] === undefined) map.delete(key);
  }
}

/** The Y.Map under `key` in `parent`, created when missing or of another kind. */
export function childMap(parent: Y.Map<unknown>, key: string): Y.Map<unknown> {
  const current = parent.get(key);
  if (current instanceof Y.Map) return current as Y.Map<unknown>;
  const created = new Y.Map<unknown>();
  parent.set(key, created);
  return created;
}

/** The Y.Array under `key` in `map`, created when missing or of another kind. */
export function childArray<T>(map: Y.Map<unknown>, key: string): Y.Array<T> {
  const current = map.get(key);
  if (current instanceof Y.Array) return current as Y.Array<T>;
  const created = new Y.Array<T>();
  map.set(key, created);
  return created;
}

/** Replaces the differing middle of `arr` so it equals `next` (common prefix and suffix kept). */
export function patchArray<T>(arr: Y.Array<T>, next: readonly T[]) {
  const cur = arr.toArray();
  let start = 0;
  while (start < cur.length && start < next.length && jsonEqual(cur[start], next[start])) start++;
  let end = 0;
  while (
    end < cur.length - start &&
    end < next.length - start &&
    jsonEqual(cur[cur.length - 1 - end], next[next.length - 1 - end])
  ) {
    end++;
  }
  const removeCount = cur.length - start - end;
  if (removeCount > 0) arr.delete(start, removeCount);
  const insert = next.slice(start, next.length - end);
  if (insert.length) arr.insert(start, [...insert]);
}

/**
 * Parses `raw` over `defaults`; when the whole fails (two concurrent edits can combine into a
 * shape no single edit wrote), keeps each raw field that still parses and the default otherwise.
 */
export function lenientParse<T>(schema: z.ZodType<T>, defaults: T, raw: Record<string, unknown>): T {
  const whole = schema.safeParse({ ...(defaults as object), ...raw });
  if (whole.success) return whole.data;
  let acc: Record<string, unknown> = { ...(defaults as object) };
  for (const [key, value] of Object.entries(raw)) {
    const trial = { ...acc, [key]: value };
    if (schema.safeParse(trial).success) acc = trial;
  }
  return schema.parse(acc);
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
