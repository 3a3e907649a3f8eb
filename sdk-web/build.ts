/**
 * Builds the browser bundles with rolldown (the bundler inside Vite 8, already installed):
 * dist/growthdeck.js (IIFE, sets `window.Growthdeck`), dist/growthdeck.mjs (ES module),
 * dist/growthdeck-sw.js (the web push service worker), and the scripts the tracker loads on demand:
 * dist/growthdeck-inapp.js (the in-app renderer) and dist/growthdeck-webpush.js (web push), all
 * minified. Prints their minified and gzipped sizes (the README records them; gzipped, growthdeck.js
 * 5,986 bytes against a budget of 6 KB, growthdeck-inapp.js 2.6 KB, growthdeck-webpush.js 1.1 KB,
 * growthdeck-sw.js 1.1 KB).
 */
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const outputs = [
  { input: 'src/index.ts', output: { file: here('dist/growthdeck.js'), format: 'iife', name: 'Growthdeck' } },
  { input: 'src/index.ts', output: { file: here('dist/growthdeck.mjs'), format: 'es' } },
  // The web push service worker, imported by the customer's one-line worker (src/sw.ts).
  { input: 'src/sw.ts', output: { file: here('dist/growthdeck-sw.js'), format: 'iife' } },
  // The in-app renderer, loaded by the tracker only when a page has a message to show (src/inapp/index.ts).
  { input: 'src/inapp/renderEntry.ts', output: { file: here('dist/growthdeck-inapp.js'), format: 'iife' } },
  // Web push, loaded by the tracker's enableWebPush / disableWebPush (src/push.ts).
  { input: 'src/webPushEntry.ts', output: { file: here('dist/growthdeck-webpush.js'), format: 'iife' } },
] as const;

for (const { input, output } of outputs) {
  // The scripts a page loads keep no comments (annotations only matter to a bundler reading the .mjs).
  await build({ input: here(input), platform: 'browser', logLevel: 'warn', output: { ...output, minify: true, ...(output.format === 'iife' ? { comments: false } : {}) } });
  const code = readFileSync(output.file);
  console.log(`${output.file}: ${code.length} bytes minified, ${gzipSync(code, { level: 9 }).length} bytes gzipped`);
}
