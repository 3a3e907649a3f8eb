/**
 * The tenant sweep for audience shares (issue 17, piece B), in the way of isolation-acquisition:
 * the victim's account has apps A and B; B has an audience shared through a Meta integration. The
 * caller names the victim's audience, share or integration:
 * - in the path of the share routes (audienceShares, createAudienceShare, syncAudienceShare,
 *   deleteAudienceShare), beside their own app;
 * - in `createAudienceShare body.integrationId`, on their own audience.
 * Two callers: a user of another account in their own app, and a user of the victim's account
 * through app A naming app B's children (B restricts every permission). A victim's child answers
 * exactly what an unused id answers (10004 for an audience, as the audience routes; 10 for a share
 * or an integration) and changes nothing: every row of the victim's is compared with a copy taken
 * before. The routes are exempt from the general sweeps with reason AUDIENCE_SHARE_SWEEP
 * (../testing/isolationChildren.ts); the first test checks this file covers every one of them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSION_KEYS, type EndpointName } from '@gd/shared';
import { AUDIENCE_SHARE_SWEEP, FIELD_EXEMPT, PATH_EXEMPT } from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { registerAccount, startTestApi, type TestApi, type TestClient } from '../testing/harness.ts';
import { createConnectedIntegration } from '../features/integrations/testing.ts';
import { single } from '../features/segments/testing/data.ts';

type Victim = 'audience' | 'share' | 'integration';
interface Caller { client: TestClient; appId: string; otherAccount: boolean; audience: string; integration: string; share: string }

let api: TestApi;
let victimAccount: string;
let appA: string;
let appB: string;
const victim = {} as Record<Victim, string>;
let intruder: Caller;
let sameAccount: Caller;

const segment = single({ type: 'attribute', id: 'country', condition: 'equals', input: 'ES' });

/** An audience, a Meta integration and a share of the one through the other, in `appId`. */
async function world(client: TestClient, accountId: string, appId: string, tag: string) {
  const { audience } = await client.ok<{ audience: { id: string } }>('createAudience', { name: `${tag} audience`, source: { from: 'definition', segment } }, { appId });
  const integration = await createConnectedIntegration(api.db, api.deps.secret, {
    accountId, appId, service: 'meta_ads', name: `${tag} Meta`, config: { baseUrl: 'https://graph.facebook.com/v19.0', adAccountId: '1' }, secrets: { accessToken: 'secret-token' },
  });
  const { share } = await client.ok<{ share: { id: string } }>('createAudienceShare', { integrationId: integration }, { appId, audienceId: audience.id });
  return { audience: audience.id, integration, share: share.id };
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  const client = owner.client;
  appA = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  appB = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App B', os: 'iOS' })).app.id;
  Object.assign(victim, await world(client, victimAccount, appB, 'Secret'));
  sameAccount = { client, appId: appA, otherAccount: false, ...(await world(client, victimAccount, appA, 'Own A')) };
  // App B now restricts every permission: the user has rights in app A only.
  await client.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, { appId: appB });

  const other = await registerAccount(api);
  const { app: otherApp } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { client: other.client, appId: otherApp.id, otherAccount: true, ...(await world(other.client, other.accountId, otherApp.id, 'Own')) };
});
afterAll(async () => { await api.stop(); });

const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });

interface Case {
  /** The PATH_EXEMPT route or FIELD_EXEMPT field it sweeps. */
  covers: string;
  name: EndpointName;
  child: Victim;
  /** What an unused id answers. */
  code: number;
  build(caller: Caller, id: string): Probe;
}
const CASES: Case[] = [
  { covers: 'audienceShares', name: 'audienceShares', child: 'audience', code: ErrorCode.NO_PERMISSION, build: (c, id) => ({ params: { appId: c.appId, audienceId: id } }) },
  { covers: 'createAudienceShare', name: 'createAudienceShare', child: 'audience', code: ErrorCode.NO_PERMISSION, build: (c, id) => ({ params: { appId: c.appId, audienceId: id }, body: { integrationId: c.integration } }) },
  { covers: 'createAudienceShare body.integrationId', name: 'createAudienceShare', child: 'integration', code: ErrorCode.NOT_EXIST, build: (c, id) => ({ params: { appId: c.appId, audienceId: c.audience }, body: { integrationId: id } }) },
  ...(['syncAudienceShare', 'deleteAudienceShare'] as const).flatMap((name): Case[] => [
    { covers: name, name, child: 'share', code: ErrorCode.NOT_EXIST, build: (c, id) => ({ params: { appId: c.appId, audienceId: c.audience, shareId: id } }) },
    { covers: name, name, child: 'audience', code: ErrorCode.NO_PERMISSION, build: (c, id) => ({ params: { appId: c.appId, audienceId: id, shareId: c.share } }) },
  ]),
];

describe('the sweep covers every audience share route and field', () => {
  it('every route and field exempt from the general sweeps for this file has a case here', () => {
    const exempt = [...Object.entries(PATH_EXEMPT), ...Object.entries(FIELD_EXEMPT)].filter(([, reason]) => reason === AUDIENCE_SHARE_SWEEP).map(([k]) => k).sort();
    expect([...new Set(CASES.map((c) => c.covers))].sort()).toEqual(exempt);
    expect(exempt.length).toBeGreaterThan(0);
  });
});

describe.each([
  ['a user of another account in their own app', true, () => intruder],
  ['a user of the account through app A, with children of app B', false, () => sameAccount],
] as const)('%s', (_label, _otherAccount, callerOf) => {
  let before: Record<string, string[]>;
  beforeAll(async () => {
    before = await rowsOf(callerOf());
  });

  it.each(CASES.map((c) => [c.covers, c.child, c] as const))('%s naming the victim\'s %s answers as naming an unused one', async (_covers, child, c) => {
    const caller = callerOf();
    const mine = randomUUID();
    const foreign = await send(caller.client, c.name, c.build(caller, victim[child]));
    const none = await send(caller.client, c.name, c.build(caller, mine));
    const ids = [victim[child], mine];
    expect(none.body).toMatchObject({ status: 'KO', code: c.code });
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
  });

  it('the caller\'s own lists show nothing of the victim\'s', async () => {
    const caller = callerOf();
    for (const answer of [
      await send(caller.client, 'audienceShares', { params: { appId: caller.appId, audienceId: caller.audience } }),
      await send(caller.client, 'audienceShareTargets', { params: { appId: caller.appId } }),
    ]) {
      expect(answer.body.status).toBe('OK');
      const text = JSON.stringify(answer.body);
      for (const id of Object.values(victim)) expect(text).not.toContain(id);
      expect(text).not.toContain('Secret');
      expect(text).not.toContain('secret-token');
    }
  });

  it('left every row of the victim\'s as it was', async () => {
    expect(await rowsOf(callerOf())).toEqual(before);
  });
});
