/**
 * Helpers of the delivery integration tests (tests/integration/delivery*.int.test.ts): an API
 * with the sync server attached in process, people in an audience written straight to the
 * database, an e-mail or push message written through its live document and approved, and a
 * wait for a condition.
 */
import {
  applyMessageDraftToDoc, messageDraftFromDoc, type CommunicationType, type MessageContent, type MessageOrigin, type MessageDraft, type MessageSummary,
} from '@gd/shared';
import { createSyncServer, inProcessLiveDocs, type SyncServer } from '@gd/sync-server';
import { registerAccount, startTestApi, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

export interface DeliveryWorld { api: TestApi; sync: SyncServer; docs: DocClient[]; stop(): Promise<void> }

/** A test API (env as startTestApi's) with the sync server on /collab and read in process. */
export async function startApiWithSync(env: Record<string, string>): Promise<DeliveryWorld> {
  const api = await startTestApi(env);
  const sync = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 100, maxDebounceMs: 500 });
  sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  const docs: DocClient[] = [];
  return {
    api, sync, docs,
    async stop() {
      for (const d of docs) d.destroy();
      await sync.shutdown();
      await api.stop();
    },
  };
}

/** People (each an e-mail and optionally a time zone, or nothing) in a new ready audience of the app; answers it and the people's ids. */
export async function audienceOf(api: TestApi, appId: string, people: { email?: string | null; zone?: string | null }[], name: string): Promise<{ audienceId: string; personIds: string[] }> {
  const { rows } = await api.db.query<{ id: string }>(
    `INSERT INTO people (app_id, id, customer_id, email, attributes)
     SELECT $1, nextval('people_id_seq'), CASE WHEN e IS NULL THEN NULL ELSE 'c-' || e END, e, CASE WHEN z IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('timezone', z) END
       FROM unnest($2::text[], $3::text[]) AS x(e, z) RETURNING id::text`,
    [appId, people.map((p) => p.email ?? null), people.map((p) => p.zone ?? null)]);
  const accountId = (await api.db.query<{ account_id: string }>('SELECT account_id FROM apps WHERE id = $1', [appId])).rows[0]?.account_id;
  const audience = await api.db.query<{ id: string }>(
    `INSERT INTO audiences (account_id, app_id, name, status, source_type, person_count) VALUES ($1, $2, $3, 'ready', 'csv', $4) RETURNING id`,
    [accountId, appId, name, rows.length]);
  const audienceId = audience.rows[0]?.id ?? '';
  await api.db.query('INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[])', [appId, audienceId, rows.map((r) => r.id)]);
  return { audienceId, personIds: rows.map((r) => r.id) };
}

/**
 * A message of `type` to the audience in a new campaign, its content (every variant, every
 * language) set to `content`, written in its live document, submitted and approved by `client`
 * (the account's policy must let an author approve their own).
 */
export async function approvedMessage(
  client: TestClient, world: DeliveryWorld, c: { appId: string; type: CommunicationType; name: string; audienceId: string; content: Partial<MessageContent>; change?: (d: MessageDraft) => MessageDraft; origin?: MessageOrigin },
): Promise<MessageSummary> {
  const ids = (m: MessageSummary) => ({ appId: c.appId, messageId: m.id });
  const { message } = await client.ok<{ message: MessageSummary }>('createMessage', { name: c.name, type: c.type, campaignName: c.name, ...(c.origin ? { origin: c.origin } : {}) }, { appId: c.appId });
  const doc = await openApiDoc(client, message.docName, world.docs);
  const draft = messageDraftFromDoc(doc.doc);
  const written: MessageDraft = {
    ...draft,
    target: { kind: 'audience', id: c.audienceId },
    variants: draft.variants.map((v) => ({ ...v, content: Object.fromEntries(Object.entries(v.content).map(([lang, old]) => [lang, { ...old, ...c.content }])) })),
  };
  applyMessageDraftToDoc(doc.doc, c.change ? c.change(written) : written);
  await waitFor(() => !doc.provider.hasUnsyncedChanges, 'draft written');
  const { message: submitted } = await client.ok<{ message: MessageSummary }>('submitMessage', undefined, ids(message));
  if (!submitted.submission) throw new Error('no submission');
  await client.ok('approveMessage', { submissionId: submitted.submission.id }, ids(message));
  return message;
}

/** Waits until `check` holds, polling every 50 ms. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The message's status as its owner reads it. */
export const statusOf = async (client: TestClient, appId: string, message: MessageSummary): Promise<string> =>
  (await client.ok<{ message: MessageSummary }>('getMessage', undefined, { appId, messageId: message.id })).message.status;

/**
 * A new account whose authors may approve their own messages, with one app and the loopback SMTP
 * server at `smtpPort` as its active mail provider: what an e-mail delivery test starts from.
 */
export async function emailAccount(api: TestApi, smtpPort: number, app: { name: string; timezone?: string }): Promise<{ owner: Awaited<ReturnType<typeof registerAccount>>; appId: string }> {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const appId = (await owner.client.ok<{ app: { id: string } }>('createApp', { name: app.name, os: 'iOS', ...(app.timezone ? { timezone: app.timezone } : {}) })).app.id;
  const { provider } = await owner.client.ok<{ provider: { id: string } }>('createMailProvider', {
    name: 'Loopback', host: '127.0.0.1', port: smtpPort, tls: 'none', username: '', senderName: 'Growth team', senderEmail: 'team@example.com',
  });
  await owner.client.ok('activateMailProvider', undefined, { providerId: provider.id });
  return { owner, appId };
}
