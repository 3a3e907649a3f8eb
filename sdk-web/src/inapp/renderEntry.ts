/**
 * The in-app renderer as a script of its own (dist/growthdeck-inapp.js): loaded by the tracker
 * the first time a page has an in-app message to show (index.ts `loadRenderer`), it hands the
 * renderer over through `window.GrowthdeckInApp`.
 */
import { createRenderer } from './render.ts';

globalThis.GrowthdeckInApp = { createRenderer };
