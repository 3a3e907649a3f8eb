#!/usr/bin/env node
// `npm run typecheck`: every workspace's tsconfig, checked by TypeScript 7 (the native compiler,
// `typescript-native`, an npm alias of typescript@7). It checks what TypeScript 6 checks, in about a
// third of the CPU (all seven projects: 67 CPU-s against about 190 on the 2-core machine,
// docs/BENCHMARKS.md "Test suite time"). `typescript` itself stays on 6.0: typescript-eslint, which
// lints with type information, supports TypeScript below 6.1 only.
// One thread per project: on two cores the linter runs beside it, and TS 7's parallel checkers
// cost 80% more CPU for the same wall time there (120 against 67 CPU-s).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The package's exports do not name its bin; npm installs it at the root (package-lock.json).
const tsc = path.join(root, 'node_modules/typescript-native/bin/tsc');
// Every workspace (a new one is checked without being listed here), and the root's scripts.
const projects = [...JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces, 'scripts'];
let failed = 0;
for (const project of projects) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', project, '--singleThreaded'], { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    failed++;
    console.error(`typecheck: ${project} has errors`);
  }
}
process.exit(failed ? 1 : 0);
