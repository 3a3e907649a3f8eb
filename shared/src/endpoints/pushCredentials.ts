/**
 * Push credentials of an app (schemas/pushCredentials.ts): the APNs token key and the FCM service
 * account the send pipeline uses. Reading needs what reads the app settings screen
 * (`route:/user/app`); setting, replacing and deleting need the app edit permission
 * (`ui:app.edit`), as for the app's other settings. The key is never answered.
 *
 * Failures: 10001 with `details` naming the field (`privateKeyPem`: invalid_key or key_required;
 * `serviceAccount`: not_service_account, token_uri, invalid_key or invalid_settings); 10 when the
 * provider to delete has no credentials (or is not a provider).
 */
import { z } from 'zod';
import { ApnsCredentialsInput, FcmCredentialsInput, PushCredential, PushRateLimitInput } from '../schemas/pushCredentials.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/user/app' as const;
const EDIT = 'ui:app.edit' as const;

export const pushCredentialEndpoints = {
  listPushCredentials: ep({ method: 'GET', path: '/apps/:appId/push-credentials', summary: "The app's push credentials per provider (APNs, FCM): the settings that are not secret and when they last changed; the key is never answered", auth: VIEW, response: { credentials: z.array(PushCredential) } }),
  putApnsCredentials: ep({
    method: 'PUT', path: '/apps/:appId/push-credentials/apns', auth: EDIT, request: ApnsCredentialsInput, response: { credential: PushCredential },
    summary: 'Set or replace the APNs token key (.p8) with its key id, team id, bundle id and environment. Without privateKeyPem the stored key stays, only when nothing but the environment changes (otherwise 10001 key_required)',
  }),
  putFcmCredentials: ep({
    method: 'PUT', path: '/apps/:appId/push-credentials/fcm', auth: EDIT, request: FcmCredentialsInput, response: { credential: PushCredential },
    summary: "Set or replace the FCM credentials from a Google service-account JSON file (its project, client e-mail and private key); not a service account: 10001 on serviceAccount",
  }),
  setPushRateLimit: ep({
    method: 'PUT', path: '/apps/:appId/push-credentials/:provider/rate', auth: EDIT, request: PushRateLimitInput, response: { credential: PushCredential },
    summary: 'Set (or clear, with null) the sending limit of one provider\'s credentials: notifications a second, shared by every delivery worker; 10 when the provider has no credentials',
  }),
  deletePushCredentials: ep({ method: 'DELETE', path: '/apps/:appId/push-credentials/:provider', summary: 'Delete the credentials of one provider (apns or fcm): the app then sends no push through it', auth: EDIT, response: none }),
} as const;
