/**
 * The SDK's scripts loaded on demand (sdk-web/CONTEXT.md): the in-app renderer
 * (dist/growthdeck-inapp.js) and web push (dist/growthdeck-webpush.js) are scripts of their own,
 * served beside the SDK, that the tracker adds to the page the first time it needs them. Each
 * hands its module over through a global (`window.GrowthdeckInApp`, `window.GrowthdeckWebPush`).
 */

/** A script's URL beside the API: `https://host/api` → `https://host/sdk/<file>`. */
export const sdkUrlOf = (base: string, file: string): string => new URL(`../sdk/${file}`, base.endsWith('/') ? base : `${base}/`).href;

const loading = new Map<string, Promise<unknown>>();

/** Loads a script once per page and answers the module it set on `globalThis[name]` (a failed load may be tried again). */
export function loadScript<T>(doc: Document, url: string, name: 'GrowthdeckInApp' | 'GrowthdeckWebPush'): Promise<T> {
  const found = (): T | undefined => (globalThis as Record<string, unknown>)[name] as T | undefined;
  const ready = found();
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(name);
  if (!pending) {
    pending = new Promise<T>((resolve, reject) => {
      const script = doc.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => {
        const module = found();
        if (module) resolve(module);
        else reject(new Error(`${name} missing`));
      };
      script.onerror = () => reject(new Error(`could not load ${url}`));
      doc.head.appendChild(script);
    }).catch((error: unknown) => {
      loading.delete(name);
      throw error;
    });
    loading.set(name, pending);
  }
  return pending as Promise<T>;
}
