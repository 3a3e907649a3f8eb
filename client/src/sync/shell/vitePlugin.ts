/**
 * Writes the service worker `sw.js` at the root of the build (production builds only). Why a build
 * step rather than a hand-written `public/sw.js`: the worker needs this build's file names (from
 * the Vite manifest) and its build hash, and its rules are TypeScript shared with their unit tests
 * (shellCache.ts). The worker (worker.ts) is emitted as an extra chunk of the same build under the
 * fixed name `sw.js`, so it is bundled and minified like the app; once the files are written, its
 * first line is added: `self.__GD_SHELL__ = { version, urls }`. A service worker registered as a
 * classic script cannot import, so the chunk must be self-contained: the build fails otherwise.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { precacheUrls, type ManifestChunk } from './shellCache.ts';

export const SW_FILE = 'sw.js';
const WORKER_ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** The files of the public folder (copied as they are into the build), as paths under it. */
function listFiles(dir: string, base = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${base}${entry.name}/`) : [`${base}${entry.name}`],
  );
}

export function shellServiceWorker(buildHash: string): Plugin {
  let outDir = '';
  let publicDir = '';
  let manifestFile = '';
  return {
    name: 'gd-shell-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
      const manifest = config.build.manifest;
      if (!manifest) throw new Error('The service worker needs build.manifest');
      manifestFile = path.join(outDir, typeof manifest === 'string' ? manifest : '.vite/manifest.json');
    },
    buildStart() {
      this.emitFile({ type: 'chunk', id: WORKER_ENTRY, fileName: SW_FILE });
    },
    writeBundle() {
      const file = path.join(outDir, SW_FILE);
      const code = readFileSync(file, 'utf8');
      if (/(^|[;\n}])\s*(import\s*[\w{*"'(]|export\s)/.test(code)) throw new Error(`${SW_FILE} is not self-contained (it imports or exports)`);
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk & { src?: string }>;
      // The worker's own chunk is in the manifest too; it is not part of the shell.
      const appChunks = Object.fromEntries(Object.entries(manifest).filter(([, chunk]) => chunk.file !== SW_FILE));
      const urls = precacheUrls(appChunks, listFiles(publicDir));
      const version = `${buildHash}-${createHash('sha256').update(urls.join('\n')).digest('hex').slice(0, 8)}`;
      writeFileSync(file, `self.__GD_SHELL__=${JSON.stringify({ version, urls })};\n${code}`);
    },
  };
}
