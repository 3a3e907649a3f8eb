import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { initJourneyDoc } from './journeyDoc.ts';
import { DOC_MIGRATIONS, migrateDoc, type DocMigrations } from './migrate.ts';
import { SCHEMA_VERSION } from './schema.ts';

const NAME = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222/journey/33333333-3333-4333-8333-333333333333';

describe('migrateDoc', () => {
  it('leaves current and uninitialized documents alone', () => {
    const doc = new Y.Doc();
    expect(migrateDoc(doc)).toEqual({ status: 'uninitialized' });
    initJourneyDoc(doc, NAME);
    expect(migrateDoc(doc)).toEqual({ status: 'current', kind: 'journey', version: SCHEMA_VERSION.journey });
  });

  it('stamps a document from before versioning (v0)', () => {
    const doc = new Y.Doc();
    doc.getMap('meta').set('kind', 'message');
    expect(migrateDoc(doc)).toEqual({ status: 'migrated', kind: 'message', from: 0, to: SCHEMA_VERSION.message });
    expect(doc.getMap('meta').get('schemaVersion')).toBe(SCHEMA_VERSION.message);
  });

  it('runs the missing migrations in order, in one transaction', () => {
    const doc = new Y.Doc();
    initJourneyDoc(doc, NAME);
    const ran: number[] = [];
    const migrations: DocMigrations = {
      ...DOC_MIGRATIONS,
      journey: [
        { to: 3, up: (d) => (ran.push(3), d.getMap('meta').set('x', 3)) },
        { to: 2, up: (d) => (ran.push(2), d.getMap('layout').clear()) },
        ...DOC_MIGRATIONS.journey,
      ],
    };
    let transactions = 0;
    doc.on('afterTransaction', () => transactions++);
    const result = migrateDoc(doc, { migrations, versions: { ...SCHEMA_VERSION, journey: 3 } });
    expect(result).toEqual({ status: 'migrated', kind: 'journey', from: 1, to: 3 });
    expect(ran).toEqual([2, 3]);
    expect(transactions).toBe(1);
    expect(doc.getMap('meta').get('schemaVersion')).toBe(3);
  });

  it('refuses documents newer than this code, unknown kinds and gaps', () => {
    const doc = new Y.Doc();
    initJourneyDoc(doc, NAME);
    doc.getMap('meta').set('schemaVersion', 99);
    expect(migrateDoc(doc)).toEqual({ status: 'too_new', kind: 'journey', version: 99, supported: SCHEMA_VERSION.journey });
    doc.getMap('meta').set('schemaVersion', 1);
    expect(migrateDoc(doc, { versions: { ...SCHEMA_VERSION, journey: 3 } })).toEqual({ status: 'no_path', kind: 'journey', version: 1, missing: 2 });
    expect(doc.getMap('meta').get('schemaVersion')).toBe(1);
    doc.getMap('meta').set('kind', 'spreadsheet');
    expect(migrateDoc(doc)).toEqual({ status: 'unknown_kind', kind: 'spreadsheet' });
  });
});
