/**
 * A connection that dies silently (packets dropped, no close, no reset) is noticed by the heartbeat
 * within 10 seconds, and once the network returns every pending change is confirmed within 5
 * seconds: the same heartbeat and socket settings as the browser's session, through a loopback
 * proxy that drops everything.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { reopenConnection } from '@gd/shared/docs/providerSocket';
import { openClient, openHeartbeatClient, synced, waitFor } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startProxy, type FaultyProxy } from './testing/proxy.ts';
import { startSync, type RunningSync } from './testing/server.ts';

let server: RunningSync;
let proxy: FaultyProxy;
let fx: Fixture;
const stops: (() => void)[] = [];

beforeAll(async () => {
  server = await startSync();
  proxy = await startProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
  fx = await createFixture(server.db);
});
afterAll(async () => {
  for (const stop of stops) stop();
  await proxy.close();
  await server.stop();
});

it('notices a silently dropped connection within 10 s and confirms every pending change within 5 s of the network returning', async () => {
  const name = await fx.newJourneyDoc();
  const client = openHeartbeatClient({ url: proxy.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  const { doc, provider, socket } = client;
  stops.push(client.stop);
  let status = 'connecting';
  let drops = 0;
  socket.on('status', ({ status: s }: { status: string }) => {
    if (status === 'connected' && s !== 'connected') drops += 1;
    status = s;
  });
  await waitFor(() => provider.isSynced && provider.isAuthenticated, 'synced');

  // A colleague keeps editing on a healthy connection meanwhile.
  const colleague = openClient({ url: server.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  stops.push(() => colleague.destroy());
  await waitFor(() => synced(colleague), 'colleague synced');

  // A healthy connection with nothing to say stays open: the pings keep it alive.
  await new Promise((resolve) => setTimeout(resolve, 6_500));
  expect(drops).toBe(0);

  proxy.blackhole();
  for (let i = 0; i < 10; i++) doc.getMap('layout').set(`offline${i}`, i);
  colleague.doc.getMap('layout').set('fromColleague', true);
  await waitFor(() => status !== 'connected', 'the dead connection noticed', 10_000);
  expect(provider.hasUnsyncedChanges).toBe(true);

  proxy.heal();
  await waitFor(() => provider.isAuthenticated && !provider.hasUnsyncedChanges && doc.getMap('layout').get('fromColleague') === true,
    'every pending change confirmed, and the colleague\'s edit received', 5_000);
  await waitFor(() => colleague.doc.getMap('layout').get('offline9') === 9, 'the colleague has the changes');
});

it('a socket closed while the network is down reconnects when it returns, though its close never finished', async () => {
  const name = await fx.newJourneyDoc();
  const client = openHeartbeatClient({ url: proxy.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  const { doc, provider, socket } = client;
  stops.push(client.stop);
  await waitFor(() => provider.isSynced && provider.isAuthenticated, 'synced');

  // The browser goes offline: the session closes the socket (collabSession.onBrowserOffline). With
  // no network its closing handshake cannot finish, so the provider still calls it connected.
  proxy.blackhole();
  socket.disconnect();
  doc.getMap('layout').set('whileOffline', 1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(socket.status).toBe('connected');

  // Back online (collabSession.onBrowserOnline): the change made meanwhile reaches the server.
  proxy.heal();
  reopenConnection(socket);
  await waitFor(() => provider.isAuthenticated && !provider.hasUnsyncedChanges, 'reconnected, the change confirmed', 5_000);
  const reader = openClient({ url: server.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  stops.push(() => reader.destroy());
  await waitFor(() => reader.doc.getMap('layout').get('whileOffline') === 1, 'another client reads the change');
});
