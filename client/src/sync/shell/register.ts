/**
 * Registers the app-shell service worker (`/sw.js`, see worker.ts) once the page has loaded, so it
 * never competes with the first render. Production builds only (main.tsx): the development server
 * has no `sw.js`, and a worker caching Vite's development modules would only get in the way.
 * Failures are ignored: without the worker the app works as before, only a reload offline fails.
 */
export const SERVICE_WORKER_URL = '/sw.js';

export function registerShellWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => {
    // updateViaCache 'none': the browser asks the server for a new `sw.js` on every check.
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
