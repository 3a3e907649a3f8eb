/**
 * Mail providers against real Postgres and a real SMTP server on loopback (smtp-server): CRUD with
 * a write-only password sealed in its row, one active provider per account, the connection test's
 * outcomes (ok, wrong password, closed port, TLS refused, silence), the send pipeline's transport,
 * bad input with the catalogue's codes, private hosts, roles, and another account's reach.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { ErrorCode } from '@gd/shared';
import type { MailConnectionTest, MailProvider } from '@gd/shared/schemas/mailProviders';
import { publicOnly, netPolicy } from '../../net/index.ts';
import { addMember, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { openSecrets } from '../imports/secretBox.ts';
import { providerSettings } from './repository.ts';
import { activeMailTransport, testConnection } from './transport.ts';
import { composeForSending } from '../delivery/mime.ts';

const USER = 'relay-user';
const PASSWORD = 'Relay-Secret-pw-8431';

interface Received { from: string; to: string[]; raw: string }
let api: TestApi;
let smtp: SMTPServer;
let smtpPort: number;
const received: Received[] = [];

async function listen(server: { listen: (port: number, host: string, cb: () => void) => unknown }, address: () => AddressInfo): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return address().port;
}

beforeAll(async () => {
  api = await startTestApi({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
    logger: false,
  });
  smtp.on('error', () => undefined);
  smtpPort = await listen(smtp, () => smtp.server.address() as AddressInfo);
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await api.stop();
});

const input = (over: Record<string, unknown> = {}) => ({
  name: `Relay ${Math.random().toString(36).slice(2, 8)}`, host: '127.0.0.1', port: smtpPort, tls: 'none', username: USER, password: PASSWORD,
  senderName: 'Acme News', senderEmail: 'news@acme.example.com', ...over,
});

async function create(client: TestClient, over: Record<string, unknown> = {}): Promise<MailProvider> {
  return (await client.ok<{ provider: MailProvider }>('createMailProvider', input(over))).provider;
}
const test = async (client: TestClient, id: string) => (await client.ok<{ result: MailConnectionTest }>('testMailProvider', undefined, { providerId: id })).result;

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server, () => server.address() as AddressInfo);
  server.close();
  await once(server, 'close');
  return port;
}

describe('mail providers', () => {
  it('creates, reads, edits and deletes; the password is never answered and is sealed in its row', async () => {
    const { client, accountId } = await registerAccount(api);
    const created = await create(client, { name: 'Main relay' });
    expect(created).toMatchObject({ name: 'Main relay', host: '127.0.0.1', port: smtpPort, tls: 'none', username: USER, hasPassword: true, active: false, senderName: 'Acme News', senderEmail: 'news@acme.example.com' });

    const answers = [
      await client.call('createMailProvider', input({ name: 'Second' })),
      await client.call('listMailProviders'),
      await client.call('getMailProvider', undefined, { providerId: created.id }),
    ];
    for (const a of answers) {
      expect(a.body.status).toBe('OK');
      expect(JSON.stringify(a.body)).not.toContain(PASSWORD);
    }

    const { rows } = await api.db.query<{ secret: Buffer }>('SELECT secret FROM mail_providers WHERE id = $1 AND account_id = $2', [created.id, accountId]);
    const secret = rows[0]!.secret;
    expect(secret.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(secret.toString('latin1')).not.toContain(PASSWORD);
    // It opens with the server secret and this row's id only.
    expect(openSecrets(api.deps.secret, created.id, secret)).toEqual({ password: PASSWORD });
    expect(openSecrets(api.deps.secret, crypto.randomUUID(), secret)).toBeNull();

    // Editing without a password keeps it (the login still works).
    const { provider: renamed } = await client.ok<{ provider: MailProvider }>('updateMailProvider', { ...input({ name: 'Renamed relay', senderName: 'Acme' }), password: undefined }, { providerId: created.id });
    expect(renamed).toMatchObject({ name: 'Renamed relay', senderName: 'Acme', hasPassword: true });
    expect(await test(client, created.id)).toMatchObject({ ok: true });

    // Moving it to another host (or TLS mode) without the password again is refused on the password.
    const moved = await client.call('updateMailProvider', { ...input({ tls: 'starttls' }), password: undefined }, { providerId: created.id });
    expect(moved.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'password', message: 'password_again' }] });

    // No username: no login, and the stored password is dropped.
    const { provider: open } = await client.ok<{ provider: MailProvider }>('updateMailProvider', input({ name: 'Renamed relay', username: '', password: undefined }), { providerId: created.id });
    expect(open).toMatchObject({ username: '', hasPassword: false });
    expect((await api.db.query('SELECT 1 FROM mail_providers WHERE id = $1 AND secret IS NULL', [created.id])).rowCount).toBe(1);

    await client.ok('deleteMailProvider', undefined, { providerId: created.id });
    expect((await client.call('getMailProvider', undefined, { providerId: created.id })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    const { providers } = await client.ok<{ providers: MailProvider[] }>('listMailProviders');
    expect(providers.map((p) => p.name)).toEqual(['Second']);
  });

  it('keeps one active provider per account: activating one deactivates the other, also when two activate at once', async () => {
    const { client, accountId } = await registerAccount(api);
    const a = await create(client);
    const b = await create(client);
    const c = await create(client);
    expect((await client.ok<{ provider: MailProvider }>('activateMailProvider', undefined, { providerId: a.id })).provider.active).toBe(true);
    expect((await client.ok<{ provider: MailProvider }>('activateMailProvider', undefined, { providerId: b.id })).provider.active).toBe(true);
    const active = async () => (await client.ok<{ providers: MailProvider[] }>('listMailProviders')).providers.filter((p) => p.active).map((p) => p.id);
    expect(await active()).toEqual([b.id]);

    const raced = await Promise.all([a, b, c, a, c].map((p) => client.call('activateMailProvider', undefined, { providerId: p.id })));
    expect(raced.map((r) => r.body.status)).toEqual(['OK', 'OK', 'OK', 'OK', 'OK']);
    expect(await active()).toHaveLength(1);

    // The database refuses a second active row whatever the code does (partial unique index).
    await expect(api.db.query('UPDATE mail_providers SET active = true WHERE account_id = $1', [accountId])).rejects.toMatchObject({ code: '23505' });

    const [only] = await active();
    await client.ok('deactivateMailProvider', undefined, { providerId: only! });
    expect(await active()).toEqual([]);
  });

  it('tests the connection: ok with the right login, a clear KO for a wrong password, a closed port and TLS to a plain server', async () => {
    const { client } = await registerAccount(api);
    const good = await create(client);
    const result = await test(client, good.id);
    expect(result).toMatchObject({ ok: true });

    const wrong = await create(client, { password: 'not-the-password' });
    const refused = await test(client, wrong.id);
    expect(refused).toMatchObject({ ok: false, reason: 'auth_failed' });
    expect(refused.ok === false && refused.message).toMatch(/refused the username or password/);
    expect(JSON.stringify(refused)).not.toContain('not-the-password');

    const closed = await create(client, { port: await closedPort() });
    expect(await test(client, closed.id)).toMatchObject({ ok: false, reason: 'connection_refused' });

    const tls = await create(client, { tls: 'tls' });
    expect(await test(client, tls.id)).toMatchObject({ ok: false, reason: 'tls_failed' });
    // STARTTLS required, and this server offers none.
    const starttls = await create(client, { tls: 'starttls' });
    expect(await test(client, starttls.id)).toMatchObject({ ok: false, reason: 'tls_failed' });
  });

  it('ends a test against a server that never answers within its time limit', async () => {
    const silent = createServer(() => undefined);
    const port = await listen(silent, () => silent.address() as AddressInfo);
    try {
      const { client, accountId } = await registerAccount(api);
      const provider = await create(client, { port });
      const settings = await providerSettings(api.db, accountId, { id: provider.id });
      const started = Date.now();
      const result = await testConnection(settings!, api.deps.secret, netPolicy(api.deps.config), 600);
      expect(result).toMatchObject({ ok: false, reason: 'timeout' });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.close();
    }
  });

  it('gives the send pipeline the active provider as a transport that delivers with its sender', async () => {
    const { client, accountId } = await registerAccount(api);
    expect(await activeMailTransport(api.db, api.deps.secret, accountId, netPolicy(api.deps.config))).toBeNull();
    const provider = await create(client, { senderName: 'Acme Offers', senderEmail: 'offers@acme.example.com' });
    await client.ok('activateMailProvider', undefined, { providerId: provider.id });
    const active = await activeMailTransport(api.db, api.deps.secret, accountId, netPolicy(api.deps.config));
    expect(active).not.toBeNull();
    expect(active!.providerId).toBe(provider.id);
    expect(active!.from).toEqual({ name: 'Acme Offers', address: 'offers@acme.example.com' });
    try {
      const to = `person.${provider.id.slice(0, 8)}@example.com`;
      const mail = (subject: string) => composeForSending({ from: active!.from, to, subject, html: '<p>Hi there</p>', text: 'Hi there', messageId: `<${subject}@test>`, headers: {} });
      const first = await mail('Hello');
      await active!.pool.send(first.envelope, first.raw);
      // The second message reuses the connection of the first.
      const second = await mail('Again');
      await active!.pool.send(second.envelope, second.raw);
      const got = received.filter((m) => m.to.includes(to));
      expect(got.map((m) => m.from)).toEqual(['offers@acme.example.com', 'offers@acme.example.com']);
      expect(got[0]?.raw).toContain('From: Acme Offers <offers@acme.example.com>');
      expect(got.map((m) => m.raw.match(/^Subject: (.*)$/m)?.[1])).toEqual(['Hello', 'Again']);
    } finally {
      active!.pool.close();
    }
    // Public addresses only: the same provider through a policy that lets no loopback through.
    const guarded = await activeMailTransport(api.db, api.deps.secret, accountId, publicOnly());
    try {
      await expect(guarded!.pool.send({ from: 'team@example.com', to: ['x@example.com'] }, 'Subject: x\r\n\r\nx\r\n')).rejects.toMatchObject({ reason: 'refused_address' });
    } finally {
      guarded!.pool.close();
    }
  });

  it('refuses bad input with the catalogue codes', async () => {
    const { client } = await registerAccount(api);
    const bad = async (body: unknown) => (await client.call('createMailProvider', body)).body;
    expect(await bad(input({ senderEmail: 'not an address' }))).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'senderEmail' })] });
    expect(await bad(input({ port: 0 }))).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'port' })] });
    expect(await bad(input({ host: 'smtp://mail.example.com:25' }))).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'host' })] });
    expect(await bad(input({ tls: 'ssl' }))).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'tls' })] });
    expect(await bad(input({ password: undefined }))).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'password', message: 'password_required' }] });
    // Private addresses other than the loopback address tests allow.
    expect(await bad(input({ host: '10.1.2.3' }))).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'host', message: 'private_address' }] });
    expect(await bad(input({ host: 'localhost' }))).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'host', message: 'private_address' }] });
    await create(client, { name: 'Taken' });
    expect(await bad(input({ name: 'TAKEN' }))).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'name' }] });
    expect((await client.call('getMailProvider', undefined, { providerId: 'not-a-uuid' })).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });
  });

  it('refuses loopback hosts without the tests\' allow list, when saving and again when connecting', async () => {
    const production = await startTestApi();
    try {
      const { client, accountId } = await registerAccount(production);
      const refused = await client.call('createMailProvider', input());
      expect(refused.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'host', message: 'private_address' }] });
      // A host that was public when saved and is loopback when connecting (as a DNS answer may
      // change): the connection is refused when it is made.
      const saved = await client.call('createMailProvider', input({ host: '203.0.114.10' }));
      expect(saved.body.status).toBe('OK');
      const id = (saved.body.provider as MailProvider).id;
      await api.db.query("UPDATE mail_providers SET host = '127.0.0.1' WHERE id = $1 AND account_id = $2", [id, accountId]);
      expect(await test(client, id)).toMatchObject({ ok: false, reason: 'private_address' });
    } finally {
      await production.stop();
    }
  });

  it('lets roles do what they hold, and shows another account nothing', async () => {
    const owner = await registerAccount(api);
    const provider = await create(owner.client, { name: 'Owner relay' });
    const analyst = await addMember(api, owner.client, 'analyst');
    expect((await analyst.ok<{ providers: MailProvider[] }>('listMailProviders')).providers.map((p) => p.id)).toEqual([provider.id]);
    expect((await analyst.call('createMailProvider', input())).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });
    expect((await analyst.call('activateMailProvider', undefined, { providerId: provider.id })).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });
    expect((await analyst.call('testMailProvider', undefined, { providerId: provider.id })).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });

    const other = await registerAccount(api);
    expect((await other.client.ok<{ providers: MailProvider[] }>('listMailProviders')).providers).toEqual([]);
    const params = { providerId: provider.id };
    for (const answer of [
      await other.client.call('getMailProvider', undefined, params),
      await other.client.call('updateMailProvider', input({ name: 'Hijacked' }), params),
      await other.client.call('activateMailProvider', undefined, params),
      await other.client.call('testMailProvider', undefined, params),
      await other.client.call('deleteMailProvider', undefined, params),
    ]) expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await owner.client.ok<{ provider: MailProvider }>('getMailProvider', undefined, params)).provider).toMatchObject({ name: 'Owner relay', active: false });
  });
});
