/**
 * Push credentials of an app (/user/app, "Push notifications"): the APNs token key (.p8) and the
 * FCM service account the send pipeline signs with (issue 13; api-server
 * features/delivery/push/credentials.ts stores them, migration 019).
 *
 * - The private key is write-only: answers carry the settings that are not secret and when they
 *   last changed, never the key.
 * - `ApnsSettings` / `FcmSettings` are what is stored. Their `endpoint` (a test server, a proxy
 *   the operator runs) is set only by the server's own code, never through the API: the request
 *   schemas below have no such field, so a person picks production or sandbox and FCM's real host.
 * - Updating APNs without a key keeps the stored one only when nothing but the environment
 *   changed (the same key signs for both); a new key id, team or bundle needs its key.
 */
import { z } from 'zod';

export const PushProvider = z.enum(['apns', 'fcm']);
export type PushProvider = z.infer<typeof PushProvider>;

export const ApnsEnvironment = z.enum(['production', 'sandbox']);
export type ApnsEnvironment = z.infer<typeof ApnsEnvironment>;

/** Google's OAuth token endpoint, where a service account trades its signed JWT for an access token. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

const httpsUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'an http(s) address');

/** APNs settings as stored. */
export const ApnsSettings = z.object({
  keyId: z.string().regex(/^[A-Za-z0-9]{1,64}$/),
  teamId: z.string().regex(/^[A-Za-z0-9]{1,64}$/),
  bundleId: z.string().min(1).max(255),
  environment: ApnsEnvironment,
  /** Overrides the environment's address (a test server, a proxy the operator runs). Never set through the API. */
  endpoint: httpsUrl.optional(),
});
export type ApnsSettings = z.infer<typeof ApnsSettings>;

/** FCM settings as stored. */
export const FcmSettings = z.object({
  projectId: z.string().min(1).max(255),
  clientEmail: z.string().email(),
  tokenUri: httpsUrl.default(GOOGLE_TOKEN_URI),
  /** Overrides FCM's address (a test server). Never set through the API. */
  endpoint: httpsUrl.optional(),
});
export type FcmSettings = z.infer<typeof FcmSettings>;

/** Apple's key and team ids: ten letters and digits. */
const APPLE_ID = /^[A-Z0-9]{10}$/;
/** A bundle id: reverse-DNS letters, digits, hyphens and dots. */
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
/** Larger than any real .p8 (about 250 characters) or service-account file (about 2,400). */
export const PUSH_KEY_MAX = 16_000;

/** PUT /apps/:appId/push-credentials/apns. */
export const ApnsCredentialsInput = z.object({
  keyId: z.string().trim().toUpperCase().regex(APPLE_ID, 'Ten letters and digits'),
  teamId: z.string().trim().toUpperCase().regex(APPLE_ID, 'Ten letters and digits'),
  bundleId: z.string().trim().min(1, 'Required').max(255).regex(BUNDLE_ID, 'A bundle id such as com.example.app'),
  environment: ApnsEnvironment,
  /** The .p8 file's contents (PEM). Absent: keep the stored key, allowed only when nothing but the environment changes. */
  privateKeyPem: z.string().trim().min(1, 'Required').max(PUSH_KEY_MAX).optional(),
});
export type ApnsCredentialsInput = z.infer<typeof ApnsCredentialsInput>;

/** PUT /apps/:appId/push-credentials/fcm: the service-account JSON file as downloaded from the Firebase console. */
export const FcmCredentialsInput = z.object({
  serviceAccount: z.string().trim().min(1, 'Required').max(PUSH_KEY_MAX),
});
export type FcmCredentialsInput = z.infer<typeof FcmCredentialsInput>;

/** What an answer shows of a provider's credentials: the settings that are not secret, never the key. */
export const PushCredential = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('apns'),
    settings: z.object({ keyId: z.string(), teamId: z.string(), bundleId: z.string(), environment: ApnsEnvironment, endpoint: z.string().optional() }),
    /** Sends a second through this provider at most (null: no limit); see PushRateLimitInput. */
    ratePerSecond: z.number().int().nullable(),
    updatedAt: z.string(),
  }),
  z.object({
    provider: z.literal('fcm'),
    settings: z.object({ projectId: z.string(), clientEmail: z.string(), endpoint: z.string().optional() }),
    ratePerSecond: z.number().int().nullable(),
    updatedAt: z.string(),
  }),
]);
export type PushCredential = z.infer<typeof PushCredential>;

/** A provider's sending limit: notifications a second from every worker together (a plan's quota, a proxy's limit); null: none. */
export const PushRateLimitInput = z.object({ ratePerSecond: z.number().int().min(1).max(100_000).nullable() });
export type PushRateLimitInput = z.infer<typeof PushRateLimitInput>;

/** Why a save was refused, per field (`FieldIssue.message`), for the screen to say in the person's language. */
export const PushCredentialIssue = z.enum([
  /** The key is not a PEM private key of the kind the provider signs with (APNs: EC P-256; FCM: RSA). */
  'invalid_key',
  /** No key sent, and there is no stored key to keep, or more than the environment changed. */
  'key_required',
  /** The text is not a Google service-account JSON file (project_id, client_email, private_key). */
  'not_service_account',
  /** The service account's token_uri is not Google's. */
  'token_uri',
  /** A setting inside the service account is not valid (client_email not an address...). */
  'invalid_settings',
]);
export type PushCredentialIssue = z.infer<typeof PushCredentialIssue>;

/** The fields of a Google service-account file the credentials are made of. */
export const SERVICE_ACCOUNT_FIELDS = ['project_id', 'client_email', 'private_key'] as const;

/**
 * What keeps a text from being a service-account file: 'not_json', the fields it lacks, or null
 * when it has them all (the API then checks the key itself). The screen says it before sending;
 * the API names the same fields when it refuses.
 */
export function serviceAccountProblem(text: string): 'not_json' | (typeof SERVICE_ACCOUNT_FIELDS)[number][] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not_json';
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [...SERVICE_ACCOUNT_FIELDS];
  const missing = SERVICE_ACCOUNT_FIELDS.filter((f) => typeof (parsed as Record<string, unknown>)[f] !== 'string');
  return missing.length ? missing : null;
}
