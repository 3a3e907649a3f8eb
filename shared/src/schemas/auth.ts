import { z } from 'zod';
import { Name } from './common.ts';
import { JobDepartment, Plan } from '../enums.ts';
import { Email, StrongPassword } from '../formats.ts';
import { LANGUAGES } from '../language.ts';


export const RegisterRequest = z.object({
  name: Name,
  email: Email,
  password: StrongPassword,
  accountName: Name,
  /** Required: a missing plan is answered with 10023 (plan mandatory to register). */
  plan: Plan.optional(),
  jobDepartment: JobDepartment.optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const LoginRequest = z.object({ email: Email, password: z.string().min(1, 'Required').max(200) });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const ForgotPasswordRequest = z.object({ email: Email, language: z.enum(LANGUAGES).optional() });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

export const ResetPasswordRequest = z.object({ token: z.string().min(10).max(200), password: StrongPassword });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

export const AutoLoginRequest = z.object({ token: z.string().min(10).max(200) });
export type AutoLoginRequest = z.infer<typeof AutoLoginRequest>;

export const ChangePasswordRequest = z.object({
  /** Ignored for a user invited by link who has not set a password yet (`User.passwordSet` false). */
  currentPassword: z.string().max(200).default(''),
  newPassword: StrongPassword,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** Names of the cookies and the CSRF header, shared by the API and the client. */
export const AUTH_COOKIES = { access: 'gd_at', refresh: 'gd_rt', csrf: 'gd_csrf' } as const;
export const CSRF_HEADER = 'x-csrf-token';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;
export const PASSWORD_HISTORY_DEPTH = 5;
