/**
 * Web push (schemas/webPush.ts). For the app settings screen: read needs `route:/user/app`;
 * enable, change the subject, rotate and disable need `ui:app.edit`, as the app's other push
 * credentials. For the web SDK (the app key in X-App-Key, CORS open like ingestion): the app's
 * VAPID public key, and a device's subscription and its end.
 *
 * Failures: 10 when the app has no web push (key, rotate); 10001 naming `subscription.endpoint`
 * when the endpoint is not an https address on a public host (or a test's allowed push service).
 */
import { z } from 'zod';
import { WebPushSettings, WebPushSettingsInput, WebPushSubscribeRequest, WebPushUnsubscribeRequest } from '../schemas/webPush.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/user/app' as const;
const EDIT = 'ui:app.edit' as const;

export const webPushEndpoints = {
  getWebPush: ep({ method: 'GET', path: '/apps/:appId/web-push', summary: "The app's web push: its VAPID public key and subject (null when web push is off); the private key is never answered", auth: VIEW, response: { webPush: WebPushSettings.nullable() } }),
  putWebPush: ep({ method: 'PUT', path: '/apps/:appId/web-push', summary: 'Enable web push (the server makes the VAPID key pair) or change its subject', auth: EDIT, request: WebPushSettingsInput, response: { webPush: WebPushSettings } }),
  rotateWebPush: ep({ method: 'POST', path: '/apps/:appId/web-push/rotate', summary: 'A new VAPID key pair: subscriptions made with the old public key stop working and browsers subscribe again', auth: EDIT, response: { webPush: WebPushSettings } }),
  deleteWebPush: ep({ method: 'DELETE', path: '/apps/:appId/web-push', summary: 'Disable web push: the key pair is deleted and no web push goes out', auth: EDIT, response: none }),
  webPushKey: ep({ method: 'GET', path: '/ingest/v1/web-push/key', summary: "The app's VAPID public key the browser subscribes with (10 when web push is off)", auth: 'appKey', response: { publicKey: z.string() } }),
  webPushSubscribe: ep({ method: 'POST', path: '/ingest/v1/web-push/subscribe', summary: "Store the browser's push subscription as its device's push address", auth: 'appKey', request: WebPushSubscribeRequest, response: { personId: z.string() } }),
  webPushUnsubscribe: ep({ method: 'POST', path: '/ingest/v1/web-push/unsubscribe', summary: "Remove the device's push subscription", auth: 'appKey', request: WebPushUnsubscribeRequest, response: { removed: z.boolean() } }),
} as const;
