/**
 * Segment ⇄ Yjs: meta.rootKey plus a flat `nodes` map; a group's children are a Y.Array of keys,
 * and a condition's chosen values (`multiSelect`) a Y.Array merged as a set: a value one person
 * adds is kept whatever others add or remove at the same time (a plain list, one value in the map,
 * kept only one person's list). Schema version 2 turned stored plain lists into Y.Arrays.
 */
import * as Y from 'yjs';
import {
  SegmentNodeKey,
  SegmentNode,
  createConditionNode,
  createGroupNode,
  createSegment,
  type Segment,
} from '../segment/model.ts';
import { parseDocName } from './names.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { childArray, childMap, lenientParse, patchArray, patchMap, plain } from './ymap.ts';

function readNode(key: string, value: unknown): SegmentNode | null {
  if (!(value instanceof Y.Map)) return null;
  const map = value as Y.Map<unknown>;
  const kind = map.get('kind');
  const raw: Record<string, unknown> = {};
  for (const [k, v] of map.entries()) raw[k] = plain(v);
  if (kind === 'group') {
    const children = Array.isArray(raw.children) ? raw.children.filter((c) => SegmentNodeKey.safeParse(c).success) : [];
    return lenientParse(SegmentNode, createGroupNode(key), { ...raw, key, children });
  }
  if (kind === 'condition') {
    // Two people adding the same value at once both insert it: a set has it once.
    const multiSelect = Array.isArray(raw.multiSelect) ? [...new Set(raw.multiSelect)] : raw.multiSelect;
    return lenientParse(SegmentNode, createConditionNode(key), { ...raw, key, multiSelect });
  }
  return null;
}

/** The segment as stored (not normalized), nodes sorted by key. */
export function segmentFromDoc(doc: Y.Doc): Segment {
  const rootKey = doc.getMap('meta').get('rootKey');
  const nodes = [...doc.getMap('nodes').entries()]
    .flatMap(([key, value]) => readNode(key, value) ?? [])
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { rootKey: typeof rootKey === 'string' && rootKey !== '' ? rootKey : 'root', nodes };
}

export function applySegmentToDoc(doc: Y.Doc, segment: Segment, origin?: unknown) {
  doc.transact(() => {
    const meta = doc.getMap('meta');
    if (meta.get('rootKey') !== segment.rootKey) meta.set('rootKey', segment.rootKey);
    const nodes = doc.getMap<unknown>('nodes');
    const keys = new Set(segment.nodes.map((n) => n.key));
    for (const key of [...nodes.keys()]) if (!keys.has(key)) nodes.delete(key);
    for (const node of segment.nodes) {
      const map = childMap(nodes, node.key);
      const { key: _key, ...fields } = node;
      patchMap(map, fields, ['children', 'multiSelect']);
      if (node.kind === 'group') {
        patchArray(childArray<string>(map, 'children'), node.children);
        if (map.has('multiSelect')) map.delete('multiSelect');
      } else {
        patchSet(childArray<string>(map, 'multiSelect'), node.multiSelect);
        if (map.has('children')) map.delete('children');
      }
    }
  }, origin);
}

/**
 * Makes the set `arr` hold the values of `next`: removes the values that are gone (every copy),
 * appends the new ones. Only what changed is written, so concurrent additions and removals of
 * different values all hold.
 */
export function patchSet(arr: Y.Array<string>, next: readonly string[]) {
  const wanted = new Set(next);
  const current = arr.toArray();
  for (let i = current.length - 1; i >= 0; i--) if (!wanted.has(current[i] as string)) arr.delete(i, 1);
  const have = new Set(current);
  const added = [...wanted].filter((v) => !have.has(v));
  if (added.length > 0) arr.push(added);
}

/** Version 2: a condition's `multiSelect` stored as a plain list becomes a Y.Array (see patchSet). */
export function migrateSegmentListsToSets(doc: Y.Doc) {
  doc.getMap<unknown>('nodes').forEach((node) => {
    if (!(node instanceof Y.Map)) return;
    const map = node as Y.Map<unknown>;
    const list: unknown = map.get('multiSelect');
    if (map.get('kind') !== 'condition' || !Array.isArray(list)) return;
    const values = [...new Set(list.filter((v): v is string => typeof v === 'string'))];
    const arr = new Y.Array<string>();
    arr.push(values);
    map.set('multiSelect', arr);
  });
}

/** Server side only: meta and an empty root group, unless the document already has a kind. */
export function initSegmentDoc(doc: Y.Doc, name: string): boolean {
  if (parseDocName(name)?.kind !== 'segment') throw new Error(`not a segment document name: ${name}`);
  const meta = doc.getMap('meta');
  if (meta.has('kind')) return false;
  doc.transact(() => {
    meta.set('schemaVersion', SCHEMA_VERSION.segment);
    meta.set('kind', 'segment');
    applySegmentToDoc(doc, createSegment('root'));
  });
  return true;
}
