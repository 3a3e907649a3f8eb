/**
 * The embedded database of `npm start` (PGlite behind a loopback socket): concurrent requests work
 * (named prepared statements collided there across multiplexed connections), and a restart on the
 * same data directory keeps the data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { seedDemo, DEMO_PASSWORD, demoEmail } from '../seed/demo.ts';
import { startServer } from '../server.ts';
import { TestClient } from '../testing/harness.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'gd-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = () => startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { log: pino({ level: 'silent' }), worker: false });

describe('embedded database', () => {
  it('serves concurrent requests and keeps its data across restarts', async () => {
    const first = await start();
    try {
      expect((await seedDemo(first.db)).created).toBe(true);
      const client = new TestClient(first.url);
      await client.ok('login', { email: demoEmail('client'), password: DEMO_PASSWORD });
      const answers = await Promise.all(Array.from({ length: 60 }, () => client.call('meta')));
      expect(answers.filter((a) => a.body.status !== 'OK').map((a) => a.body)).toEqual([]);
      await client.ok('createApp', { name: 'Kept across restarts', os: 'Web' });
    } finally {
      await first.stop();
    }
    const second = await start();
    try {
      expect((await seedDemo(second.db)).created).toBe(false);
      const client = new TestClient(second.url);
      await client.ok('login', { email: demoEmail('client'), password: DEMO_PASSWORD });
      const { apps } = await client.ok<{ apps: { name: string }[] }>('listApps');
      expect(apps.map((a) => a.name)).toContain('Kept across restarts');
    } finally {
      await second.stop();
    }
  }, 60_000);
});
