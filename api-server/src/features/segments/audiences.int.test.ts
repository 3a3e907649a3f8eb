/**
 * Segments and audiences through the real API: segment management and document tokens, the
 * estimate, audience states (new → in progress → ready / error, inactive), refresh now and on
 * schedule, atomic refresh (a failure mid-way keeps the previous members), clone, delete, and the
 * permissions of section 3 (create, edit/delete/clone with owner variants, modify segment,
 * select non-test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { pino } from 'pino';
import * as Y from 'yjs';
import { ErrorCode, applySegmentToDoc, createGroupNode, initSegmentDoc, type Segment } from '@gd/shared';
import { createPool, type Db } from '../../db/pool.ts';
import { STRONG_PASSWORD, TestClient, createTestApp, registerAccount, startTestApi, uniqueEmail, type TestApi } from '../../testing/harness.ts';
import { insertDocument } from '../documents/repository.ts';
import { refreshDueAudiences } from './refresh.ts';
import { seeder, single } from './testing/data.ts';

interface Audience { id: string; name: string; status: string; personCount: number | null; errorName: string | null; errorMessage: string | null; segmentId: string | null; isTest: boolean; nextRefreshAt: string | null }
interface SegmentRow { id: string; name: string; docName: string }

let api: TestApi;
let db: Db;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
const people: Record<string, string> = {};

const byCountry = (country: string): Segment => single({ type: 'attribute', id: 'country', condition: 'equals', input: country });
const p = (extra: Record<string, string> = {}) => ({ appId, ...extra });

async function member(builtIn: string): Promise<TestClient & { userId: string }> {
  const email = uniqueEmail(builtIn.replaceAll(' ', '-'));
  const { roles } = await owner.client.ok<{ roles: { id: string; builtIn: string | null; name: string }[] }>('listRoles');
  const role = roles.find((r) => r.builtIn === builtIn || r.name === builtIn)!;
  await owner.client.ok('addUser', { name: builtIn, email, roleId: role.id });
  const token = decodeURIComponent(/token=([^\s]+)/.exec((await api.waitForMail(email, /token=/)).text)![1]!);
  const client = new TestClient(api.url);
  const { user } = await client.ok<{ user: { id: string } }>('autoLogin', { token });
  await client.ok('changePassword', { newPassword: STRONG_PASSWORD });
  return Object.assign(client, { userId: user.id });
}

const members = async (audienceId: string) =>
  (await db.query<{ customer_id: string }>(
    `SELECT p.customer_id FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id WHERE m.audience_id = $1 ORDER BY 1`, [audienceId],
  )).rows.map((r) => r.customer_id);

async function createAudience(client: TestClient, name: string, source: unknown, extra: Record<string, unknown> = {}): Promise<Audience> {
  return (await client.ok<{ audience: Audience }>('createAudience', { name, source, ...extra }, p())).audience;
}

/** Stores a segment document as the sync server would (initial content, then the conditions). */
async function storeSegmentDoc(segment: SegmentRow, content: Segment) {
  const doc = new Y.Doc();
  initSegmentDoc(doc, segment.docName);
  applySegmentToDoc(doc, content);
  const state = Y.encodeStateAsUpdate(doc);
  await db.query('DELETE FROM documents WHERE name = $1', [segment.docName]);
  await insertDocument(db, { name: segment.docName, accountId: owner.accountId, appId, kind: 'segment', entityId: segment.id, state });
}

beforeAll(async () => {
  api = await startTestApi();
  db = createPool(inject('databaseUrl'), 2);
  owner = await registerAccount(api);
  appId = (await createTestApp(owner.client, { timezone: 'Europe/Madrid' })).id;
  const s = seeder(db, appId);
  people.p1 = await s.person({ customer_id: 'p1', email: 'p1@example.com', country: 'ES' });
  people.p2 = await s.person({ customer_id: 'p2', email: 'p2@example.com', country: 'ES' });
  people.p3 = await s.person({ customer_id: 'p3', country: 'FR' });
  await s.device(people.p1, { key: 'dev-p1', last_seen_at: '2026-03-01T10:00:00Z' });
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

describe('segments', () => {
  it('are created, listed, renamed, cloned and deleted, and their documents open for editors', async () => {
    const { segment } = await owner.client.ok<{ segment: SegmentRow }>('createSegment', { name: 'Spain' }, p());
    expect(segment.docName).toBe(`${owner.accountId}/${appId}/segment/${segment.id}`);
    expect((await owner.client.call('createSegment', { name: 'SPAIN' }, p())).body.code).toBe(ErrorCode.NAME_DUPLICATED);

    const fresh = await owner.client.ok<{ definition: Segment; problems: unknown[] }>('getSegment', undefined, p({ segmentId: segment.id }));
    expect(fresh.definition.nodes).toEqual([createGroupNode('root')]);
    await storeSegmentDoc(segment, byCountry('ES'));
    const stored = await owner.client.ok<{ definition: Segment; problems: unknown[] }>('getSegment', undefined, p({ segmentId: segment.id }));
    expect(stored.definition.nodes).toHaveLength(2);
    expect(stored.problems).toEqual([]);

    const token = await owner.client.ok<{ access: string }>('docToken', { name: segment.docName });
    expect(token.access).toBe('write');

    await owner.client.ok('renameSegment', { name: 'Spain and more' }, p({ segmentId: segment.id }));
    const { segment: copy } = await owner.client.ok<{ segment: SegmentRow }>('cloneSegment', { name: 'Spain copy' }, p({ segmentId: segment.id }));
    const copied = await owner.client.ok<{ definition: Segment }>('getSegment', undefined, p({ segmentId: copy.id }));
    expect(copied.definition).toEqual(stored.definition);
    const listed = await owner.client.ok<{ segments: SegmentRow[] }>('listSegments', undefined, p());
    expect(listed.segments.map((x) => x.name).sort()).toEqual(['Spain and more', 'Spain copy']);

    await owner.client.ok('deleteSegment', undefined, p({ segmentId: copy.id }));
    expect((await owner.client.call('getSegment', undefined, p({ segmentId: copy.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await owner.client.call('docToken', { name: copy.docName })).body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('estimate counts the people now, with a sample, and explains a segment that does not evaluate', async () => {
    const answer = await owner.client.ok<{ count: number; sample: { id: string; customerId: string; email: string; lastSeenAt: string | null }[] }>(
      'estimateSegment', { segment: byCountry('ES') }, p());
    expect(answer.count).toBe(2);
    expect(answer.sample.map((x) => x.customerId)).toEqual(['p2', 'p1']);
    expect(answer.sample[1]).toMatchObject({ id: people.p1, email: 'p1@example.com', lastSeenAt: '2026-03-01T10:00:00.000Z' });
    expect((await owner.client.ok<{ count: number }>('estimateSegment', { segment: { rootKey: 'root', nodes: [createGroupNode('root')] } }, p())).count).toBe(3);

    const invalid = await owner.client.call('estimateSegment', { segment: single({ type: 'attribute', id: 'country', condition: 'was_made' }) }, p());
    expect(invalid.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'nodes.c1.condition', message: 'operator_not_applicable' }] });
    expect(String(invalid.body.message)).toMatch(/^AudienceNotValid/);
    const missing = await owner.client.call('estimateSegment', { segment: single({ type: 'attribute', id: 'audience', condition: 'in_audience', input: crypto.randomUUID() }) }, p());
    expect(missing.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect(String(missing.body.message)).toMatch(/^AudienceNotExist/);
    const malformed = await owner.client.call('estimateSegment', { segment: { rootKey: 'root' } }, p());
    expect(malformed.body.code).toBe(ErrorCode.MANDATORY);
  });
});

describe('audiences', () => {
  it('go from new to ready at creation, from a definition, rules or a segment', async () => {
    const fromDefinition = await createAudience(owner.client, 'Spanish', { from: 'definition', segment: byCountry('ES') });
    expect(fromDefinition).toMatchObject({ status: 'ready', personCount: 2, errorName: null, segmentId: null });
    expect(await members(fromDefinition.id)).toEqual(['p1', 'p2']);

    const tag = (await db.query<{ id: string }>(`INSERT INTO tags (app_id, name, kind, value_type) VALUES ($1, 'tier', 'user_tag', 'text') RETURNING id`, [appId])).rows[0]!.id;
    await db.query(`INSERT INTO person_tags (app_id, person_id, tag_id, value_text) VALUES ($1, $2, $3, 'vip')`, [appId, people.p3, tag]);
    const fromRules = await createAudience(owner.client, 'VIP', { from: 'rules', rules: [{ kind: 'tag_value', tagId: tag, value: 'VIP' }] });
    expect(fromRules).toMatchObject({ status: 'ready', personCount: 1 });
    expect(await members(fromRules.id)).toEqual(['p3']);

    const { segment } = await owner.client.ok<{ segment: SegmentRow }>('createSegment', { name: 'France' }, p());
    await storeSegmentDoc(segment, byCountry('FR'));
    const fromSegment = await createAudience(owner.client, 'French', { from: 'segment', segmentId: segment.id });
    expect(fromSegment).toMatchObject({ status: 'ready', personCount: 1, segmentId: segment.id });

    // The audience follows its segment: an edit shows at the next refresh.
    await storeSegmentDoc(segment, byCountry('ES'));
    const refreshed = (await owner.client.ok<{ audience: Audience }>('refreshAudience', undefined, p({ audienceId: fromSegment.id }))).audience;
    expect(refreshed.personCount).toBe(2);
    expect(await members(fromSegment.id)).toEqual(['p1', 'p2']);

    const detail = await owner.client.ok<{ audience: Audience; sample: { customerId: string }[] }>('getAudience', undefined, p({ audienceId: fromSegment.id }));
    expect(detail.sample.map((x) => x.customerId)).toEqual(['p2', 'p1']);
  });

  it('refuses definitions that do not evaluate, and names already used', async () => {
    const empty = await owner.client.call('createAudience', { name: 'Nobody', source: { from: 'definition', segment: { rootKey: 'root', nodes: [createGroupNode('root')] } } }, p());
    expect(empty.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'nodes.root', message: 'segment_empty' }] });
    const invalid = await owner.client.call('createAudience', { name: 'Broken', source: { from: 'definition', segment: single({ type: 'attribute', id: 'country', condition: 'equals' }) } }, p());
    expect(invalid.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'nodes.c1.input', message: 'value_missing' }] });
    const otherApp = await owner.client.call('createAudience', { name: 'Elsewhere', source: { from: 'segment', segmentId: crypto.randomUUID() } }, p());
    expect(otherApp.body.code).toBe(ErrorCode.NO_PERMISSION);
    await createAudience(owner.client, 'Unique', { from: 'definition', segment: byCountry('ES') });
    expect((await owner.client.call('createAudience', { name: 'unique', source: { from: 'definition', segment: byCountry('ES') } }, p())).body.code).toBe(ErrorCode.NAME_DUPLICATED);
    const listed = await owner.client.ok<{ audiences: Audience[] }>('listAudiences', undefined, p());
    expect(listed.audiences.filter((a) => ['Nobody', 'Broken', 'Elsewhere'].includes(a.name))).toEqual([]);
  });

  it('a failed refresh keeps the previous members and count, and records the error', async () => {
    const audience = await createAudience(owner.client, 'Atomic', { from: 'definition', segment: byCountry('ES') });
    expect(await members(audience.id)).toEqual(['p1', 'p2']);
    // The next refresh would remove p1 and add p3; the insert of p3 fails mid-statement.
    await db.query(`UPDATE people SET country = 'FR' WHERE app_id = $1 AND customer_id = 'p1'`, [appId]);
    await db.query(`UPDATE people SET country = 'ES' WHERE app_id = $1 AND customer_id = 'p3'`, [appId]);
    const fn = `gd_test_fail_${audience.id.replaceAll('-', '')}`;
    await db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.audience_id = '${audience.id}' THEN RAISE EXCEPTION 'forced failure'; END IF; RETURN NEW; END $$`);
    await db.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON audience_members FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const failed = (await owner.client.ok<{ audience: Audience }>('refreshAudience', undefined, p({ audienceId: audience.id }))).audience;
      expect(failed).toMatchObject({ status: 'error', errorName: 'SaveDataError', personCount: 2 });
      expect(failed.errorMessage).toMatch(/previous members are kept/);
      expect(await members(audience.id)).toEqual(['p1', 'p2']);
    } finally {
      await db.query(`DROP TRIGGER ${fn} ON audience_members`);
      await db.query(`DROP FUNCTION ${fn}()`);
    }
    const again = (await owner.client.ok<{ audience: Audience }>('refreshAudience', undefined, p({ audienceId: audience.id }))).audience;
    expect(again).toMatchObject({ status: 'ready', errorName: null, personCount: 2 });
    expect(await members(audience.id)).toEqual(['p2', 'p3']);
    await db.query(`UPDATE people SET country = CASE customer_id WHEN 'p1' THEN 'ES' ELSE 'FR' END WHERE app_id = $1 AND customer_id IN ('p1', 'p3')`, [appId]);
  });

  it('records AudienceNotExist when an audience it selects by is deleted', async () => {
    const base = await createAudience(owner.client, 'Base', { from: 'definition', segment: byCountry('ES') });
    const derived = await createAudience(owner.client, 'Derived', { from: 'definition', segment: single({ type: 'attribute', id: 'audience', condition: 'in_audience', input: base.id }) });
    expect(derived).toMatchObject({ status: 'ready', personCount: 2 });
    await owner.client.ok('deleteAudience', undefined, p({ audienceId: base.id }));
    const failed = (await owner.client.ok<{ audience: Audience }>('refreshAudience', undefined, p({ audienceId: derived.id }))).audience;
    expect(failed).toMatchObject({ status: 'error', errorName: 'AudienceNotExist', personCount: 2 });
    expect((await owner.client.call('getAudience', undefined, p({ audienceId: base.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('are deactivated, refused a refresh while inactive, reactivated, renamed and cloned', async () => {
    const audience = await createAudience(owner.client, 'Seasonal', { from: 'definition', segment: byCountry('ES') }, { refreshEveryMinutes: 30 });
    const inactive = (await owner.client.ok<{ audience: Audience }>('updateAudience', { active: false }, p({ audienceId: audience.id }))).audience;
    expect(inactive.status).toBe('inactive');
    const refused = await owner.client.call('refreshAudience', undefined, p({ audienceId: audience.id }));
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.GENERIC });
    const active = (await owner.client.ok<{ audience: Audience }>('updateAudience', { active: true, name: 'Seasonal ES', isTest: true }, p({ audienceId: audience.id }))).audience;
    expect(active).toMatchObject({ status: 'ready', name: 'Seasonal ES', isTest: true, personCount: 2 });

    const clone = (await owner.client.ok<{ audience: Audience }>('cloneAudience', { name: 'Seasonal copy' }, p({ audienceId: audience.id }))).audience;
    expect(clone).toMatchObject({ status: 'ready', personCount: 2, isTest: true });
    expect(await members(clone.id)).toEqual(['p1', 'p2']);
  });

  it('due audiences are refreshed by the scheduler', async () => {
    const audience = await createAudience(owner.client, 'Hourly', { from: 'definition', segment: byCountry('FR') });
    expect(audience.nextRefreshAt).not.toBeNull();
    await db.query(`UPDATE people SET country = 'FR' WHERE app_id = $1 AND customer_id = 'p2'`, [appId]);
    await db.query(`UPDATE audiences SET next_refresh_at = now() - interval '1 minute' WHERE id = $1`, [audience.id]);
    // The in-process worker may get there first; either way the audience ends refreshed.
    await refreshDueAudiences({ db, log: pino({ level: 'silent' }) });
    const after = (await owner.client.ok<{ audience: Audience }>('getAudience', undefined, p({ audienceId: audience.id }))).audience;
    expect(after).toMatchObject({ status: 'ready', personCount: 2 });
    expect(new Date(after.nextRefreshAt!).getTime()).toBeGreaterThan(Date.now());
    await db.query(`UPDATE people SET country = 'ES' WHERE app_id = $1 AND customer_id = 'p2'`, [appId]);
  });
});

describe('permissions', () => {
  it('a user without ui:audience.create is refused creating audiences and segments, and still estimates', async () => {
    await owner.client.ok('putRole', {
      name: 'Audience viewer', userType: 79, grants: ['route:/behavior/audiences', 'ui:audience.view'],
    }, { roleId: crypto.randomUUID() });
    const viewer = await member('Audience viewer');
    const refused = await viewer.call('createAudience', { name: 'Mine', source: { from: 'definition', segment: byCountry('ES') } }, p());
    expect(refused.body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await viewer.call('createSegment', { name: 'Mine' }, p())).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await viewer.ok<{ count: number }>('estimateSegment', { segment: byCountry('ES') }, p())).count).toBe(2);
    const { audiences } = await viewer.ok<{ audiences: Audience[] }>('listAudiences', undefined, p());
    expect(audiences.length).toBeGreaterThan(0);
    expect((await viewer.call('refreshAudience', undefined, p({ audienceId: audiences[0]!.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('the app can disallow audience creation even to its owner', async () => {
    const other = await createTestApp(owner.client);
    await owner.client.ok('updateApp', { name: 'Restricted', os: 'Android', timezone: 'UTC', restricted: ['ui:audience.create'] }, { appId: other.id });
    const refused = await owner.client.call('createAudience', { name: 'X', source: { from: 'definition', segment: byCountry('ES') } }, { appId: other.id });
    expect(refused.body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('an author edits and deletes only the audiences they created, and selects only test audiences', async () => {
    const author = await member('author');
    const mine = await createAudience(author, 'Author own', { from: 'definition', segment: byCountry('ES') }, { isTest: true });
    const theirs = await createAudience(owner.client, 'Owner only', { from: 'definition', segment: byCountry('ES') });
    await author.ok('refreshAudience', undefined, p({ audienceId: mine.id }));
    expect((await author.call('refreshAudience', undefined, p({ audienceId: theirs.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await author.call('updateAudience', { name: 'Taken over' }, p({ audienceId: theirs.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await author.call('deleteAudience', undefined, p({ audienceId: theirs.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
    // Cloning is granted to authors on every audience (the role table's choice); the copy is theirs.
    await author.ok('cloneAudience', { name: 'Author copy' }, p({ audienceId: theirs.id }));

    const selectable = await author.call('listAudiences', undefined, { appId }, { selectable: true });
    const names = (selectable.body.audiences as Audience[]).map((a) => a.name);
    expect(names).toContain('Author own');
    expect(names).not.toContain('Owner only');
    const mineOnly = await author.call('listAudiences', undefined, { appId }, { owner: 'me' });
    expect((mineOnly.body.audiences as Audience[]).map((a) => a.name).sort()).toEqual(['Author copy', 'Author own']);
    expect(((await owner.client.call('listAudiences', undefined, { appId }, { selectable: true })).body.audiences as Audience[]).map((a) => a.name)).toContain('Owner only');

    // Segments: an analyst reads documents; an author writes the ones they created.
    const { segment } = await author.ok<{ segment: SegmentRow }>('createSegment', { name: 'Author segment' }, p());
    expect((await author.ok<{ access: string }>('docToken', { name: segment.docName })).access).toBe('write');
    const analyst = await member('analyst');
    expect((await analyst.ok<{ access: string }>('docToken', { name: segment.docName })).access).toBe('read');
    expect((await analyst.call('renameSegment', { name: 'Nope' }, p({ segmentId: segment.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
  });
});

it('keeps audiences of other apps apart', async () => {
  const audience = await createAudience(owner.client, 'Mine here', { from: 'definition', segment: byCountry('ES') });
  const other = await registerAccount(api);
  const otherApp = await createTestApp(other.client);
  expect((await other.client.call('getAudience', undefined, { appId: otherApp.id, audienceId: audience.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
  expect((await other.client.call('getAudience', undefined, p({ audienceId: audience.id }))).body.code).toBe(ErrorCode.NO_PERMISSION);
  const { segment } = await owner.client.ok<{ segment: SegmentRow }>('createSegment', { name: 'Private' }, p());
  expect((await other.client.call('docToken', { name: segment.docName })).body.code).toBe(ErrorCode.NO_PERMISSION);
});
