/**
 * The foundation's endpoints: signing in and out, the current user, the account, its apps, users,
 * roles and test devices. The browser client imports this group statically (the login page needs
 * it); the feature groups (journeys, behaviour, people, ...) load when a feature endpoint is first
 * called, so their schemas stay out of the login bundle. Schemas are imported from their own
 * modules, not the `schemas/index.ts` barrel, which would bring every feature's schemas along.
 */
import { z } from 'zod';
import {
  Account, AccountUpdate, AccountUserInput, AccountUserUpdate, App, AppInput, PlanUpdate, ProfileUpdate, TestDevice, TestDeviceInput,
  User, UserMeta, UserRole, UserRoleInput,
} from '../schemas/account.ts';
import { AutoLoginRequest, ChangePasswordRequest, ForgotPasswordRequest, LoginRequest, RegisterRequest, ResetPasswordRequest } from '../schemas/auth.ts';
import { CategoryFilterQuery } from '../schemas/categories.ts';
import { ep, none } from './define.ts';

export const coreEndpoints = {
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

  listApps: ep({ method: 'GET', path: '/apps', summary: 'Apps of my account (query: categoryId, only the apps with that category)', auth: 'route:/user/account/apps', query: CategoryFilterQuery, response: { apps: z.array(App) } }),
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
} as const;
