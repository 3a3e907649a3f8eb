/**
 * Prints the gzip size of the JavaScript the login page loads: the entry chunk of index.html
 * with its static imports, plus the lazy chunks of the auth layout and the login page with
 * theirs. Run after `vite build`: `node scripts/login-weight.mjs` (from client/).
 * Budget: 200 KB gzip.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const BUDGET = 200 * 1024;

const seen = new Set();
function visit(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) visit(dep);
}
visit('index.html');
const lazy = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));
for (const page of ['src/features/auth/AuthLayout.tsx', 'src/features/auth/LoginPage.tsx']) visit(lazy(page));

let total = 0;
const rows = [];
for (const key of seen) {
  const file = manifest[key]?.file;
  if (!file?.endsWith('.js')) continue;
  const size = gzipSync(readFileSync(join(dist, file))).length;
  total += size;
  rows.push([file, size]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, size] of rows) console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  total gzip JS for /login (budget ${BUDGET / 1024} KB)`);
if (total > BUDGET) process.exitCode = 1;
