/**
 * The tracker's message calls: `inApp()` (fetch what is on offer and show it), `nativeAds()`,
 * `redeem()`. The renderer is its own script (dist/growthdeck-inapp.js, from renderEntry.ts),
 * loaded from beside the SDK the first time a page has something to show (load.ts): pages that
 * never show an in-app message do not download it, and the tracker itself stays small
 * (sdk-web/CONTEXT.md).
 */
import type { InteractionChannel, InteractionKind, InteractionRefs, NativeAdView } from '../types.ts';
import { uuid } from '../device.ts';
import { loadScript, sdkUrlOf } from '../load.ts';
import { fetchInApp, fetchNativeAds, redeem, type SdkCalls } from './client.ts';
import { safeUrl, type InAppMessage } from './model.ts';
import type { createRenderer, Renderer } from './render.ts';

export interface MessagesContext {
  calls: SdkCalls;
  deviceId: string;
  flush(): Promise<void>;
  interaction(channel: InteractionChannel, kind: InteractionKind, refs: InteractionRefs): void;
  leaving(): void;
  doc: Document | null;
  /** The tracker's storage, under its app key's prefix ('' is no value): a redemption's client id waits there. */
  store: { get(key: string): string | null; set(key: string, value: string): void };
  /** Where the renderer script is (default: /sdk/growthdeck-inapp.js beside the API's base). */
  rendererUrl?: string | undefined;
}

type RendererModule = { createRenderer: typeof createRenderer };
declare global { var GrowthdeckInApp: RendererModule | undefined }

/** The renderer's URL beside the API: `https://host/api` → `https://host/sdk/growthdeck-inapp.js`. */
export const rendererUrlOf = (base: string): string => sdkUrlOf(base, 'growthdeck-inapp.js');

const refsOf = (m: { messageId: string; variantId: string; campaignId: string }): InteractionRefs =>
  ({ messageId: m.messageId, variantId: m.variantId, campaignId: m.campaignId });

/** The message calls, and `close()` for the tracker's shutdown (removes what is shown; nothing shows after). */
export function messagesApi(ctx: MessagesContext) {
  let renderer: Renderer | null = null;
  let closed = false;
  /**
   * A redemption keeps one client id until the API has answered OK for it, stored per message and
   * variant: a retry (a lost answer, a second tap, a reload) is counted once by the API. After an
   * OK answer the next call is a new redemption (a coupon may allow several).
   */
  async function redeemOf(messageId: string, variantId?: string, clientId?: string): Promise<Record<string, unknown> | null> {
    const key = `redeem:${messageId}:${variantId ?? ''}`;
    const id = clientId ?? ctx.store.get(key) ?? uuid();
    if (!clientId) ctx.store.set(key, id);
    const answer = await redeem(ctx.calls, ctx.deviceId, messageId, variantId, id);
    if (answer && !clientId) ctx.store.set(key, '');
    return answer;
  }
  const api = {
    async inApp(options: { lang?: string; show?: boolean } = {}): Promise<InAppMessage[]> {
      // A first visit's device and person reach the API before it is asked about them.
      await ctx.flush();
      const lang = options.lang ?? (typeof navigator === 'undefined' ? undefined : navigator.language);
      const answer = await fetchInApp(ctx.calls, ctx.deviceId, lang);
      if (!answer) return [];
      if (options.show !== false && ctx.doc && answer.messages.length && !closed) {
        const module = await loadScript<RendererModule>(ctx.doc, ctx.rendererUrl ?? rendererUrlOf(ctx.calls.base), 'GrowthdeckInApp').catch(() => null);
        if (!module || closed) return answer.messages;
        renderer ??= module.createRenderer(ctx.doc, {
          interaction: (kind, m) => ctx.interaction('inapp', kind, refsOf(m)),
          redeem: async (m) => (await redeemOf(m.messageId, m.variantId)) !== null,
          leaving: () => ctx.leaving(),
        });
        renderer.show(answer.messages, answer.plugin);
      }
      return answer.messages;
    },
    async nativeAds(placement: string, options: { lang?: string; limit?: number } = {}): Promise<NativeAdView[]> {
      await ctx.flush();
      const ads = await fetchNativeAds(ctx.calls, ctx.deviceId, placement, options);
      return ads.map((ad) => {
        const clickUrl = safeUrl(ad.clickUrl);
        let seen = false;
        return {
          ...ad,
          clickUrl: clickUrl ?? '',
          impression: () => {
            if (seen) return;
            seen = true;
            ctx.interaction('native', 'impression', refsOf(ad));
          },
          click: () => {
            ctx.interaction('native', 'click', refsOf(ad));
            return clickUrl;
          },
        };
      });
    },
    redeem: redeemOf,
  };
  return {
    api,
    close() {
      closed = true;
      renderer?.clear();
      renderer = null;
    },
  };
}
