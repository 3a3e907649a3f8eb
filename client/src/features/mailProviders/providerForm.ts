/**
 * The mail provider dialog's values, checks and body, pure so they are tested. The password field
 * starts empty when editing: empty means "unchanged" and sends no password (the API keeps the
 * stored one), unless the host or the security mode changed, when the API asks for it again.
 */
import { ErrorCode } from '@gd/shared/errors';
import { MAIL_DEFAULT_PORT, MailProviderInput, type MailProvider, type MailTlsMode } from '@gd/shared/schemas/mailProviders';
import { ApiError } from '../../api/errors.ts';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export interface ProviderFormValues {
  name: string; host: string; port: number | string; tls: MailTlsMode; username: string; password: string; senderName: string; senderEmail: string;
  /** Empty: no limit. */
  ratePerSecond: number | string;
}

const FIELDS = ['name', 'host', 'port', 'tls', 'username', 'password', 'senderName', 'senderEmail', 'ratePerSecond'] as const;
const ISSUES = new Set(['private_address', 'host_not_found', 'password_required', 'password_again']);

export function initialProviderValues(provider?: MailProvider): ProviderFormValues {
  return provider
    ? { name: provider.name, host: provider.host, port: provider.port, tls: provider.tls, username: provider.username, password: '', senderName: provider.senderName, senderEmail: provider.senderEmail, ratePerSecond: provider.ratePerSecond ?? '' }
    : { name: '', host: '', port: MAIL_DEFAULT_PORT.starttls, tls: 'starttls', username: '', password: '', senderName: '', senderEmail: '', ratePerSecond: '' };
}

/** The port proposed when the security mode changes: the new mode's usual port, if the port was the old mode's usual one. */
export function portForMode(values: Pick<ProviderFormValues, 'port' | 'tls'>, next: MailTlsMode): number | string {
  return Number(values.port) === MAIL_DEFAULT_PORT[values.tls] || values.port === '' ? MAIL_DEFAULT_PORT[next] : values.port;
}

/** Whether the stored password must be typed again (the API refuses to send it to another host or with another security mode). */
export function needsPasswordAgain(values: ProviderFormValues, provider?: MailProvider): boolean {
  return !!provider?.hasPassword && values.username.trim() !== '' && (provider.host.toLowerCase() !== values.host.trim().toLowerCase() || provider.tls !== values.tls);
}

/** The request body: an empty password field sends no password (unchanged when editing). */
export function providerBody(values: ProviderFormValues): MailProviderInput {
  return {
    name: values.name.trim(),
    host: values.host.trim(),
    port: Number(values.port),
    tls: values.tls,
    username: values.username.trim(),
    ...(values.password !== '' && values.username.trim() !== '' ? { password: values.password } : {}),
    senderName: values.senderName.trim(),
    senderEmail: values.senderEmail.trim(),
    ratePerSecond: values.ratePerSecond === '' ? null : Number(values.ratePerSecond),
  };
}

/** Field errors of the form (empty when it may be sent). */
export function validateProvider(values: ProviderFormValues, t: TFunction, provider?: MailProvider): Record<string, string> {
  const errors: Record<string, string> = {};
  const body = providerBody(values);
  const parsed = MailProviderInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (field in errors || !(FIELDS as readonly string[]).includes(field)) continue;
      errors[field] = field === 'port' && values.port === '' ? t('validation.required') : validationText(issue as Parameters<typeof validationText>[0], t);
    }
  }
  // The sending limit: a whole number of e-mails a second from 1 to 100,000, or empty for none.
  if (errors.ratePerSecond) errors.ratePerSecond = t('mailProviders.rateInvalid');
  if (!errors.password && body.username && body.password === undefined) {
    if (!provider?.hasPassword) errors.password = t('mailProviders.passwordRequired');
    else if (needsPasswordAgain(values, provider)) errors.password = t('mailProviders.passwordAgain');
  }
  return errors;
}

/** A refused save as field errors and a form error: a name taken (30) on the name, the host and password reasons on their fields. */
export function providerFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  if (error instanceof ApiError && error.code === ErrorCode.NAME_DUPLICATED) return { fieldErrors: { name: t('mailProviders.nameTaken') }, formError: null };
  return splitFailure(error, t, FIELDS, (message) => (ISSUES.has(message) ? t(`mailProviders.issue.${message}` as TKey) : undefined));
}
