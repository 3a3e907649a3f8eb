/** Segment ⇄ Yjs: meta.rootKey plus a flat `nodes` map; a group's children are a Y.Array of keys. */
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
  if (kind === 'condition') return lenientParse(SegmentNode, createConditionNode(key), { ...raw, key });
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
      patchMap(map, fields, ['children']);
      if (node.kind === 'group') patchArray(childArray<string>(map, 'children'), node.children);
      else if (map.has('children')) map.delete('children');
    }
  }, origin);
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
