/**
 * The SDK's message calls (/api/sdk/v1, contract in shared/src/schemas/sdkMessages.ts): in-app
 * messages on offer, native ads by placement, coupon redemptions. A failure answers null (nothing
 * to show): messages are best effort and never retried, unlike the event queue.
 */
import type { InAppMessage, NativeAd, SdkPluginLook } from '@gd/shared/schemas/sdkMessages';
import { APP_KEY_HEADER } from '../transport.ts';

export interface SdkCalls { base: string; appKey: string; fetcher: typeof fetch }

async function call(c: SdkCalls, path: string, init?: { body: unknown }): Promise<Record<string, unknown> | null> {
  try {
    const res = await c.fetcher(`${c.base}/sdk/v1/${path}`, init
      ? { method: 'POST', headers: { 'content-type': 'application/json', [APP_KEY_HEADER]: c.appKey }, body: JSON.stringify(init.body) }
      : { headers: { [APP_KEY_HEADER]: c.appKey } });
    const body = (await res.json()) as Record<string, unknown>;
    return body.status === 'OK' ? body : null;
  } catch {
    return null;
  }
}

const query = (q: Record<string, string | number | undefined>) =>
  Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');

export async function fetchInApp(c: SdkCalls, deviceId: string, lang?: string): Promise<{ messages: InAppMessage[]; plugin: SdkPluginLook } | null> {
  const body = await call(c, `in-app?${query({ deviceId, lang })}`);
  // An answer of another shape (a proxy's, another API version's) shows nothing.
  return body && Array.isArray(body.messages) && typeof body.plugin === 'object' && body.plugin
    ? { messages: body.messages as InAppMessage[], plugin: body.plugin as SdkPluginLook }
    : null;
}

export async function fetchNativeAds(c: SdkCalls, deviceId: string, placement: string, o: { lang?: string; limit?: number } = {}): Promise<NativeAd[]> {
  const ads = (await call(c, `native-ads?${query({ deviceId, placement, lang: o.lang, limit: o.limit })}`))?.ads;
  return Array.isArray(ads) ? ads as NativeAd[] : [];
}

/** Answers the redemption's outcome (null: refused or unreachable; the KO's code tells why). */
export async function redeem(c: SdkCalls, deviceId: string, messageId: string, variantId: string | undefined, clientId: string) {
  return call(c, 'redeem', { body: { device: { id: deviceId }, messageId, variantId, clientId } });
}
