/**
 * Web push as a script of its own (dist/growthdeck-webpush.js): loaded by the tracker the first
 * time a page calls `enableWebPush` or `disableWebPush` (push.ts), it hands the module over through
 * `window.GrowthdeckWebPush`. Only sites that offer web push download it.
 */
import { disableWebPush, enableWebPush } from './webPush.ts';

globalThis.GrowthdeckWebPush = { enableWebPush, disableWebPush };
