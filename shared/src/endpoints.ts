/**
 * The HTTP contract: every endpoint with its method, path, request and response schemas and the
 * permission it needs. The API registers its routes from this table, the browser client calls
 * through it, and `/api/openapi.json` is generated from it.
 *
 * `auth`: 'public' needs no session; 'session' needs a signed-in user; otherwise a permission
 * expression checked with `can` (app-scoped when the path has `:appId`).
 */
import { z } from 'zod';
import {
  Account, AccountUpdate, AccountUserInput, AccountUserUpdate, App, AppInput, AutoLoginRequest,
  ChangePasswordRequest, ForgotPasswordRequest, LoginRequest, PlanUpdate, ProfileUpdate, RegisterRequest,
  ResetPasswordRequest, TestDevice, TestDeviceInput, User, UserMeta, UserRole, UserRoleInput,
  DocTokenAnswer, DocTokenRequest, JourneyAssign, JourneyCreate, JourneyRename, JourneySummary,
} from './schemas/index.ts';

import { behaviourEndpoints } from './endpoints/behaviour.ts';
import { peopleEndpoints } from './endpoints/people.ts';
import { ingestEndpoints } from './endpoints/ingest.ts';
import { tagEndpoints } from './endpoints/tags.ts';
import { segmentEndpoints } from './endpoints/segments.ts';
import { importEndpoints } from './endpoints/imports.ts';

export { ep, none, type Endpoint, type EndpointAuth, type Method } from './endpoints/define.ts';
import { ep, none } from './endpoints/define.ts';

export const endpoints = {
  csrf: ep({ method: 'GET', path: '/auth/csrf', summary: 'Issue the CSRF cookie and token', auth: 'public', response: { csrfToken: z.string() } }),
  register: ep({ method: 'POST', path: '/auth/register', summary: 'Create an account and its first user', auth: 'public', request: RegisterRequest, response: { user: User } }),
  login: ep({ method: 'POST', path: '/auth/login', summary: 'Sign in', auth: 'public', request: LoginRequest, response: { user: User } }),
  logout: ep({ method: 'POST', path: '/auth/logout', summary: 'Sign out and revoke the refresh token', auth: 'public', response: none }),
  refresh: ep({ method: 'POST', path: '/auth/refresh', summary: 'Rotate the refresh token and issue a new access token', auth: 'public', response: none }),
  forgotPassword: ep({ method: 'POST', path: '/auth/forgot-password', summary: 'Send a password reset link', auth: 'public', request: ForgotPasswordRequest, response: none }),
  resetPassword: ep({ method: 'POST', path: '/auth/reset-password', summary: 'Set a new password with a reset link', auth: 'public', request: ResetPasswordRequest, response: none }),
  autoLogin: ep({ method: 'POST', path: '/auth/auto-login', summary: 'Sign in with a one-time link', auth: 'public', request: AutoLoginRequest, response: { user: User, redirect: z.string() } }),

  meta: ep({ method: 'GET', path: '/user/meta', summary: 'Current user, account, apps and disallowed permissions', auth: 'session', response: UserMeta.shape }),
  updateProfile: ep({ method: 'PUT', path: '/user/profile', summary: 'Update my profile', auth: 'session', request: ProfileUpdate, response: { user: User } }),
  changePassword: ep({ method: 'PUT', path: '/user/password', summary: 'Change my password', auth: 'session', request: ChangePasswordRequest, response: none }),

  getAccount: ep({ method: 'GET', path: '/account', summary: 'My account', auth: 'route:/user/account', response: { account: Account } }),
  updateAccount: ep({ method: 'PUT', path: '/account', summary: 'Rename the account or change its support level', auth: 'api:account.edit', request: AccountUpdate, response: { account: Account } }),
  updatePlan: ep({ method: 'PUT', path: '/account/plan', summary: 'Change the plan', auth: 'api:account.plan', request: PlanUpdate, response: { account: Account } }),

  listApps: ep({ method: 'GET', path: '/apps', summary: 'Apps of my account', auth: 'route:/user/account/apps', response: { apps: z.array(App) } }),
  createApp: ep({ method: 'POST', path: '/apps', summary: 'Create an app', auth: 'ui:app.new', request: AppInput, response: { app: App } }),
  updateApp: ep({ method: 'PUT', path: '/apps/:appId', summary: 'Edit an app', auth: 'ui:app.edit', request: AppInput, response: { app: App } }),
  deleteApp: ep({ method: 'DELETE', path: '/apps/:appId', summary: 'Delete an app', auth: 'ui:app.delete', response: none }),
  rotateAppKey: ep({ method: 'POST', path: '/apps/:appId/rotate-key', summary: 'Issue a new ingestion key', auth: 'ui:app.edit', response: { app: App } }),

  listUsers: ep({ method: 'GET', path: '/account/users', summary: 'Users of my account', auth: 'ui:accountUsers.view', response: { users: z.array(User) } }),
  addUser: ep({ method: 'POST', path: '/account/users', summary: 'Invite a user', auth: 'ui:accountUsers.add', request: AccountUserInput, response: { user: User } }),
  updateUser: ep({ method: 'PUT', path: '/account/users/:userId', summary: 'Change a user', auth: 'ui:accountUsers.edit', request: AccountUserUpdate, response: { user: User } }),
  deleteUser: ep({ method: 'DELETE', path: '/account/users/:userId', summary: 'Remove a user', auth: 'ui:accountUsers.delete', response: none }),

  listTestDevices: ep({ method: 'GET', path: '/apps/:appId/test-devices', summary: 'Test devices of an app', auth: 'ui:testDevices.view', response: { devices: z.array(TestDevice) } }),
  addTestDevice: ep({ method: 'POST', path: '/apps/:appId/test-devices', summary: 'Add a test device', auth: 'ui:testDevices.add', request: TestDeviceInput, response: { device: TestDevice } }),
  updateTestDevice: ep({ method: 'PUT', path: '/apps/:appId/test-devices/:deviceId', summary: 'Edit a test device', auth: 'ui:testDevices.edit', request: TestDeviceInput, response: { device: TestDevice } }),
  deleteTestDevice: ep({ method: 'DELETE', path: '/apps/:appId/test-devices/:deviceId', summary: 'Delete a test device', auth: 'ui:testDevices.delete', response: none }),

  listRoles: ep({ method: 'GET', path: '/user-roles', summary: 'Roles of my account', auth: 'route:/admin/roles', response: { roles: z.array(UserRole) } }),
  putRole: ep({ method: 'PUT', path: '/user-roles/:roleId', summary: 'Create or update a role', auth: 'api:account.roles', request: UserRoleInput, response: { role: UserRole } }),
  deleteRole: ep({ method: 'DELETE', path: '/user-roles/:roleId', summary: 'Delete a role with no users', auth: 'api:account.roles', response: none }),

  docToken: ep({ method: 'POST', path: '/docs/token', summary: 'A short-lived token to open a collaborative document', auth: 'session', request: DocTokenRequest, response: DocTokenAnswer.shape }),

  listJourneys: ep({ method: 'GET', path: '/apps/:appId/journeys', summary: 'Journeys of an app (query: owner=me|all, scope=current|all)', auth: { or: ['ui:journey.view', 'ui:journey.view:owner'] }, response: { journeys: z.array(JourneySummary) } }),
  createJourney: ep({ method: 'POST', path: '/apps/:appId/journeys', summary: 'Create a journey', auth: 'ui:journey.create', request: JourneyCreate, response: { journey: JourneySummary } }),
  renameJourney: ep({ method: 'PUT', path: '/apps/:appId/journeys/:journeyId', summary: 'Rename a journey', auth: { or: ['ui:journey.edit', 'ui:journey.edit:owner'] }, request: JourneyRename, response: { journey: JourneySummary } }),
  assignJourney: ep({ method: 'PUT', path: '/apps/:appId/journeys/:journeyId/assignee', summary: 'Assign a journey to a user', auth: 'ui:journey.assign', request: JourneyAssign, response: { journey: JourneySummary } }),
  cloneJourney: ep({ method: 'POST', path: '/apps/:appId/journeys/:journeyId/clone', summary: 'Clone a journey into a new draft', auth: { or: ['ui:journey.clone', 'ui:journey.clone:owner'] }, request: JourneyCreate, response: { journey: JourneySummary } }),
  deleteJourney: ep({ method: 'DELETE', path: '/apps/:appId/journeys/:journeyId', summary: 'Delete a journey', auth: { or: ['ui:journey.delete', 'ui:journey.delete:owner'] }, response: none }),
  launchJourney: ep({ method: 'POST', path: '/apps/:appId/journeys/:journeyId/launch', summary: 'Validate the live document and commit it as the next immutable version', auth: { or: ['ui:journey.launch', 'ui:journey.launch:owner'] }, response: { journey: JourneySummary, version: z.number().int() } }),
  stopJourney: ep({ method: 'POST', path: '/apps/:appId/journeys/:journeyId/stop', summary: 'Stop a live journey', auth: { or: ['ui:journey.stop', 'ui:journey.stop:owner'] }, response: { journey: JourneySummary } }),
  ...behaviourEndpoints,
  ...peopleEndpoints,
  ...ingestEndpoints,
  ...tagEndpoints,
  ...segmentEndpoints,
  ...importEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type RequestOf<N extends EndpointName> = Endpoints[N] extends { request: infer R extends z.ZodType } ? z.input<R> : undefined;
export type QueryOf<N extends EndpointName> = Endpoints[N] extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
export type ResponseOf<N extends EndpointName> = z.infer<z.ZodObject<Endpoints[N]['response']>>;

/** Fill `:param` placeholders of a path. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
