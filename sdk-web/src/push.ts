/**
 * The tracker's web push calls. The work is in webPush.ts, a script of its own
 * (dist/growthdeck-webpush.js) loaded on demand from beside the SDK (load.ts); what stays here is
 * what must happen at once: the support check and the permission request, made before anything is
 * awaited, while the click that called `enableWebPush` still counts as the user's activation.
 */
import { loadScript, sdkUrlOf } from './load.ts';
import type { WebPushContext, WebPushModule, WebPushOptions, WebPushResult } from './webPush.ts';

export function webPushApi(ctx: WebPushContext, doc: Document | null, url = sdkUrlOf(ctx.base, 'growthdeck-webpush.js')) {
  const supported = doc && 'serviceWorker' in navigator;
  const module = () => loadScript<WebPushModule>(doc as Document, url, 'GrowthdeckWebPush');
  return {
    async enableWebPush(opts: WebPushOptions): Promise<WebPushResult> {
      if (!supported || typeof PushManager === 'undefined' || typeof Notification === 'undefined') return { ok: false, reason: 'unsupported' };
      try {
        if ((await Notification.requestPermission()) !== 'granted') return { ok: false, reason: 'denied' };
        return await (await module()).enableWebPush(ctx, opts);
      } catch (error) {
        return { ok: false, reason: 'failed', message: String(error) };
      }
    },
    async disableWebPush(): Promise<boolean> {
      return !!supported && (await module()).disableWebPush(ctx);
    },
  };
}
