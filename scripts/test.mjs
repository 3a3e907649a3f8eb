#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (real Postgres), sync and end-to-end (Chromium)
// suites, recorded in that order. Typecheck, lint and the build run side by side (typecheck and lint
// are each one single-threaded process, the machine has two cores, and the build takes seconds), the
// unit suite starts as soon as typecheck ends, and integration and sync as soon as unit ends, beside
// the rest of lint (see checksThenSuites). Integration (two workers) and sync run side by side: the
// sync suite mostly waits (timeouts, reconnections: about a quarter of one core over its run), so
// beside integration it costs little and no longer adds its own minutes.
// Every suite runs even when an earlier one failed; the last line sums them all as
// `N passed, N failed`. Exit code 0 only when nothing failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const out = path.join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const rows = [];
/** Every failed test by name, printed again just above the totals (a long log's tail names them). */
const failures = [];
const firstLine = (text) => stripVTControlCharacters(String(text ?? '')).split('\n').find((l) => l.trim())?.trim().slice(0, 240) ?? '';

function exec(cmd, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return { status: result.status ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

/** `skipped` tests are also counted in `failed` (a skipped test cannot fail, so it is one). */
function record(name, passed, failed, seconds, skipped = 0) {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  const skips = skipped ? ` (${skipped} skipped)` : '';
  rows.push(`${failed ? '✖' : '✔'} ${name.padEnd(12)} ${String(passed).padStart(5)} passed ${String(failed).padStart(4)} failed${skips}  ${seconds}s`);
}

/** A vitest project's counts from its JSON report (`status`: the exit code). */
function recordVitest(name, file, status, seconds) {
  if (!existsSync(file)) return record(name, 0, 1, seconds);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const f of report.testResults) {
    const where = path.relative(root, f.name);
    const bad = f.assertionResults.filter((a) => a.status === 'failed');
    for (const a of bad) failures.push(`${name}: ${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (f.status === 'failed' && bad.length === 0) failures.push(`${name}: ${where}: ${firstLine(f.message)}`);
  }
  // A file that failed to load counts as a failure even when it reported no test.
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  // A skipped or todo test cannot fail, and a suite that ran nothing proves nothing: both fail.
  const skipped = report.numPendingTests + report.numTodoTests;
  const empty = report.numTotalTests === 0 ? 1 : 0;
  const failed = report.numFailedTests + brokenFiles + skipped + empty + (status !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0);
  record(name, report.numPassedTests, failed, seconds, skipped);
}

/**
 * Workers per vitest project: vitest's default on two cores is one. The integration suite waits on
 * Postgres and HTTP much of the time, so two workers (each file its own accounts, apps and pools)
 * take it from about 230 s to 150 s on this machine, with the sync suite beside them.
 */
const WORKERS = { integration: 2 };
const vitestArgs = (project, file) => ['vitest', 'run', '--project', project, ...(WORKERS[project] ? [`--maxWorkers=${WORKERS[project]}`] : []), '--reporter=default', '--reporter=json', `--outputFile.json=${file}`];

/** Runs `cmd` with its output kept, printed whole when it ends under `title` (not interleaved with others). */
function buffered(title, cmd, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const output = [];
    child.stdout.on('data', (c) => output.push(c));
    child.stderr.on('data', (c) => output.push(c));
    child.on('close', (code) => {
      console.log(`\n━━ ${title}`);
      process.stdout.write(Buffer.concat(output));
      resolve({ status: code ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    });
  });
}

/** vitest projects run side by side; their results, in the order given, to record. */
function vitestRuns(list) {
  const chosen = list.filter(([name]) => !only.length || only.includes(name));
  return Promise.all(chosen.map(async ([name, project]) => {
    const file = path.join(out, `${name}.json`);
    return { name, file, ...(await buffered(`${name}: vitest --project ${project}`, 'npx', vitestArgs(project, file))) };
  }));
}

function playwright(name) {
  if (only.length && !only.includes(name)) return;
  const file = path.join(out, 'e2e.json');
  console.log(`\n━━ ${name}: playwright`);
  const { status, seconds } = exec('npx', ['playwright', 'test', '-c', 'tests/playwright.config.ts', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  if (!existsSync(file)) return record(name, 0, 1, seconds);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const { stats } = report;
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'expected' || t.status === 'flaky') continue;
        const error = t.results?.at(-1)?.error?.message;
        failures.push(`${name}: ${spec.file}:${spec.line} › ${[...trail, spec.title].join(' › ')}: ${t.status}${error ? `: ${firstLine(stripVTControlCharacters(error))}` : ''}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.title && !suite.title.endsWith('.ts') ? [...trail, suite.title] : trail);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  const passed = stats.expected + stats.flaky;
  const failed = stats.unexpected + stats.skipped + (passed === 0 ? 1 : 0) + (status !== 0 && stats.unexpected === 0 ? 1 : 0);
  record(name, passed, failed, seconds, stats.skipped);
}

/**
 * Typecheck, lint and the build side by side, the unit suite as soon as typecheck is done, and
 * integration with sync as soon as the unit suite is done: lint (one thread, about four minutes on
 * the 2-core machine) outlasts typecheck and unit together, and the core they leave would otherwise
 * sit idle until it ends. End-to-end waits for everything. Recorded in that order.
 */
async function checksThenSuites() {
  const chosen = (name) => !only.length || only.includes(name);
  const check = async (name, cmd, args) => (chosen(name) ? { name, ...(await buffered(`${name}: ${cmd} ${args.join(' ')}`, cmd, args)) } : null);
  const unitFile = path.join(out, 'unit.json');
  const typechecked = check('typecheck', 'npm', ['run', 'typecheck', '--silent']);
  const unitRun = typechecked.then(async () => (chosen('unit') ? { file: unitFile, ...(await buffered('unit: vitest --project unit', 'npx', vitestArgs('unit', unitFile))) } : null));
  const suites = unitRun.then(() => vitestRuns([['integration', 'integration'], ['sync', 'sync']]));
  const [typecheck, unit, lint, build, suiteResults] = await Promise.all([
    typechecked, unitRun, check('lint', 'npm', ['run', 'lint', '--silent']), check('build', 'npm', ['run', 'build', '--silent']), suites,
  ]);
  for (const r of [typecheck, lint, build]) if (r) record(r.name, r.status === 0 ? 1 : 0, r.status === 0 ? 0 : 1, r.seconds);
  if (unit) recordVitest('unit', unit.file, unit.status, unit.seconds);
  for (const r of suiteResults) recordVitest(r.name, r.file, r.status, r.seconds);
}

await checksThenSuites();
playwright('e2e');

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ✖ ${f}`).join('\n')}`);
console.log(`\n${rows.join('\n')}\n`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);
