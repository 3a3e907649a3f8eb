/**
 * The push credentials dialogs' values, checks and bodies (PushCredentialsCard.tsx), pure so they
 * are tested. The APNs key field starts empty when replacing: empty sends no key, which the API
 * accepts (keeping the stored key) only when nothing but the environment changed; the form says
 * so before sending. Both checks use the shared request schemas (schemas/pushCredentials.ts).
 */
import {
  ApnsCredentialsInput, FcmCredentialsInput, serviceAccountProblem, type ApnsEnvironment, type PushCredential, type PushCredentialIssue,
} from '@gd/shared/schemas/pushCredentials';
import type { TFunction } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export type ApnsCredential = Extract<PushCredential, { provider: 'apns' }>;

export interface ApnsFormValues { keyId: string; teamId: string; bundleId: string; environment: ApnsEnvironment; privateKeyPem: string }
export interface FcmFormValues { serviceAccount: string }

export const APNS_FIELDS = ['keyId', 'teamId', 'bundleId', 'environment', 'privateKeyPem'] as const;
export const FCM_FIELDS = ['serviceAccount'] as const;
const ISSUES = new Set<string>(['invalid_key', 'key_required', 'not_service_account', 'token_uri', 'invalid_settings'] satisfies PushCredentialIssue[]);

/** The dialog's first values: the stored settings (key empty), or the app's bundle id and production. */
export function initialApnsValues(current: ApnsCredential | undefined, appBundleId: string | null): ApnsFormValues {
  return current
    ? { keyId: current.settings.keyId, teamId: current.settings.teamId, bundleId: current.settings.bundleId, environment: current.settings.environment, privateKeyPem: '' }
    : { keyId: '', teamId: '', bundleId: appBundleId ?? '', environment: 'production', privateKeyPem: '' };
}

/** Whether the key must be sent: nothing stored, or the key id, team or bundle changed (the environment alone keeps it). */
export function apnsKeyNeeded(values: ApnsFormValues, current: ApnsCredential | undefined): boolean {
  if (!current) return true;
  const id = (s: string) => s.trim().toUpperCase();
  return id(values.keyId) !== current.settings.keyId || id(values.teamId) !== current.settings.teamId || values.bundleId.trim() !== current.settings.bundleId;
}

/** The request body: an empty key field sends no key. */
export function apnsBody(values: ApnsFormValues): ApnsCredentialsInput {
  const key = values.privateKeyPem.trim();
  return {
    keyId: values.keyId.trim().toUpperCase(),
    teamId: values.teamId.trim().toUpperCase(),
    bundleId: values.bundleId.trim(),
    environment: values.environment,
    ...(key ? { privateKeyPem: key } : {}),
  };
}

/** Field errors of the APNs form (empty when it may be sent). */
export function validateApns(values: ApnsFormValues, t: TFunction, current: ApnsCredential | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  const parsed = ApnsCredentialsInput.safeParse(apnsBody(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (field in errors || !(APNS_FIELDS as readonly string[]).includes(field)) continue;
      const empty = typeof values[field as keyof ApnsFormValues] === 'string' && values[field as keyof ApnsFormValues].trim() === '';
      errors[field] = empty ? t('validation.required')
        : field === 'keyId' || field === 'teamId' ? t('pushCredentials.appleId')
        : field === 'bundleId' && issue.code === 'invalid_format' ? t('pushCredentials.bundleIdFormat')
        : validationText(issue as Parameters<typeof validationText>[0], t);
    }
  }
  if (!errors.privateKeyPem && values.privateKeyPem.trim() === '' && apnsKeyNeeded(values, current)) {
    errors.privateKeyPem = current ? t('pushCredentials.keyRequiredAgain') : t('validation.required');
  }
  return errors;
}

export function fcmBody(values: FcmFormValues): FcmCredentialsInput {
  return { serviceAccount: values.serviceAccount.trim() };
}

/** Field errors of the FCM form: required, and a service-account file (the API checks the key itself). */
export function validateFcm(values: FcmFormValues, t: TFunction): Record<string, string> {
  const body = fcmBody(values);
  const parsed = FcmCredentialsInput.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { serviceAccount: body.serviceAccount === '' || !issue ? t('validation.required') : validationText(issue as Parameters<typeof validationText>[0], t) };
  }
  return serviceAccountProblem(body.serviceAccount) === null ? {} : { serviceAccount: t('pushCredentials.issue.not_service_account') };
}

/** A refused save as field errors (the route's reasons in the person's language) and a form error. */
export function pushFailure(error: unknown, t: TFunction, fields: readonly string[]): { fieldErrors: Record<string, string>; formError: unknown } {
  return splitFailure(error, t, fields, (message) => (ISSUES.has(message) ? t(`pushCredentials.issue.${message as PushCredentialIssue}`) : undefined));
}
