/**
 * Integration test setup: a fresh database per run on the real Postgres server (TEST_DATABASE_URL,
 * default the local `test` database's server), migrated once, dropped at the end. Tests create
 * their own accounts with random e-mails, so files run in parallel without truncating anything.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';

import './provided.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default async function setup(project: TestProject) {
  const name = `gd_it_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createPool(url.toString(), 2);
  await migrate(db);
  await db.end();
  project.provide('databaseUrl', url.toString());
  return async () => {
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await drop.end();
  };
}
