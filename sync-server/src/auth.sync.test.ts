/**
 * Who gets in, and how: real tokens against a real server. Refused connections get a reason and
 * never sync; accepted ones are read-write or read-only as the shared `docAccess` rule says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docName } from '@gd/shared';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, signDocToken, type Fixture } from './testing/fixtures.ts';
import { startSync, type RunningSync } from './testing/server.ts';

let server: RunningSync;
let fx: Fixture;
let other: Fixture;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startSync();
  [fx, other] = await Promise.all([createFixture(server.db), createFixture(server.db)]);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

function connect(token: string | (() => Promise<string>), name = fx.doc): TestClient {
  const c = openClient({ url: server.url, name, token });
  clients.push(c);
  return c;
}
async function refusal(token: string | (() => Promise<string>), name = fx.doc): Promise<string> {
  const c = connect(token, name);
  await waitFor(() => c.refusals.length > 0 || synced(c), 'an answer');
  expect(c.provider.isSynced).toBe(false);
  return c.refusals[0] ?? 'accepted';
}
async function scope(token: string | (() => Promise<string>), name = fx.doc): Promise<string | undefined> {
  const c = connect(token, name);
  await waitFor(() => c.refusals.length > 0 || synced(c), 'an answer');
  return c.refusals[0] ?? c.scope();
}
const past = () => Math.floor(Date.now() / 1000) - 60;

describe('refused connections', () => {
  it('without a token', async () => {
    expect(await refusal('')).toBe('token missing');
  });
  it('with a token signed by another secret', async () => {
    expect(await refusal(await fx.token(fx.users.manager, {}, { secret: 'not-the-secret-0123456789abcdef0123' }))).toBe('token invalid');
  });
  it('with an expired token', async () => {
    expect(await refusal(await fx.token(fx.users.manager, {}, { expiresIn: past() }))).toBe('token expired');
  });
  it('with garbage for a token', async () => {
    expect(await refusal('not.a.jwt')).toBe('token invalid');
  });
  it('with a token for another document', async () => {
    const second = await fx.newJourneyDoc();
    expect(await refusal(await fx.token(fx.users.manager, { doc: second }))).toBe('token is for another document');
  });
  it('for a user of another account', async () => {
    const foreign = other.users.manager;
    expect(await refusal(await signDocToken({ typ: 'doc', sub: foreign.id, acc: other.accountId, doc: fx.doc, access: 'write' })))
      .toBe('token is for another account');
    // Even a correctly signed token naming this account does not make a foreign user a member.
    expect(await refusal(await signDocToken({ typ: 'doc', sub: foreign.id, acc: fx.accountId, doc: fx.doc, access: 'write' })))
      .toBe('user not allowed');
  });
  it('for a deactivated user', async () => {
    const { rows } = await server.db.query<{ id: string }>(
      `INSERT INTO users (account_id, email, name, role_id, active)
       SELECT account_id, 'off-' || gen_random_uuid() || '@sync.test', 'Off', role_id, false FROM users WHERE id = $1 RETURNING id`,
      [fx.users.manager.id]);
    expect(await refusal(await fx.token({ id: rows[0]!.id, name: 'Off' }))).toBe('user not allowed');
  });
  it('for a role that may not view journeys', async () => {
    expect(await refusal(await fx.token(fx.users.provider))).toBe('no access to this document');
  });
  it('for a deleted journey, an app of another account and entities that do not exist', async () => {
    const deleted = await fx.newJourneyDoc();
    await server.db.query('UPDATE journeys SET deleted_at = now() WHERE doc_name = $1', [deleted]);
    expect(await refusal(await fx.token(fx.users.manager, { doc: deleted }), deleted)).toBe('journey not found');
    const foreignApp = docName(fx.accountId, other.appId, 'journey', other.journeyId);
    expect(await refusal(await fx.token(fx.users.manager, { doc: foreignApp }), foreignApp)).toBe('app not found');
    const segment = docName(fx.accountId, fx.appId, 'segment', fx.journeyId);
    expect(await refusal(await fx.token(fx.users.manager, { doc: segment }), segment)).toBe('segment not found');
    const message = docName(fx.accountId, fx.appId, 'message', fx.journeyId);
    expect(await refusal(await fx.token(fx.users.manager, { doc: message }), message)).toBe('message not found');
  });
});

describe('accepted connections', () => {
  it('are read-write or read-only by role, ownership and the app', async () => {
    expect(await scope(await fx.token(fx.users.manager))).toBe('read-write');
    expect(await scope(await fx.token(fx.users.analyst))).toBe('readonly');
    expect(await scope(await fx.token(fx.users.author))).toBe('readonly'); // not the author's journey
    const own = await fx.newJourneyDoc(fx.users.author);
    expect(await scope(await fx.token(fx.users.author, { doc: own }), own)).toBe('read-write');

    // The app disallows editing journeys: a manager keeps only the owner variant.
    const restricted = await createFixture(server.db, { appRestricted: ['ui:journey.edit'] });
    const byAuthor = await restricted.newJourneyDoc(restricted.users.author);
    expect(await scope(await restricted.token(restricted.users.manager, { doc: byAuthor }), byAuthor)).toBe('readonly');
  });

  it('can only be narrowed by the token', async () => {
    expect(await scope(await fx.token(fx.users.manager, { access: 'read' }))).toBe('readonly');
    expect(await scope(await fx.token(fx.users.analyst, { access: 'write' }))).toBe('readonly');
  });

  it('are read-only for the service (the API reading a live document)', async () => {
    expect(await scope(await fx.token({ id: 'api', name: 'api' }, { typ: 'service' }))).toBe('readonly');
  });
});
