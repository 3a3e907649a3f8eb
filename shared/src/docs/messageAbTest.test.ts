import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createMessageDraft, MessageDraft } from '../message/draft.ts';
import { applyMessageDraftToDoc, messageDraftFromDoc } from './messageDoc.ts';
import { migrateDoc } from './migrate.ts';
import { SCHEMA_VERSION } from './schema.ts';

describe('the A/B test portion in message documents (schema version 4)', () => {
  it('a version 3 document gets the default (everyone) on load, and an edit round-trips', () => {
    const doc = new Y.Doc();
    applyMessageDraftToDoc(doc, createMessageDraft('test_ab'));
    doc.getMap('settings').delete('abTest');
    doc.getMap('meta').set('kind', 'message');
    doc.getMap('meta').set('schemaVersion', 3);
    expect(migrateDoc(doc)).toEqual({ status: 'migrated', kind: 'message', from: 3, to: SCHEMA_VERSION.message });
    expect(doc.getMap('settings').get('abTest')).toEqual({ testPercent: 100 });
    applyMessageDraftToDoc(doc, { ...messageDraftFromDoc(doc), abTest: { testPercent: 30 } });
    expect(messageDraftFromDoc(doc).abTest).toEqual({ testPercent: 30 });
  });

  it('keeps the metric the winner is decided on, chosen in the editor', () => {
    const doc = new Y.Doc();
    applyMessageDraftToDoc(doc, { ...createMessageDraft('test_ab'), abTest: { testPercent: 20, primaryMetric: 'conversion' } });
    expect(messageDraftFromDoc(doc).abTest).toEqual({ testPercent: 20, primaryMetric: 'conversion' });
    expect(MessageDraft.safeParse({ ...createMessageDraft('test_ab'), abTest: { testPercent: 20, primaryMetric: 'revenue' } }).success).toBe(false);
  });

  it('a stored version from before the field reads the default; out-of-range portions are refused', () => {
    const { abTest: _dropped, ...older } = createMessageDraft('test_ab');
    expect(MessageDraft.parse(older).abTest).toEqual({ testPercent: 100 });
    expect(MessageDraft.safeParse({ ...older, abTest: { testPercent: 5 } }).success).toBe(false);
  });
});
