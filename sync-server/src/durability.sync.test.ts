/**
 * Nothing the clients made is lost: not when the server process is SIGKILLed mid-editing (the
 * clients keep their documents and resync with the restarted server), not on SIGTERM (shutdown
 * stores before exiting), not when the database refuses stores for a while (the store retries and
 * the document stays loaded until it is written).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, expect, it } from 'vitest';
import { openClient, synced, waitFor } from './testing/clients.ts';
import type { Fixture } from './testing/fixtures.ts';
import { layoutOf, useScene } from './testing/scene.ts';
import { startSync } from './testing/server.ts';

const scene = useScene();
const { db, open, child } = scene;
const meta = layoutOf;
const stored = scene.storedLayout;
let fx: Fixture;
beforeAll(() => { fx = scene.fixture(); });

it('loses nothing when the server is SIGKILLed mid-editing and restarted', async () => {
  const name = await fx.newJourneyDoc();
  const first = await child();
  const [a, b] = [open(first.url, name), open(first.url, name)];
  await waitFor(() => synced(a) && synced(b), 'synced');
  for (let i = 0; i < 10; i += 1) {
    meta(a)!.set(`a${i}`, i);
    meta(b)!.set(`b${i}`, i);
  }
  await waitFor(() => meta(a)!.has('b9') && meta(b)!.has('a9'), 'edits exchanged');
  meta(a)!.set('inFlight', true); // maybe received, certainly not stored
  first.child.kill('SIGKILL');
  expect(await first.exited).toBeNull();
  expect(await stored(name)).not.toHaveProperty('a0'); // only the initial content was ever stored

  meta(a)!.set('whileDownA', true);
  meta(b)!.set('whileDownB', true);
  const second = await child({ PORT: String(first.port) });
  const everything = ['a9', 'b9', 'inFlight', 'whileDownA', 'whileDownB'];
  await waitFor(() => synced(a) && synced(b) && everything.every((k) => meta(a)!.has(k) && meta(b)!.has(k)), 'resynced after restart');

  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  const final = await stored(name);
  for (let i = 0; i < 10; i += 1) expect(final).toMatchObject({ [`a${i}`]: i, [`b${i}`]: i });
  expect(final).toMatchObject({ inFlight: true, whileDownA: true, whileDownB: true });
});

it('keeps every confirmed edit when the server is SIGKILLed right after the last confirmation', async () => {
  const name = await fx.newJourneyDoc();
  const first = await child(); // store debounce of a minute: nothing but the log can hold the edits
  const a = open(first.url, name);
  await waitFor(() => synced(a), 'synced');
  // Killed synchronously on the acknowledgement that leaves nothing unconfirmed.
  a.provider.on('unsyncedChanges', ({ number }: { number: number }) => {
    if (number === 0 && meta(a)!.has('e199')) first.child.kill('SIGKILL');
  });
  for (let i = 0; i < 200; i += 1) meta(a)!.set(`e${i}`, i);
  expect(await first.exited).toBeNull();
  a.destroy(); // the tab is gone: only the server can bring the edits back

  const second = await child({ PORT: String(first.port) });
  const fresh = open(second.url, name);
  await waitFor(() => synced(fresh), 'a new tab synced');
  const got = meta(fresh)!.toJSON();
  for (let i = 0; i < 200; i += 1) expect(got).toHaveProperty(`e${i}`, i);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});

it('acknowledges an edit only once it is in the database', async () => {
  const running = await startSync({ db, debounceMs: 60_000, maxDebounceMs: 120_000 });
  const name = await fx.newJourneyDoc();
  const a = open(running.url, name);
  await waitFor(() => synced(a), 'synced');
  const fn = `hold_log_${name.slice(-12)}`;
  await db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.name = '${name}' THEN RAISE EXCEPTION 'log refused'; END IF; RETURN NEW; END $$`);
  await db.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON document_updates FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  try {
    const acks = a.syncStatuses.length;
    meta(a)!.set('unlogged', true);
    await new Promise((resolve) => setTimeout(resolve, 600)); // several refused attempts
    expect(a.syncStatuses.slice(acks)).not.toContain(true);
    expect(a.provider.hasUnsyncedChanges).toBe(true);
  } finally {
    await db.query(`DROP TRIGGER ${fn} ON document_updates; DROP FUNCTION ${fn}()`);
  }
  // The held update is logged once the database accepts it, and only then confirmed.
  await waitFor(() => !a.provider.hasUnsyncedChanges, 'confirmed once logged');
  const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM document_updates WHERE name = $1', [name]);
  expect(Number(rows[0]?.n)).toBeGreaterThan(0);
  await running.stop();
});

it('stores pending edits on SIGTERM before exiting', async () => {
  const name = await fx.newJourneyDoc();
  const server = await child();
  const [a, b] = [open(server.url, name), open(server.url, name)];
  await waitFor(() => synced(a) && synced(b), 'synced');
  meta(a)!.set('pending', 'yes');
  await waitFor(() => meta(b)!.get('pending') === 'yes', 'edit reached the server');
  expect(await stored(name)).not.toHaveProperty('pending'); // the debounce is a minute
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  expect(await stored(name)).toMatchObject({ pending: 'yes' });
});

it('retries a failing store and keeps the document loaded until it is written', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });
  const running = await startSync({ db, log: pino({ level: 'warn' }, sink), debounceMs: 50, maxDebounceMs: 200, storeRetry: { initialMs: 20, maxMs: 100 } });
  const name = await fx.newJourneyDoc();
  const a = open(running.url, name);
  await waitFor(() => synced(a), 'synced'); // the initial content is stored on load

  const fn = `fail_store_${name.slice(-12)}`;
  await db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.name = '${name}' THEN RAISE EXCEPTION 'database refuses this store'; END IF; RETURN NEW; END $$`);
  await db.query(`CREATE TRIGGER ${fn} BEFORE UPDATE ON documents FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  try {
    meta(a)!.set('precious', 1);
    a.destroy(); // last disconnect: store now, which fails
    const retries = () => lines.filter((l) => l.includes('store failed, retrying') && l.includes(name)).length;
    await waitFor(() => retries() >= 3, 'three failed attempts');
    expect(running.sync.hocuspocus.documents.has(name)).toBe(true);

    // Meanwhile another client still gets the edit from memory, and leaving does not unload it.
    const b = open(running.url, name);
    await waitFor(() => meta(b)!.get('precious') === 1, 'edit served from memory');
    b.destroy();
    await waitFor(() => retries() >= 5, 'still retrying');
    expect(running.sync.hocuspocus.documents.has(name)).toBe(true);
    expect(await stored(name)).not.toHaveProperty('precious');
  } finally {
    await db.query(`DROP TRIGGER ${fn} ON documents; DROP FUNCTION ${fn}()`);
  }
  await waitFor(async () => (await stored(name)).precious === 1, 'stored once the database accepts it');
  await waitFor(() => !running.sync.hocuspocus.documents.has(name), 'then unloaded');
  await running.stop();
});

it('standalone without JWT_SECRET uses the secret the API keeps in server_secrets', async () => {
  const server = await child({ JWT_SECRET: '' });
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'jwt'`);
  const name = await fx.newJourneyDoc();
  const c = scene.track(openClient({ url: server.url, name, token: () => fx.token(fx.users.manager, { doc: name }, { secret: rows[0]!.value }) }));
  await waitFor(() => synced(c), 'synced with the database secret');
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
});
