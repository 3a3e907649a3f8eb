/** The device context sent with every request, and the ids the SDK generates. */
import type { DeviceContext } from '@gd/shared';

/** The SDK version reported as `sdkVersion` (SPEC.md "SDK versions: 1.0 and 2.0"). */
export const SDK_VERSION = '2.0';

/** A random UUID v4: crypto.randomUUID where available (secure contexts), else from getRandomValues. */
export function uuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The platform title of SPEC.md's app operating systems, from the browser's user agent. */
export function webOs(userAgent: string): string {
  if (/Windows Phone/i.test(userAgent)) return 'Windows Phone Web';
  if (/Android/i.test(userAgent)) return 'Android Web';
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'iOS Web';
  return 'Web';
}

/** What the SDK knows about the device by itself: the platform in a browser, its version anywhere. */
export function detectDevice(): Omit<Partial<DeviceContext>, 'id'> {
  if (typeof document === 'undefined' || typeof navigator === 'undefined') return { sdkVersion: SDK_VERSION };
  return { os: webOs(navigator.userAgent), sdkVersion: SDK_VERSION };
}

/** utm_source and utm_campaign of the page address: the acquisition source of an install. */
export function pageCampaign(): { source?: string; campaign?: string } {
  if (typeof location === 'undefined') return {};
  const params = new URLSearchParams(location.search);
  const pick = (name: string) => params.get(name)?.trim().slice(0, 128) || undefined;
  const source = pick('utm_source'), campaign = pick('utm_campaign');
  return { ...(source ? { source } : {}), ...(campaign ? { campaign } : {}) };
}
