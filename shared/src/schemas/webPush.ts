/**
 * Web push (issue 13): an app's VAPID key pair and the push subscriptions the web SDK registers
 * (api-server features/delivery/push/webPush.ts; migration 025).
 *
 * - VAPID (RFC 8292): the server makes the key pair when web push is enabled for the app; the
 *   public key is shown and answered to the SDK, the private key never leaves the server. The
 *   subject is the contact push services see: a mailto: address or an https: URL.
 * - A subscription (the browser's `PushSubscription.toJSON()`): an https endpoint on a public host
 *   (SPEC.md 5: no private addresses; a test server may allow a loopback push service), its
 *   receiver key p256dh (an uncompressed P-256 point, 65 bytes) and auth secret (16 bytes), both
 *   base64url (RFC 8291).
 */
import { z } from 'zod';
import { DeviceContext } from './ingest.ts';

/** base64url without padding, as browsers and RFC 8291 write keys. */
const base64url = (bytes: number) => z.string().trim().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url')
  .refine((s) => Math.floor((s.replace(/=+$/, '').length * 3) / 4) === bytes, `${bytes} bytes in base64url`);

/** mailto:someone@host or an https: URL. */
export const VapidSubject = z.string().trim().max(255).refine((s) => {
  if (/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) return true;
  try {
    const url = new URL(s);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}, 'A mailto: address or an https: URL');
export type VapidSubject = z.infer<typeof VapidSubject>;

/** PUT /apps/:appId/web-push: enable (making the key pair) or change the subject. */
export const WebPushSettingsInput = z.object({ subject: VapidSubject });
export type WebPushSettingsInput = z.infer<typeof WebPushSettingsInput>;

/** What a screen sees of an app's web push: the public key and subject, never the private key. */
export const WebPushSettings = z.object({
  publicKey: z.string(),
  subject: z.string(),
  updatedAt: z.string(),
});
export type WebPushSettings = z.infer<typeof WebPushSettings>;

/** The longest subscription endpoint taken (browsers' are about 200 to 500 characters). */
export const WEB_PUSH_ENDPOINT_MAX = 2048;

export const PushSubscriptionInput = z.object({
  endpoint: z.string().trim().min(1).max(WEB_PUSH_ENDPOINT_MAX),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** POST /ingest/v1/web-push/subscribe (app key): this device's subscription. */
export const WebPushSubscribeRequest = z.object({ device: DeviceContext, subscription: PushSubscriptionInput });
export type WebPushSubscribeRequest = z.infer<typeof WebPushSubscribeRequest>;

/** POST /ingest/v1/web-push/unsubscribe (app key): the device's subscription ends (its endpoint, when known). */
export const WebPushUnsubscribeRequest = z.object({ device: DeviceContext.pick({ id: true }), endpoint: z.string().max(WEB_PUSH_ENDPOINT_MAX).optional() });
export type WebPushUnsubscribeRequest = z.infer<typeof WebPushUnsubscribeRequest>;

/**
 * What the service worker receives (the encrypted payload's JSON): what to show and which message
 * and variant it is, which the worker reports back with its impression, open and click.
 */
export const WebPushPayload = z.object({
  title: z.string(),
  body: z.string().optional(),
  icon: z.string().optional(),
  image: z.string().optional(),
  url: z.string().optional(),
  messageId: z.string(),
  variantId: z.string(),
  campaignId: z.string().optional(),
  /** A test send (to the app's test devices). */
  test: z.boolean().optional(),
});
export type WebPushPayload = z.infer<typeof WebPushPayload>;
