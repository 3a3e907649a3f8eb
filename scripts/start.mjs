#!/usr/bin/env node
// `npm start`: make sure Node >= 22 runs us (installing Node 24 from the npm registry if needed),
// install dependencies when the lockfile changed, build the web app when its sources changed, then
// run the whole product in one process: API, sync server, worker and web app, on the embedded
// database in .data/ (or DATABASE_URL when set). Plain JavaScript so that it runs on any Node.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const major = Number(process.versions.node.split('.')[0]);

function run(cmd, args, env = process.env) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

if (major < 22) {
  const candidates = ['/opt/node24/node_modules/node/bin/node', path.join(root, '.data/node24/node_modules/node/bin/node')];
  let node24 = candidates.find((p) => existsSync(p));
  if (!node24) {
    console.log(`Node ${process.versions.node} is too old (the product needs Node 24 LTS); installing Node 24 into .data/node24 from the npm registry…`);
    mkdirSync('.data/node24', { recursive: true });
    run('npm', ['i', '--prefix', '.data/node24', '--no-audit', '--no-fund', '--no-save', 'node@24']);
    node24 = candidates[1];
  }
  const env = { ...process.env, PATH: `${path.dirname(node24)}${path.delimiter}${process.env.PATH}` };
  const child = spawnSync(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(child.status ?? 1);
}

const hashFiles = (entries) => {
  const hash = createHash('sha256');
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) if (name !== 'node_modules' && name !== 'dist') walk(path.join(p, name));
    } else {
      hash.update(p);
      hash.update(readFileSync(p));
    }
  };
  entries.forEach(walk);
  return hash.digest('hex').slice(0, 16);
};

// 1. Dependencies
const lockHash = hashFiles(['package-lock.json', 'package.json', 'shared/package.json', 'api-server/package.json', 'sync-server/package.json', 'client/package.json', 'tests/package.json', 'sdk-web/package.json']);
const lockStamp = 'node_modules/.gd-install-hash';
if (!existsSync(lockStamp) || readFileSync(lockStamp, 'utf8') !== lockHash) {
  console.log('Installing dependencies…');
  // `install` (not `ci`) so an existing node_modules is updated in place; the lockfile pins versions.
  run('npm', ['install', '--no-audit', '--no-fund']);
  writeFileSync(lockStamp, lockHash);
}

// 2. Web app build
const buildHash = hashFiles(['client/src', 'client/index.html', 'client/vite.config.ts', 'client/public', 'client/.env', 'shared/src']);
const buildStamp = 'client/dist/.build-hash';
if (!existsSync(buildStamp) || readFileSync(buildStamp, 'utf8') !== buildHash) {
  console.log('Building the web app…');
  run('npm', ['run', 'build', '--workspace', 'client'], { ...process.env, BUILD_HASH: buildHash });
  writeFileSync(buildStamp, buildHash);
}

// 3. Web SDK bundle (served at /sdk/growthdeck.js for the apps' web pages)
const sdkHash = hashFiles(['sdk-web/src', 'sdk-web/build.ts']);
const sdkStamp = 'sdk-web/dist/.build-hash';
if (!existsSync(sdkStamp) || readFileSync(sdkStamp, 'utf8') !== sdkHash) {
  console.log('Building the web SDK…');
  run('npm', ['run', 'build', '--workspace', 'sdk-web']);
  writeFileSync(sdkStamp, sdkHash);
}

// 4. Run
const env = {
  ...process.env,
  CLIENT_DIST: path.join(root, 'client/dist'),
  SDK_DIST: path.join(root, 'sdk-web/dist'),
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, '.data'),
  BUILD_HASH: buildHash,
  PORT: process.env.PORT ?? '4000',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
const child = spawn(process.execPath, ['--max-semi-space-size=32', 'scripts/serve.ts'], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
