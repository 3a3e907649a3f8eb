/**
 * Builds the browser bundles with rolldown (the bundler inside Vite 8, already installed):
 * dist/growthdeck.js (IIFE, sets `window.Growthdeck`) and dist/growthdeck.mjs (ES module), both
 * minified. Prints their minified and gzipped sizes (the README records them).
 */
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const outputs = [
  { file: here('dist/growthdeck.js'), format: 'iife', name: 'Growthdeck' },
  { file: here('dist/growthdeck.mjs'), format: 'es' },
] as const;

for (const output of outputs) {
  await build({ input: here('src/index.ts'), platform: 'browser', logLevel: 'warn', output: { ...output, minify: true } });
  const code = readFileSync(output.file);
  console.log(`${output.file}: ${code.length} bytes minified, ${gzipSync(code, { level: 9 }).length} bytes gzipped`);
}
