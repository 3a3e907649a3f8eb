/**
 * The tenant sweep for the wallet (issue 17, piece E), in the way of isolation-acquisition: the
 * victim's app B has a coupon design with a pass issued from an approved coupon message to one of
 * its people, and the account has Apple signing settings. Two callers name the victim's children
 * with an app they may use: a user of another account in their own app, and a user of the
 * victim's account through app A (app B restricting every permission):
 * - in the path of every wallet route with a child parameter (a design, a pass);
 * - in the fields that name one (the design, person and coupon message a pass is issued with, the
 *   passes list's design filter) and the barcode a redemption names.
 * A victim's child answers exactly what an unused one answers (10) and changes nothing: every row
 * of the victim's is compared with a copy taken before. The wallet routes and fields are exempt
 * from the general sweeps with reason WALLET_SWEEP (../testing/isolationChildren.ts); the first
 * test checks this file covers every one of them. Last, the caller's lists and the account's
 * signing settings show nothing of the victim's.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSION_KEYS, type EndpointName } from '@gd/shared';
import { defaultDesign } from '@gd/shared/wallet/model';
import { FIELD_EXEMPT, PATH_EXEMPT, WALLET_SWEEP } from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { registerAccount, startTestApi, type TestApi, type TestClient } from '../testing/harness.ts';
import { makeTestSigning } from '../features/wallet/testing.ts';

type Victim = 'design' | 'pass' | 'person' | 'message' | 'barcode';
interface Own { design: string; person: string; message: string }
interface Caller { client: TestClient; appId: string; otherAccount: boolean; own: Own }

let api: TestApi;
let victimAccount: string;
let appA: string;
let appB: string;
const victim = {} as Record<Victim, string>;
let intruder: Caller;
let sameAccount: Caller;

/** A person of the app, written as ingestion leaves one. */
async function personOf(appId: string, customerId: string): Promise<string> {
  const { rows } = await api.db.query<{ id: string }>(`INSERT INTO people (app_id, id, customer_id) VALUES ($1, nextval('people_id_seq'), $2) RETURNING id::text`, [appId, customerId]);
  return rows[0]!.id;
}

/**
 * An approved coupon message of the app (promo code, max redeems), written as approval leaves one:
 * the message, its submission and its version 1. The approval path itself is tested in
 * tests/integration/wallet.int.test.ts; here only its outcome matters.
 */
async function approvedCoupon(accountId: string, appId: string, promoCode: string): Promise<string> {
  const definition = {
    name: 'Coupon', type: 'coupon', origin: 'classic', languages: ['en'], defaultLanguage: 'en', parameters: {},
    variants: [{ id: 'a', name: 'A', share: 100, content: { en: { type: 'coupon', title: 'Off', promo_code: promoCode, max_redeems: 3 } } }],
  };
  const { rows: [campaign] } = await api.db.query<{ id: string }>('INSERT INTO campaigns (account_id, app_id, name) VALUES ($1, $2, $3) RETURNING id', [accountId, appId, `Coupons ${promoCode}`]);
  const { rows: [message] } = await api.db.query<{ id: string }>(
    `INSERT INTO messages (account_id, app_id, campaign_id, name, type, origin, status, doc_name, approved_version)
     VALUES ($1, $2, $3, $4, 'coupon', 'classic', 'Approved', $5, 1) RETURNING id`, [accountId, appId, campaign!.id, `Coupon ${promoCode}`, `message:${randomUUID()}`]);
  const { rows: [submission] } = await api.db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256, outcome) VALUES ($1, 1, $2, '\\x00', '\\x00', 'x', 'approved') RETURNING id`,
    [message!.id, JSON.stringify(definition)]);
  await api.db.query(`INSERT INTO message_versions (message_id, version, submission_id, definition, yjs_state, state_vector, sha256) VALUES ($1, 1, $2, $3, '\\x00', '\\x00', 'x')`,
    [message!.id, submission!.id, JSON.stringify(definition)]);
  return message!.id;
}

async function ownThings(client: TestClient, accountId: string, appId: string): Promise<Own> {
  const { design } = await client.ok<{ design: { id: string } }>('createWalletDesign', { name: `Own ${randomUUID().slice(0, 8)}`, kind: 'coupon', design: defaultDesign('coupon') }, { appId });
  return { design: design.id, person: await personOf(appId, `own-${randomUUID()}`), message: await approvedCoupon(accountId, appId, `OWN${randomUUID().slice(0, 4)}`) };
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  const client = owner.client;
  appA = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  appB = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App B', os: 'iOS' })).app.id;
  const p = { appId: appB };
  const certs = makeTestSigning();
  await client.ok('putAppleWalletSigning', { passTypeIdentifier: 'pass.com.victim', teamIdentifier: 'ABCDE12345', certificatePem: certs.certPem, privateKeyPem: certs.keyPem, wwdrPem: certs.caPem });
  victim.design = (await client.ok<{ design: { id: string } }>('createWalletDesign', { name: 'Secret design', kind: 'coupon', design: defaultDesign('coupon', 'Secret shop') }, p)).design.id;
  victim.person = await personOf(appB, 'secret-person');
  victim.message = await approvedCoupon(owner.accountId, appB, 'SECRET');
  const { pass } = await client.ok<{ pass: { id: string; barcode: string } }>('issueWalletPass', { kind: 'coupon', designId: victim.design, personId: victim.person, messageId: victim.message }, p);
  victim.pass = pass.id;
  victim.barcode = pass.barcode;
  await client.ok('redeemWalletPass', { barcode: pass.barcode }, p);

  sameAccount = { client, appId: appA, otherAccount: false, own: await ownThings(client, owner.accountId, appA) };
  // App B now restricts every permission: the user has rights in app A only.
  await client.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, p);

  const other = await registerAccount(api);
  const { app: otherApp } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { client: other.client, appId: otherApp.id, otherAccount: true, own: await ownThings(other.client, other.accountId, otherApp.id) };
});
afterAll(async () => { await api.stop(); });

const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });

interface Case { covers: string; name: EndpointName; child: Victim; build(c: Caller, id: string): Probe }
const at = (c: Caller, params: Record<string, string> = {}) => ({ appId: c.appId, ...params });
const CASES: Case[] = [
  { covers: 'updateWalletDesign', name: 'updateWalletDesign', child: 'design', build: (c, id) => ({ params: at(c, { designId: id }), body: { name: 'Hijacked', kind: 'coupon', design: defaultDesign('coupon') } }) },
  { covers: 'deleteWalletDesign', name: 'deleteWalletDesign', child: 'design', build: (c, id) => ({ params: at(c, { designId: id }) }) },
  { covers: 'voidWalletPass', name: 'voidWalletPass', child: 'pass', build: (c, id) => ({ params: at(c, { passId: id }) }) },
  { covers: 'issueWalletPass body.designId', name: 'issueWalletPass', child: 'design', build: (c, id) => ({ params: at(c), body: { kind: 'coupon', designId: id, personId: c.own.person, messageId: c.own.message } }) },
  { covers: 'issueWalletPass body.personId', name: 'issueWalletPass', child: 'person', build: (c, id) => ({ params: at(c), body: { kind: 'coupon', designId: c.own.design, personId: id, messageId: c.own.message } }) },
  { covers: 'issueWalletPass body.messageId', name: 'issueWalletPass', child: 'message', build: (c, id) => ({ params: at(c), body: { kind: 'coupon', designId: c.own.design, personId: c.own.person, messageId: id } }) },
  { covers: 'walletPasses query.designId', name: 'walletPasses', child: 'design', build: (c, id) => ({ params: at(c), query: { designId: id } }) },
  // Not named like an id, but a child all the same: the barcode a redemption names.
  { covers: 'redeemWalletPass body.barcode', name: 'redeemWalletPass', child: 'barcode', build: (c, id) => ({ params: at(c), body: { barcode: id } }) },
];
/** An unused id of the same shape as the victim's child. */
const unused = (child: Victim) => (child === 'person' ? String(900_000_000 + Math.floor(Math.random() * 1e6)) : child === 'barcode' ? 'ZZZZZZZZZZZZ' : randomUUID());

describe('the sweep covers every wallet route and field', () => {
  it('every route and field exempt from the general sweeps for this file has a case here', () => {
    const exempt = [...Object.entries(PATH_EXEMPT), ...Object.entries(FIELD_EXEMPT)].filter(([, reason]) => reason === WALLET_SWEEP).map(([k]) => k).sort();
    expect(exempt.length).toBeGreaterThan(0);
    expect(exempt.filter((k) => !CASES.some((c) => c.covers === k))).toEqual([]);
  });
});

describe.each([
  ['a user of another account in their own app', () => intruder],
  ['a user of the account through app A, with children of app B', () => sameAccount],
] as const)('%s', (_label, callerOf) => {
  let before: Record<string, string[]>;
  beforeAll(async () => {
    before = await rowsOf(callerOf());
  });

  it.each(CASES.map((c) => [c.covers, c.child, c] as const))('%s naming the victim\'s %s answers as an unused one', async (_covers, child, c) => {
    const caller = callerOf();
    const mine = unused(child);
    const foreign = await send(caller.client, c.name, c.build(caller, victim[child]));
    const none = await send(caller.client, c.name, c.build(caller, mine));
    const ids = [victim[child], mine];
    if (c.name !== 'walletPasses') expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
  });

  it('sees nothing of the victim\'s in its lists', async () => {
    const caller = callerOf();
    const lists = JSON.stringify(await Promise.all([
      caller.client.ok('walletDesigns', undefined, at(caller)), caller.client.ok('walletPasses', undefined, at(caller)), caller.client.ok('walletCouponMessages', undefined, at(caller)),
    ]));
    for (const id of [victim.design, victim.pass, victim.message, victim.barcode]) expect(lists).not.toContain(id);
    for (const text of ['SECRET', 'Secret', 'secret-person']) expect(lists).not.toContain(text);
    if (caller.otherAccount) expect(JSON.stringify(await caller.client.ok('walletSigning'))).not.toContain('pass.com.victim');
  });

  it('left every row of the victim\'s as it was', async () => {
    expect(await rowsOf(callerOf())).toEqual(before);
  });
});
