#!/usr/bin/env node
// `npm run bench [name ...]`: runs the benchmark scripts in tests/bench (not its support*.ts) and prints their figures.
// Record the figures with the date in docs/BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'tests/bench');
const wanted = process.argv.slice(2);
const scripts = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.startsWith('support') && (!wanted.length || wanted.some((w) => f.includes(w)))).sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n━━ ${script} (${new Date().toISOString()})`);
  const result = spawnSync(process.execPath, [path.join(dir, script)], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
