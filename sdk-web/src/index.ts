/**
 * @gd/sdk-web: track events from a web page (or Node) into Growthdeck's ingestion API.
 * The browser bundle (dist/growthdeck.js) exposes these exports as `window.Growthdeck`.
 */
export { createTracker } from './tracker.ts';
export { memoryStorage, type KeyValueStorage, type MemoryStorage } from './storage.ts';
export { SDK_VERSION } from './device.ts';
export type * from './types.ts';
export type { WebPushOptions, WebPushResult } from './webPush.ts';
