/**
 * Vite config for the web client. `/api` and the WebSocket `/collab` are proxied to the API server
 * in development (`API_PORT`, default 4000); the production build goes to `client/dist`, which the API serves
 * with an SPA fallback. `__BUILD_HASH__` stamps the session memory (SPEC.md sections 2 and 9) and
 * versions the service worker's app-shell cache (`sw.js`, written by src/sync/shell/vitePlugin.ts).
 */
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { shellServiceWorker } from './src/sync/shell/vitePlugin.ts';

function buildHash(): string {
  if (process.env.BUILD_HASH) return process.env.BUILD_HASH;
  try {
    const commit = execSync('git rev-parse --short=12 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    if (commit) return commit;
  } catch {
    // Not a git checkout: fall back to a hash of the build time.
  }
  return createHash('sha256').update(String(Date.now())).digest('hex').slice(0, 12);
}

const apiPort = process.env.API_PORT ?? '4000';
/** The API, and the sync server's WebSocket at /collab (the API process serves both). */
const proxy = {
  '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
  '/collab': { target: `ws://127.0.0.1:${apiPort}`, ws: true, changeOrigin: false },
};

const BUILD_HASH = buildHash();

export default defineConfig({
  plugins: [react(), shellServiceWorker(BUILD_HASH)],
  define: { __BUILD_HASH__: JSON.stringify(BUILD_HASH) },
  server: { port: 5173, proxy },
  preview: { proxy },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, manifest: true, chunkSizeWarningLimit: 600 },
});
