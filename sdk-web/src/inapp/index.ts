/**
 * The tracker's message calls: `inApp()` (fetch what is on offer and show it), `nativeAds()`,
 * `redeem()`. The renderer is its own script (dist/growthdeck-inapp.js, from renderEntry.ts),
 * loaded from beside the SDK the first time a page has something to show: pages that never show
 * an in-app message do not download it, and the tracker itself stays small (sdk-web/CONTEXT.md).
 */
import type { InteractionChannel, InteractionKind, InteractionRefs, NativeAdView } from '../types.ts';
import { uuid } from '../device.ts';
import { fetchInApp, fetchNativeAds, redeem, type SdkCalls } from './client.ts';
import type { InAppMessage } from './model.ts';
import type { createRenderer, Renderer } from './render.ts';

export interface MessagesContext {
  calls: SdkCalls;
  deviceId: string;
  flush(): Promise<void>;
  interaction(channel: InteractionChannel, kind: InteractionKind, refs: InteractionRefs): void;
  leaving(): void;
  doc: Document | null;
  /** Where the renderer script is (default: /sdk/growthdeck-inapp.js beside the API's base). */
  rendererUrl?: string | undefined;
}

type RendererModule = { createRenderer: typeof createRenderer };
declare global { var GrowthdeckInApp: RendererModule | undefined }

/** The renderer's URL beside the API: `https://host/api` → `https://host/sdk/growthdeck-inapp.js`. */
export const rendererUrlOf = (base: string): string => new URL('../sdk/growthdeck-inapp.js', base.endsWith('/') ? base : `${base}/`).href;

let loading: Promise<RendererModule> | null = null;
/** Loads the renderer script once per page (a failed load may be tried again on the next call). */
function loadRenderer(doc: Document, url: string): Promise<RendererModule> {
  if (globalThis.GrowthdeckInApp) return Promise.resolve(globalThis.GrowthdeckInApp);
  loading ??= new Promise<RendererModule>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => (globalThis.GrowthdeckInApp ? resolve(globalThis.GrowthdeckInApp) : reject(new Error('renderer missing')));
    script.onerror = () => reject(new Error(`could not load ${url}`));
    doc.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

const refsOf = (m: { messageId: string; variantId: string; campaignId: string }): InteractionRefs =>
  ({ messageId: m.messageId, variantId: m.variantId, campaignId: m.campaignId });

export function messagesApi(ctx: MessagesContext) {
  let renderer: Renderer | null = null;
  const redeemOf = (messageId: string, variantId?: string) => redeem(ctx.calls, ctx.deviceId, messageId, variantId, uuid());
  return {
    async inApp(options: { lang?: string; show?: boolean } = {}): Promise<InAppMessage[]> {
      // A first visit's device and person reach the API before it is asked about them.
      await ctx.flush();
      const lang = options.lang ?? (typeof navigator === 'undefined' ? undefined : navigator.language);
      const answer = await fetchInApp(ctx.calls, ctx.deviceId, lang);
      if (!answer) return [];
      if (options.show !== false && ctx.doc && answer.messages.length) {
        const module = await loadRenderer(ctx.doc, ctx.rendererUrl ?? rendererUrlOf(ctx.calls.base)).catch(() => null);
        if (!module) return answer.messages;
        renderer ??= module.createRenderer(ctx.doc, {
          interaction: (kind, m) => ctx.interaction('inapp', kind, refsOf(m)),
          redeem: (m) => void redeemOf(m.messageId, m.variantId),
          leaving: () => ctx.leaving(),
        });
        renderer.show(answer.messages, answer.plugin);
      }
      return answer.messages;
    },
    async nativeAds(placement: string, options: { lang?: string; limit?: number } = {}): Promise<NativeAdView[]> {
      await ctx.flush();
      const ads = await fetchNativeAds(ctx.calls, ctx.deviceId, placement, options);
      return ads.map((ad) => ({
        ...ad,
        impression: () => ctx.interaction('native', 'impression', refsOf(ad)),
        click: () => {
          ctx.interaction('native', 'click', refsOf(ad));
          return ad.clickUrl;
        },
      }));
    },
    redeem: redeemOf,
  };
}
