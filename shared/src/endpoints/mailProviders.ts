/**
 * Mail providers of the account (schemas/mailProviders.ts): account-wide, not per app. Reading
 * needs the screen's route key and `ui:mailProviders.view`; creating and editing
 * `ui:mailProviders.edit`, deleting `.delete`, activating (and deactivating) `.activate`
 * (SPEC.md section 3; Agency reads them but changes none, permissions/roles.ts). A connection
 * test may be run by whoever may edit or activate a provider.
 *
 * Failures: 10001 with `details` for a bad field, a private host (`private_address`) or a host that
 * does not resolve (`host_not_found`), or a username without a password; 30 for a name in use;
 * 10004 for an id of nothing or of another account.
 */
import { z } from 'zod';
import { MailConnectionTest, MailProvider, MailProviderInput } from '../schemas/mailProviders.ts';
import { ep, none } from './define.ts';

const VIEW = { and: ['route:/manage/mail-providers', 'ui:mailProviders.view'] } as const;
const EDIT = 'ui:mailProviders.edit' as const;
const TEST = { or: ['ui:mailProviders.edit', 'ui:mailProviders.activate'] } as const;

export const mailProviderEndpoints = {
  listMailProviders: ep({ method: 'GET', path: '/mail-providers', summary: "The account's mail providers (SMTP servers), by name; passwords are never answered", auth: VIEW, response: { providers: z.array(MailProvider) } }),
  getMailProvider: ep({ method: 'GET', path: '/mail-providers/:providerId', summary: 'A mail provider', auth: VIEW, response: { provider: MailProvider } }),
  createMailProvider: ep({ method: 'POST', path: '/mail-providers', summary: 'Add a mail provider (inactive; the password is stored encrypted). A private host: 10001 private_address; a name in use: 30', auth: EDIT, request: MailProviderInput, response: { provider: MailProvider } }),
  updateMailProvider: ep({ method: 'PUT', path: '/mail-providers/:providerId', summary: 'Change a mail provider; without a password the stored one stays', auth: EDIT, request: MailProviderInput, response: { provider: MailProvider } }),
  deleteMailProvider: ep({ method: 'DELETE', path: '/mail-providers/:providerId', summary: 'Delete a mail provider (the active one too: e-mail then has no provider until another is activated)', auth: 'ui:mailProviders.delete', response: none }),
  activateMailProvider: ep({ method: 'POST', path: '/mail-providers/:providerId/activate', summary: "Make this the account's active provider (the previous one stops being active, in the same transaction)", auth: 'ui:mailProviders.activate', response: { provider: MailProvider } }),
  deactivateMailProvider: ep({ method: 'POST', path: '/mail-providers/:providerId/deactivate', summary: 'Stop using this provider: the account then sends no e-mail until one is activated', auth: 'ui:mailProviders.activate', response: { provider: MailProvider } }),
  testMailProvider: ep({
    method: 'POST', path: '/mail-providers/:providerId/test', auth: TEST, response: { result: MailConnectionTest },
    summary: 'Connect to the SMTP server with the stored settings and log in (at most about 10 s); the outcome is the answer: ok, or why not (refused, timeout, TLS, authentication...)',
  }),
} as const;
