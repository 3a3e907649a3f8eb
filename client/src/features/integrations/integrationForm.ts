/**
 * The integration dialog's values, the fields each service shows, its checks and its body; pure
 * so they are tested. One flat set of values for every service (switching the service keeps what
 * was typed); the body sends only the chosen service's settings and the secrets typed (an empty
 * secret field when editing keeps the stored one).
 */
import { ErrorCode } from '@gd/shared/errors';
import { INTEGRATION_SERVICES, servicesOfKind, type IntegrationAuth, type IntegrationKind, type IntegrationService } from '@gd/shared/integrations/model';
import { IntegrationInput, REQUIRED_SECRETS, type Integration } from '@gd/shared/schemas/integrations';
import { ApiError } from '../../api/errors.ts';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export const CONFIG_TEXT = ['baseUrl', 'authorizeUrl', 'tokenUrl', 'clientId', 'adAccountId', 'techId', 'imsOrgId', 'imsHost', 'region', 'advertiserId', 'endpoint', 'bucket', 'accessKeyId'] as const;
export const CONFIG_LISTS = ['scopes', 'metaScopes', 'eventTypes'] as const;
export const SECRET_FIELDS = ['username', 'password', 'clientSecret', 'secretAccessKey'] as const;
export type ConfigText = (typeof CONFIG_TEXT)[number];
export type ConfigList = (typeof CONFIG_LISTS)[number];
export type SecretField = (typeof SECRET_FIELDS)[number];
export type Field = ConfigText | ConfigList;

export type IntegrationFormValues = { kind: IntegrationKind; service: IntegrationService; name: string }
  & Record<ConfigText, string> & Record<ConfigList, string[]> & Record<SecretField, string>;

export const authOf = (service: IntegrationService): IntegrationAuth => INTEGRATION_SERVICES[service].auth[0];

/** The settings a service asks for, in the dialog's order. */
export function serviceFields(service: IntegrationService): Field[] {
  const kind = INTEGRATION_SERVICES[service].kind;
  if (service === 's3') return ['endpoint', 'region', 'bucket', 'accessKeyId'];
  const fields: Field[] = [];
  if (authOf(service) === 'oauth2') fields.push('clientId', 'scopes');
  if (kind === 'social_ads' || kind === 'search_ads') fields.push('adAccountId');
  if (kind === 'experience_platform') fields.push('techId', 'imsOrgId', 'imsHost', 'metaScopes');
  if (kind === 'retail_dsp') fields.push('region', 'eventTypes', 'advertiserId');
  if (kind === 'trade_desk') fields.push('advertiserId');
  fields.push('baseUrl');
  if (authOf(service) === 'oauth2') fields.push('authorizeUrl', 'tokenUrl');
  return fields;
}

/** The secrets a service's sign-in takes. */
export const secretFields = (service: IntegrationService): SecretField[] => {
  const auth = authOf(service);
  return auth === 'basic' ? ['username', 'password'] : auth === 'oauth2' ? ['clientSecret'] : ['secretAccessKey'];
};

const EMPTY_TEXT = Object.fromEntries(CONFIG_TEXT.map((k) => [k, ''])) as Record<ConfigText, string>;
const EMPTY_LISTS = Object.fromEntries(CONFIG_LISTS.map((k) => [k, []])) as unknown as Record<ConfigList, string[]>;
const EMPTY_SECRETS = Object.fromEntries(SECRET_FIELDS.map((k) => [k, ''])) as Record<SecretField, string>;

export function initialValues(integration?: Integration, kind: IntegrationKind = 'social_ads'): IntegrationFormValues {
  if (!integration) {
    const service = servicesOfKind(kind)[0] ?? 'meta_ads';
    return { kind, service, name: '', ...EMPTY_TEXT, ...EMPTY_LISTS, ...EMPTY_SECRETS };
  }
  const c = integration.config;
  const text = Object.fromEntries(CONFIG_TEXT.map((k) => [k, c[k] ?? ''])) as Record<ConfigText, string>;
  const lists = Object.fromEntries(CONFIG_LISTS.map((k) => [k, c[k] ?? []])) as unknown as Record<ConfigList, string[]>;
  return { kind: integration.kind, service: integration.service, name: integration.name, ...text, ...lists, ...EMPTY_SECRETS };
}

/** The request body: the service's settings (empty optional ones left out) and the secrets typed. */
export function integrationBody(v: IntegrationFormValues): IntegrationInput {
  const config: Record<string, unknown> = {};
  for (const f of serviceFields(v.service)) {
    const value = v[f];
    if (Array.isArray(value)) config[f] = value.map((s) => s.trim()).filter(Boolean);
    else if (value.trim() !== '') config[f] = value.trim();
  }
  const secrets: Record<string, string> = {};
  for (const f of secretFields(v.service)) if (v[f] !== '') secrets[f] = f === 'username' ? v[f].trim() : v[f];
  return { name: v.name.trim(), service: v.service, config, secrets } as IntegrationInput;
}

/** The form field a schema or server path names (`config.clientId` → clientId). */
export const fieldOf = (path: string) => path.replace(/^(config|secrets)\./, '').split('.')[0] ?? path;

/** Field errors of the form (empty when it may be sent). */
export function validateIntegration(v: IntegrationFormValues, t: TFunction, existing?: Integration): Record<string, string> {
  const errors: Record<string, string> = {};
  const body = integrationBody(v);
  const parsed = IntegrationInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String).join('.'));
      if (field in errors) continue;
      const emptyList = issue.code === 'too_small' && (issue as { origin?: string }).origin === 'array';
      errors[field] = emptyList ? t('validation.required') : validationText(issue as Parameters<typeof validationText>[0], t);
    }
  }
  const stored = new Set(existing?.service === v.service ? existing.secretsSet : []);
  for (const s of REQUIRED_SECRETS[authOf(v.service)]) {
    if (!(s in errors) && !stored.has(s) && !(body.secrets as Record<string, string>)[s]) errors[s] = t('validation.required');
  }
  return errors;
}

/** Whether saving drops the OAuth 2 tokens (the client or its endpoints or scopes changed). */
export function dropsTokens(v: IntegrationFormValues, existing?: Integration): boolean {
  if (!existing || authOf(existing.service) !== 'oauth2' || !existing.secretsSet.includes('accessToken')) return false;
  const c = existing.config;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const body = integrationBody(v).config as Record<string, unknown>;
  return !(['clientId', 'authorizeUrl', 'tokenUrl', 'scopes'] as const).every((k) => same(body[k] ?? (k === 'scopes' ? [] : undefined), c[k] ?? (k === 'scopes' ? [] : undefined)));
}

const FIELDS = ['name', 'service', ...CONFIG_TEXT, ...CONFIG_LISTS, ...SECRET_FIELDS];
const ISSUES = new Set(['private_address', 'host_not_found', 'secret_required']);

/** A refused save as field errors and a form error: a name taken (30) on the name, address and secret reasons on their fields. */
export function integrationFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  if (error instanceof ApiError && error.code === ErrorCode.NAME_DUPLICATED) return { fieldErrors: { name: t('integrations.nameTaken') }, formError: null };
  const mapped = error instanceof ApiError ? new ApiError(error.code, error.message, error.details.map((d) => ({ ...d, path: fieldOf(d.path) }))) : error;
  return splitFailure(mapped, t, FIELDS, (message) => (ISSUES.has(message) ? t(`integrations.issue.${message}` as TKey) : undefined));
}
