/**
 * The tenant sweep with the caller's own app (issue 11, item 13). isolation.int.test.ts names the
 * victim's app, so the app check in `http/endpoint.ts` refuses everything before any route runs;
 * here the caller names an app they may use and the victim's children (journeys, segments,
 * audiences, import tasks, integrations, exports, test devices, tags, people, events, users, roles):
 * - in the path of every route of the endpoint table that has a child parameter;
 * - in every body or query field that names a child (found by walking the request schemas: a field
 *   named `…Id`/`…Ids`, or a segment, whose conditions name tags, audiences and events);
 * - as a document name mixing the caller's app and the victim's entity, for every document kind.
 * Two callers: a user of another account, in their own app; and a user of the victim's account
 * through app A, with children of app B, where B restricts every permission (so the user has
 * rights in A only: role grants are per account, the app's `restricted` list is per app).
 *
 * The rule (api-server CONTEXT.md): a child that is not in the caller's app (or account) answers
 * exactly what an unused id answers on the same route, so nothing tells that it exists. For path
 * children that is the route's not-found refusal, 10004 or 10 (both in use, per route). The answers
 * are compared after the two ids are replaced by one placeholder. Afterwards every row of the
 * victim's (every table, classified below) is compared with a copy taken before the sweep.
 *
 * Exhaustive by construction: a new endpoint with a child parameter, a new request field naming a
 * child, a new document kind or a new table fails this file until it is swept or exempted here
 * with its reason (../testing/isolationChildren.ts says what is swept). The acquisition routes
 * (issue 16) are swept the same way in isolation-acquisition.int.test.ts, in a world of their own.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOC_KINDS, ErrorCode, PERMISSION_KEYS, createConditionNode, createGroupNode, endpoints,
  type DocumentKind, type EndpointName, type SegmentCondition,
} from '@gd/shared';
import {
  ACCOUNT_CHILDREN, FIELD_EXEMPT, DOC_CHILDREN, sessionEndpoints, pathParams, pathChild, childParams, pathSwept, referenceFields,
  isAcquisition, endpointOf, type Child,
} from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { ingest, registerAccount, startTestApi, uniqueEmail, type ApiAnswer, type TestApi, type TestClient } from '../testing/harness.ts';
import { apnsKey, serviceAccountKey } from '../features/delivery/push/testing/keys.ts';

// ---------------------------------------------------------------------------------------------
// The world: the victim's account (apps A and B, B holding every kind of child) and an intruder.

interface Caller {
  label: string;
  client: TestClient;
  accountId: string;
  appId: string;
  /** Whether the caller is of another account (account children: users, roles, are then foreign too). */
  otherAccount: boolean;
  /** The caller's own things that reference cases act on. */
  own: { journeyId: string; messageId: string; colleagueId: string; tasks: Record<'s3' | 'segment' | 'performance_report', string> };
}

let api: TestApi;
let victimAccount: string;
let victimOwner: TestClient;
let appA: string;
let appB: string;
const victim = {} as Record<Child, string>;
const UNUSED_NAMES: Partial<Record<Child, string>> = { person: '987654321098', event: 'no_such_event', customer: 'no-such-customer', deviceKey: 'no-such-device-0001' };
const unused = (child: Child) => UNUSED_NAMES[child] ?? randomUUID();
let intruder: Caller;
let sameAccount: Caller;

const today = () => new Date().toISOString().slice(0, 10);

/** The caller's own journey, colleague and import tasks (never run: awaitUpload) in `appId`. */
async function ownThings(client: TestClient, appId: string): Promise<Caller['own']> {
  const { journey } = await client.ok<{ journey: { id: string } }>('createJourney', { name: `Own ${randomUUID()}` }, { appId });
  const { message } = await client.ok<{ message: { id: string } }>('createMessage', { name: `Own ${randomUUID()}`, type: 'push' }, { appId });
  const { roles } = await client.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
  const { user } = await client.ok<{ user: { id: string } }>('addUser', { name: 'Own colleague', email: uniqueEmail('own'), roleId: roles.find((r) => r.builtIn === 'analyst')!.id });
  const { integration } = await client.ok<{ integration: { id: string } }>('createStorageIntegration', {
    name: `Own bucket ${randomUUID()}`, endpoint: 'https://203.0.114.10', region: 'eu-west-1', bucket: 'own', accessKeyId: 'AKID', secretAccessKey: 'own-key',
  }, { appId });
  const task = async (source: unknown) => (await client.ok<{ task: { id: string } }>('createImportTask', { name: `Own ${randomUUID()}`, awaitUpload: true, source }, { appId })).task.id;
  return {
    journeyId: journey.id,
    messageId: message.id,
    colleagueId: user.id,
    tasks: {
      s3: await task({ type: 's3', s3FileRoute: 'own.csv', s3IdType: 'customerId', s3IntegrationId: integration.id }),
      segment: await task({ type: 'segment', config: single({ type: 'attribute', id: 'country', condition: 'equals', input: 'ES' }) }),
      performance_report: await task({ type: 'performance_report', kpiType: 'impacts', dateRange: { startDay: today(), endDay: today(), timeGroup: 'day' } }),
    },
  };
}

const single = (condition: Partial<SegmentCondition>) => ({
  rootKey: 'root', nodes: [{ ...createGroupNode('root'), children: ['c'] }, createConditionNode('c', condition)],
});

/** A segment whose one condition names `id` as a tag, an audience or an event. */
function naming(child: Child, id: string) {
  switch (child) {
    case 'tag': return single({ type: 'user_tag', id, condition: 'equals', input: 'gold' });
    case 'audience': return single({ type: 'attribute', id: 'audience', condition: 'in_audience', input: id });
    case 'event': return single({ type: 'user_event', id, condition: 'was_made' });
    default: throw new Error(`a segment does not name a ${child}`);
  }
}
const SEGMENT_CHILDREN: Child[] = ['tag', 'audience', 'event'];

/** Waits until the background jobs of an app (imports, exports) have ended. */
async function jobsSettled(client: TestClient, appId: string) {
  for (let i = 0; i < 400; i++) {
    const { tasks } = await client.ok<{ tasks: { status: string }[] }>('listImportTasks', undefined, { appId });
    const { exports } = await client.ok<{ exports: { status: string }[] }>('listAudienceExports', undefined, { appId });
    if (!tasks.some((t) => t.status === 'new' || t.status === 'in_progress') && !exports.some((e) => e.status === 'processing')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('jobs did not settle');
}

/** Import tasks the sweep started, per caller's app: awaited before the victim's rows are compared. */
const started = new Map<string, string[]>();

/** The import task once its run ended. */
async function ranTask(client: TestClient, appId: string, taskId: string): Promise<ApiAnswer> {
  for (let i = 0; i < 400; i++) {
    const answer = await send(client, 'getImportTask', { params: { appId, taskId } });
    const status = (answer.body.task as { status: string } | undefined)?.status;
    if (status !== 'new' && status !== 'in_progress') return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`import ${taskId} did not end`);
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  victimOwner = owner.client;
  appA = (await victimOwner.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  const { app } = await victimOwner.ok<{ app: { id: string; appKey: string } }>('createApp', { name: 'App B', os: 'iOS' });
  appB = app.id;
  const p = { appId: appB };

  const { tag } = await victimOwner.ok<{ tag: { id: string } }>('createTag', { name: 'secret_tag', kind: 'user_tag', valueType: 'text' }, p);
  victim.tag = tag.id;
  const { journey } = await victimOwner.ok<{ journey: { id: string } }>('createJourney', { name: 'Secret journey' }, p);
  victim.journey = journey.id;
  const device = { id: 'secret-device-0001' };
  const sent = await ingest(api, app.appKey, 'ingestIdentify', { device, customerId: 'secret-customer' });
  victim.person = String(sent.body.personId);
  victim.customer = 'secret-customer';
  victim.deviceKey = device.id;
  const now = new Date().toISOString();
  await ingest(api, app.appKey, 'ingestBatch', {
    device, events: [{ id: 'e-1', name: 'secret_event', time: now, properties: { plan: 'gold' } }],
    interactions: [{ id: 'i-1', time: now, channel: 'push', kind: 'impression', journeyId: journey.id }],
  });
  victim.event = 'secret_event';
  await ingest(api, app.appKey, 'ingestProfile', { device, tags: { secret_tag: 'gold' } });

  victim.device = (await victimOwner.ok<{ device: { id: string } }>('addTestDevice', { name: 'Phone', idType: 'gaid', deviceId: '38400000-8cf0-11bd-b23e-10b96e40000d' }, p)).device.id;
  victim.segment = (await victimOwner.ok<{ segment: { id: string } }>('createSegment', { name: 'Secret segment' }, p)).segment.id;
  victim.dashboard = (await victimOwner.ok<{ dashboard: { id: string } }>('createDashboard', { name: 'Secret dashboard' }, p)).dashboard.id;
  const { audience } = await victimOwner.ok<{ audience: { id: string; personCount: number } }>('createAudience', {
    name: 'Secret audience', source: { from: 'rules', rules: [{ kind: 'tag_value', tagId: tag.id, value: 'gold' }] },
  }, p);
  expect(audience.personCount).toBe(1);
  victim.audience = audience.id;
  victim.task = (await victimOwner.ok<{ task: { id: string } }>('createImportTask', { name: 'Secret import', source: { type: 'csv', csvContent: 'customer_id\nsecret-customer\n' } }, p)).task.id;
  victim.integration = (await victimOwner.ok<{ integration: { id: string } }>('createStorageIntegration', {
    name: 'Secret bucket', endpoint: 'https://203.0.114.10', region: 'eu-west-1', bucket: 'secret', accessKeyId: 'AKID', secretAccessKey: 'secret-key',
  }, p)).integration.id;
  victim.export = (await victimOwner.ok<{ export: { id: string } }>('createAudienceExport', { format: 'csv' }, { appId: appB, audienceId: audience.id })).export.id;
  // A message with a submission (written as submit writes it: this file runs no sync server) and its campaign.
  const { message } = await victimOwner.ok<{ message: { id: string; campaignId: string } }>('createMessage', { name: 'Secret message', type: 'push', campaignName: 'Secret campaign' }, p);
  victim.message = message.id;
  victim.campaign = message.campaignId;
  victim.submission = (await api.db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256)
     SELECT $1, 1, '{}'::jsonb, d.state, '\\x00'::bytea, 'secret' FROM documents d WHERE d.entity_id = $1 RETURNING id`, [message.id])).rows[0]!.id;
  await api.db.query(`UPDATE messages SET status = 'To validate' WHERE id = $1`, [message.id]);
  // An automatic rule of app B (written as the API writes it: its message needs an approved version, which needs the sync server).
  victim.rule = (await api.db.query<{ id: string }>(
    `INSERT INTO rules (account_id, app_id, name, kind, trigger, message_id, status) VALUES ($1, $2, 'Secret rule', 'event_made', '{"kind":"event_made","eventId":"secret_event"}', $3, 'paused') RETURNING id`,
    [victimAccount, appB, message.id])).rows[0]!.id;
  victim.parameter = (await victimOwner.ok<{ parameter: { id: string } }>('createCommunicationParameter', { name: 'communicationParameter__secret', label: 'Secret', type: 'openText', values: [] }, p)).parameter.id;
  // The app's only template, hence its default: a delete would be refused (33) if it were reached.
  victim.template = (await victimOwner.ok<{ template: { id: string } }>('createNativeTemplate', { name: 'Secret template', fields: [{ key: 'title', label: 'Title', kind: 'text', required: true }] }, p)).template.id;
  // A mail provider of the account (a public address literal: saving checks the host, connecting never happens here).
  victim.mailProvider = (await victimOwner.ok<{ provider: { id: string } }>('createMailProvider', {
    name: 'Secret relay', host: '203.0.114.10', port: 587, tls: 'starttls', username: 'secret', password: 'secret-password', senderName: 'Secret', senderEmail: 'secret@example.com',
  })).provider.id;
  // A scheduled report of app B (paused: it never runs here) and a finished run with its file, written as a run leaves them.
  victim.report = (await victimOwner.ok<{ report: { id: string } }>('createReport', {
    name: 'Secret report', kind: 'explore', query: { event: 'secret_event' }, schedule: { frequency: 'daily' }, active: false,
    target: { type: 'email', mailProviderId: victim.mailProvider, recipients: ['secret@example.com'] },
  }, p)).report.id;
  victim.reportRun = (await api.db.query<{ id: string }>(
    `INSERT INTO report_runs (account_id, app_id, report_id, trigger, start_day, end_day, status, row_count, byte_size, file_name)
     VALUES ($1, $2, $3, 'manual', '2026-01-01', '2026-01-07', 'ready', 1, 16, 'secret.csv') RETURNING id`,
    [victimAccount, appB, victim.report])).rows[0]!.id;
  await api.db.query(`INSERT INTO stored_file_chunks (file_id, seq, data) VALUES ($1, 0, $2)`, [victim.reportRun, Buffer.from('date,events\r\nx,1\r\n')]);
  // App B's push credentials: the rows compared after the sweep include them (the routes name the
  // caller's own app and a provider, no child: isolation.int.test.ts refuses another account's app).
  await victimOwner.ok('putApnsCredentials', { keyId: 'SECRET0001', teamId: 'SECRET0001', bundleId: 'com.example.secret', environment: 'production', privateKeyPem: apnsKey().privateKeyPem }, p);
  await victimOwner.ok('putFcmCredentials', { serviceAccount: JSON.stringify({ project_id: 'secret', client_email: 'secret@secret.iam.gserviceaccount.com', private_key: serviceAccountKey().privateKeyPem }) }, p);
  const { roles } = await victimOwner.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
  victim.user = (await victimOwner.ok<{ user: { id: string } }>('addUser', { name: 'Colleague', email: uniqueEmail('colleague'), roleId: roles.find((r) => r.builtIn === 'analyst')!.id })).user.id;
  victim.role = randomUUID();
  await victimOwner.ok('putRole', { name: 'Secret role', userType: 79, grants: [] }, { roleId: victim.role });
  await jobsSettled(victimOwner, appB);

  sameAccount = { label: 'a user of the account through app A', client: victimOwner, accountId: victimAccount, appId: appA, otherAccount: false, own: await ownThings(victimOwner, appA) };
  // App B now restricts every permission: the user has rights in app A only.
  await victimOwner.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, p);

  const other = await registerAccount(api);
  const { app: otherApp } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { label: 'a user of another account in their own app', client: other.client, accountId: other.accountId, appId: otherApp.id, otherAccount: true, own: await ownThings(other.client, otherApp.id) };
});
afterAll(async () => { await api.stop(); });

// ---------------------------------------------------------------------------------------------
// Calls, and answers compared with the two ids replaced (../testing/isolationSweep.ts).

/** The victim's rows the caller must leave as they were: for another account's caller, all of the account's; for a caller of the account, app B's. */
const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });

/** Calls with the victim's child and with an unused id; both answers, comparable. */
async function both(caller: Caller, name: EndpointName, child: Child, build: (id: string) => Probe) {
  const mine = unused(child);
  const foreign = await send(caller.client, name, build(victim[child]));
  const none = await send(caller.client, name, build(mine));
  return { foreign, none, ids: [victim[child], mine] };
}

/** Valid bodies for the routes with a child parameter (a body refused by its schema would prove nothing). */
const VALID_BODIES: Partial<Record<EndpointName, unknown>> = {
  updateTestDevice: { name: 'Spy phone', idType: 'idfa', deviceId: '6D92078A-8246-4BA4-AE5B-76104861E7DC' },
  updateUser: { name: 'Hijacked', active: false },
  renameJourney: { name: 'Hijacked' },
  assignJourney: { userId: null },
  cloneJourney: { name: 'Stolen copy' },
  launchJourney: {},
  updateTag: { name: 'hijacked', valueType: 'text' },
  updateEventDefinition: { label: 'Hijacked' },
  setEventBreakdowns: { properties: ['hijacked'] },
  retryEventBreakdown: { property: 'hijacked' },
  sendAbWinner: { variantId: 'A', metric: 'click' },
  renameSegment: { name: 'Hijacked' },
  updateDashboard: { name: 'Hijacked', window: 'day' },
  cloneSegment: { name: 'Stolen copy' },
  updateAudience: { name: 'Hijacked', active: false },
  cloneAudience: { name: 'Stolen copy' },
  updateImportTask: { name: 'Hijacked' },
  createAudienceExport: { format: 'csv' },
  transitionMessage: { action: 'pause' },
  approveMessage: { submissionId: randomUUID() },
  rejectMessage: { submissionId: randomUUID(), reason: 'Hijacked' },
  commentSubmission: { body: 'Hijacked' },
  cloneMessage: { name: 'Stolen copy' },
  assignMessage: { userId: randomUUID() },
  updateCommunicationParameter: { name: 'communicationParameter__hijacked', label: 'Hijacked', type: 'valueSelection', values: ['a'] },
  updateNativeTemplate: { name: 'Hijacked', fields: [{ key: 'spy', label: 'Spy', kind: 'url', required: false }], isDefault: true },
  updatePlatformNativeTemplate: { name: 'Hijacked', fields: [{ key: 'spy', label: 'Spy', kind: 'url', required: false }], isDefault: true },
  updateMailProvider: { name: 'Hijacked', host: '203.0.114.11', port: 465, tls: 'tls', username: 'spy', password: 'spy-password', senderName: 'Spy', senderEmail: 'spy@example.com' },
  updateRule: { name: 'Hijacked', trigger: { kind: 'event_made', eventId: 'spy' }, messageId: randomUUID() },
  cloneRule: { name: 'Stolen copy' },
  updateReport: { name: 'Hijacked', kind: 'explore', query: { event: 'spy' }, schedule: { frequency: 'daily' }, target: { type: 'email', recipients: ['spy@example.com'] } },
  simulateJourney: { source: 'draft' },
};

// ---------------------------------------------------------------------------------------------
// Request and query fields naming a child: how to name one, per field.

interface FieldCase {
  /** `<endpoint> <where>` as `referenceFields` finds it, or a field it cannot find by name (event names, document names). */
  field: string;
  children: Child[];
  build(caller: Caller, child: Child, id: string): Probe;
  /** The call starts an import: its outcome is compared too, once it ran. */
  runs?: boolean;
}

const importName = (id: string) => `Probe ${id}`;
const s3Source = (id: string) => ({ type: 's3', s3FileRoute: 'people.csv', s3IdType: 'customerId', s3IntegrationId: id });
const performance = (id: string) => ({ type: 'performance_report', kpiType: 'impacts', filters: { journeyIds: [id] }, dateRange: { startDay: today(), endDay: today(), timeGroup: 'day' } });
const docName = (accountId: string, appId: string, kind: DocumentKind, id: string) => `${accountId}/${appId}/${kind}/${id}`;

const FIELD_CASES: FieldCase[] = [
  { field: 'addUser body.roleId', children: ['role'], build: (_c, _k, id) => ({ body: { name: 'Mole', email: uniqueEmail('mole'), roleId: id } }) },
  { field: 'updateUser body.roleId', children: ['role'], build: (c, _k, id) => ({ params: { userId: c.own.colleagueId }, body: { roleId: id } }) },
  { field: 'assignMessage body.userId', children: ['user'], build: (c, _k, id) => ({ params: { appId: c.appId, messageId: c.own.messageId }, body: { userId: id } }) },
  { field: 'approveMessage body.submissionId', children: ['submission'], build: (c, _k, id) => ({ params: { appId: c.appId, messageId: c.own.messageId }, body: { submissionId: id } }) },
  { field: 'rejectMessage body.submissionId', children: ['submission'], build: (c, _k, id) => ({ params: { appId: c.appId, messageId: c.own.messageId }, body: { submissionId: id, reason: 'Probe' } }) },
  { field: 'abAnalysis query.messageId', children: ['message'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { messageId: id } }) },
  { field: 'performanceHistograms query.messageId', children: ['message'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { startDay: '2026-01-01', endDay: '2026-01-31', messageId: id } }) },
  { field: 'createMessage body.campaignId', children: ['campaign'], build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: `Probe ${id}`, type: 'push', campaignId: id } }) },
  {
    field: 'messageWhatIf body.target.id', children: ['audience', 'segment'],
    build: (c, k, id) => ({ params: { appId: c.appId }, body: { target: { kind: k, id }, type: 'push', schedule: { kind: 'now' } } }),
  },
  { field: 'assignJourney body.userId', children: ['user'], build: (c, _k, id) => ({ params: { appId: c.appId, journeyId: c.own.journeyId }, body: { userId: id } }) },
  { field: 'estimateSegment body.segment (segment)', children: SEGMENT_CHILDREN, build: (c, k, id) => ({ params: { appId: c.appId }, body: { segment: naming(k, id) } }) },
  {
    field: 'segmentValues query.id', children: ['tag', 'event'],
    build: (c, k, id) => ({ params: { appId: c.appId }, query: k === 'tag' ? { type: 'user_tag', id } : { type: 'user_event_tag', id: `${id}/plan` } }),
  },
  { field: 'createAudience body.source.segmentId', children: ['segment'], build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), source: { from: 'segment', segmentId: id } } }) },
  { field: 'createAudience body.source.segment (segment)', children: SEGMENT_CHILDREN, build: (c, k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), source: { from: 'definition', segment: naming(k, id) } } }) },
  {
    field: 'createAudience body.source.rules[].tagId', children: ['tag'],
    build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), source: { from: 'rules', rules: [{ kind: 'tag_value', tagId: id, value: 'gold' }] } } }),
  },
  {
    field: 'createImportTask body.audienceId', children: ['audience'], runs: true,
    build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), audienceId: id, source: { type: 'csv', csvContent: 'customer_id\nsecret-customer\n' } } }),
  },
  { field: 'createImportTask body.source.s3IntegrationId', children: ['integration'], build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), awaitUpload: true, source: s3Source(id) } }) },
  { field: 'createImportTask body.source.segmentId', children: ['segment'], runs: true, build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), source: { type: 'segment', segmentId: id } } }) },
  { field: 'createImportTask body.source.config (segment)', children: SEGMENT_CHILDREN, runs: true, build: (c, k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), source: { type: 'segment', config: naming(k, id) } } }) },
  { field: 'createImportTask body.source.filters.journeyIds', children: ['journey'], runs: true, build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: importName(id), source: performance(id) } }) },
  { field: 'updateImportTask body.source.s3IntegrationId', children: ['integration'], build: (c, _k, id) => ({ params: { appId: c.appId, taskId: c.own.tasks.s3 }, body: { source: s3Source(id) } }) },
  { field: 'updateImportTask body.source.segmentId', children: ['segment'], build: (c, _k, id) => ({ params: { appId: c.appId, taskId: c.own.tasks.segment }, body: { source: { type: 'segment', segmentId: id } } }) },
  { field: 'updateImportTask body.source.config (segment)', children: SEGMENT_CHILDREN, build: (c, k, id) => ({ params: { appId: c.appId, taskId: c.own.tasks.segment }, body: { source: { type: 'segment', config: naming(k, id) } } }) },
  { field: 'updateImportTask body.source.filters.journeyIds', children: ['journey'], build: (c, _k, id) => ({ params: { appId: c.appId, taskId: c.own.tasks.performance_report }, body: { source: performance(id) } }) },
  // Rules: the caller's own message as the rule's message (a classic draft: refused alike whatever else is named).
  { field: 'createRule body.messageId', children: ['message'], build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: `Probe ${id}`, trigger: { kind: 'event_made', eventId: 'probe' }, messageId: id } }) },
  { field: 'createRule body.trigger.messageId', children: ['message'], build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: `Probe ${id}`, trigger: { kind: 'coupon_redeemed', messageId: id }, messageId: c.own.messageId } }) },
  {
    field: 'createRule body.trigger.tagId', children: ['tag'],
    build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: `Probe ${id}`, trigger: { kind: 'tag_value', tagId: id, operator: 'equals', value: 'gold' }, messageId: c.own.messageId, sendHour: 9 } }),
  },
  // The caller's own journey simulated for the person named.
  { field: 'simulateJourney body.personId', children: ['person'], build: (c, _k, id) => ({ params: { appId: c.appId, journeyId: c.own.journeyId }, body: { source: 'draft', personId: id } }) },
  // A report e-mailed through the named provider (an account child: refused alike, nothing created).
  {
    field: 'createReport body.target.mailProviderId', children: ['mailProvider'],
    build: (c, _k, id) => ({ params: { appId: c.appId }, body: { name: `Probe ${id}`, kind: 'explore', query: { event: 'probe' }, schedule: { frequency: 'daily' }, target: { type: 'email', mailProviderId: id, recipients: ['probe@example.com'] } } }),
  },
  { field: 'listAudienceExports query.audienceId', children: ['audience'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { audienceId: id } }) },
  // Fields that name a child without an id-like name.
  { field: 'searchPeople query.q', children: ['customer', 'deviceKey'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { q: id } }) },
  { field: 'eventTrend query.name', children: ['event'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { name: id } }) },
  { field: 'eventProperties query.name', children: ['event'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { name: id } }) },
  { field: 'explore query.event', children: ['event'], build: (c, _k, id) => ({ params: { appId: c.appId }, query: { event: id, metric: 'people' } }) },
  ...(Object.entries(DOC_CHILDREN) as [DocumentKind, Child | null][]).filter(([, child]) => child !== null).flatMap(([kind, child]) => [
    { field: `docToken body.name (${kind} in the caller's app)`, children: [child!], build: (c: Caller, _k: Child, id: string) => ({ body: { name: docName(c.accountId, c.appId, kind, id) } }) },
    { field: `docToken body.name (${kind} in the victim's app)`, children: [child!], build: (c: Caller, _k: Child, id: string) => ({ body: { name: docName(c.accountId, appB, kind, id) } }) },
  ]),
];

/** The routes with a child parameter this file sweeps (the acquisition ones: isolation-acquisition.int.test.ts). */
const swept = pathSwept.filter((n) => !isAcquisition(n));

/** Account children (users, roles) are foreign only to another account's caller. */
const reaches = (otherAccount: boolean, child: Child) => otherAccount || !ACCOUNT_CHILDREN.has(child);

// ---------------------------------------------------------------------------------------------

describe('the sweep covers every child', () => {
  it('every path parameter is a child the sweeps know, or names none', () => {
    const unknown = sessionEndpoints.flatMap((n) => childParams(n).filter((p) => !pathChild(n, p)).map((p) => `${n} :${p}`));
    expect(unknown, 'add the child to PATH_CHILDREN (with a victim id) or NOT_CHILDREN').toEqual([]);
  });

  it('every route with a child parameter and a body has a valid body here', () => {
    const missing = swept.filter((n) => 'request' in endpoints[n] && !(n in VALID_BODIES));
    expect(missing).toEqual([]);
  });

  it('every request or query field that names a child is swept, or exempt with its reason', () => {
    const found = referenceFields();
    const cases = new Set(FIELD_CASES.map((c) => c.field));
    expect(found.filter((f) => !isAcquisition(endpointOf(f)) && !cases.has(f) && !(f in FIELD_EXEMPT)), 'add a FIELD_CASES entry (or a FIELD_EXEMPT reason)').toEqual([]);
    expect(Object.keys(FIELD_EXEMPT).filter((f) => !found.includes(f)), 'exemptions for fields that are gone').toEqual([]);
    expect(FIELD_CASES.map((c) => endpointOf(c.field)).filter((n) => !(n in endpoints) || isAcquisition(n))).toEqual([]);
  });

  it('every document kind is swept, or has no entity yet', () => {
    expect(DOC_KINDS.filter((k) => !(k in DOC_CHILDREN))).toEqual([]);
  });
});

describe.each([
  ['a user of another account in their own app', true, () => intruder],
  ['a user of the account through app A, with children of app B', false, () => sameAccount],
] as const)('%s', (_label, otherAccount, callerOf) => {
  let before: Record<string, string[]>;
  beforeAll(async () => {
    before = await rowsOf(callerOf());
  });

  const pathCases = swept.filter((n) => childParams(n).every((p) => reaches(otherAccount, pathChild(n, p)!))).map((n) => [n] as const);
  it.each(pathCases)('%s with the victim\'s child answers as with an unused id (10004 or 10)', async (name) => {
    const caller = callerOf();
    const children = childParams(name).map((p) => pathChild(name, p)!);
    const probe = (pick: (child: Child) => string): Probe => ({
      params: Object.fromEntries(pathParams(name).map((p) => [p, p === 'appId' ? caller.appId : p === 'version' ? '1' : pick(pathChild(name, p)!)])),
      body: VALID_BODIES[name],
    });
    const mine = Object.fromEntries(children.map((child) => [child, unused(child)])) as Record<Child, string>;
    const foreign = await send(caller.client, name, probe((child) => victim[child]));
    const none = await send(caller.client, name, probe((child) => mine[child]));
    const ids = children.flatMap((child) => [victim[child], mine[child]]);
    expect(foreign.body.status).toBe('KO');
    expect([ErrorCode.NOT_EXIST, ErrorCode.NO_PERMISSION]).toContain(none.body.code);
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
  });

  const fieldCases = FIELD_CASES.flatMap((c) => c.children.filter((child) => reaches(otherAccount, child)).map((child) => [c.field, child, c] as const));
  it.each(fieldCases)('%s naming the victim\'s %s answers as naming an unused one', async (_field, child, c) => {
    const caller = callerOf();
    const name = endpointOf(c.field);
    const { foreign, none, ids } = await both(caller, name, child, (id) => c.build(caller, child, id));
    if (c.runs && foreign.body.status === 'OK' && none.body.status === 'OK') {
      // Both imports run in the caller's app (their first answers race with the job): the same
      // outcome once they ran, so nothing of the victim's was read.
      const ran = [foreign, none].map((a) => (a.body.task as { id: string }).id);
      started.set(caller.appId, [...(started.get(caller.appId) ?? []), ...ran]);
      const [a, b] = await Promise.all(ran.map((taskId) => ranTask(caller.client, caller.appId, taskId)));
      expect(comparable(a!, ids)).toEqual(comparable(b!, ids));
    } else {
      expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
    }
  });

  it('left every row of the victim\'s as it was', async () => {
    const caller = callerOf();
    for (const taskId of started.get(caller.appId) ?? []) await ranTask(caller.client, caller.appId, taskId);
    expect(await rowsOf(callerOf())).toEqual(before);
  });
});

describe('putRole', () => {
  it('with another account\'s role id acts on the caller\'s own account only', async () => {
    const before = await rowsOf(intruder);
    const put = await send(intruder.client, 'putRole', { params: { roleId: victim.role }, body: { name: 'Hijacked', userType: 79, grants: [] } });
    expect(put.body).toMatchObject({ status: 'OK', role: { id: victim.role, name: 'Hijacked' } });
    await intruder.client.ok('deleteRole', undefined, { roleId: victim.role });
    expect(await rowsOf(intruder)).toEqual(before);
  });
});
