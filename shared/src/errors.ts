/**
 * The error catalogue of SPEC.md section 8. Every KO answer carries one of these numeric codes.
 * Names are ours (the spec gives only meanings); values are the contract.
 */
export const ErrorCode = {
  NOT_EXIST: 10,
  RECOVERING_ERROR: 11,
  TOKEN_EXPIRED: 12,
  AD_ACCOUNT_NOT_EXIST: 13,
  TOKEN_NOT_EXIST: 14,
  NOTIFY_AUDIENCE: 20,
  NAME_DUPLICATED: 30,
  TOKEN_DUPLICATED: 31,
  NATIVE_AD_TEMPLATE_DUPLICATED: 32,
  NATIVE_AD_TEMPLATE_DEFAULT: 33,
  GENERIC: 10000,
  MANDATORY: 10001,
  API_KEY_MISSING: 10002,
  API_KEY_INVALID: 10003,
  NO_PERMISSION: 10004,
  ACCESS_TOKEN_MISSING: 10005,
  ACCESS_TOKEN_INVALID: 10006,
  ACCESS_TOKEN_NOT_EXISTING: 10007,
  ACCESS_TOKEN_WITHOUT_PRIVILEGES: 10008,
  OAUTH_ERROR: 10009,
  INVALID_USER: 10010,
  STORAGE: 10011,
  INVALID_CLIENT: 10012,
  TOKEN_NOT_FOR_USER: 10013,
  ACCESS_TOKEN_EXPIRED: 10014,
  EVENT_COLLISION: 10015,
  EMAIL_EXISTS: 10016,
  MFA_ENABLED: 10017,
  ACCOUNT_INVALID: 10018,
  ACTIVATION_TOKEN_INVALID: 10019,
  USER_NOT_VERIFIED: 10020,
  TOO_MANY_LOGIN_FAILURES: 10021,
  CLIENT_SECRET_INVALID: 10022,
  PLAN_MANDATORY: 10023,
  SEARCH_AD_CONNECTION_FAIL: 10024,
  DATABASE_ERROR: 10025,
  SHORT_LINK_NOT_FOUND: 10026,
  PUSH_SOUND_CREATE_ERROR: 10027,
  PUSH_SOUND_NOT_FOUND: 10028,
  REFRESH_TOKEN_INVALID: 10029,
  REFRESH_TOKEN_EXPIRED: 10030,
  CSRF_COOKIE_FAILURE: 10031,
  CSRF_BODY_FAILURE: 10032,
  CSRF_VERIFICATION_FAILURE: 10033,
  SOCIAL_ID_TOKEN_FAILED: 10034,
  SOCIAL_PROFILE_FAILURE: 10035,
  USER_NOT_ACTIVATED: 10036,
  USER_NOT_REGISTERED: 10037,
  SIGNUP_ERROR: 10038,
  FEDERATED_ACCOUNT_ERROR: 10039,
  FEDERATED_EMAIL_ERROR: 10040,
  FORGOT_PASSWORD_ERROR: 10041,
  PASSWORD_RENEWAL_REQUIRED: 10042,
  MICROSOFT_PROFILE_FAILURE: 10043,
  MICROSOFT_AUTH_CODE_FAILURE: 10044,
  CURRENT_PASSWORD_INVALID: 10045,
  PASSWORD_USED_BEFORE: 10046,
  SHORT_VIDEO_ADS_CONNECTION_FAIL: 10047,
  USER_DELETED: 10048,
  USER_DELETION_FIRST_FAIL: 10049,
  SKUDO_OFFER_HAS_ACTIVE_URLS: 20001,
  CAMPAIGN_HAS_ACTIVE_OFFERS: 20002,
  PROVIDER_HAS_ACTIVE_URLS: 20003,
  SKUDO_AUTH_CODE_INVALID: 20004,
  SKUDO_AUTH_CODE_EXPIRED: 20005,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

const byValue = new Map<number, ErrorCodeName>(
  Object.entries(ErrorCode).map(([name, value]) => [value, name as ErrorCodeName]),
);

export function errorCodeName(code: number): ErrorCodeName | undefined {
  return byValue.get(code);
}

/** Import error names (SPEC.md section 8). */
export const ImportErrorName = [
  'CopyImportFileError',
  'CsvSyntaxError',
  'SaveDataError',
  'NotifyJourneysError',
  'RecoverableTaskError',
  'NoRecoverableTaskError',
] as const;
export const AudienceErrorName = ['AudienceNotExist', 'AudienceNotValid'] as const;

/**
 * An expected failure, as a value. Services return `Result<T>`; only routes map a failure
 * to an HTTP answer. `details` carries structured violations (field paths) for forms.
 */
export interface Failure {
  ok: false;
  code: ErrorCodeValue;
  message: string;
  details?: FieldIssue[];
  /** The HTTP status when the code's own does not fit: a state conflict (409), a dependency down (503). */
  httpStatus?: number;
}
export interface FieldIssue {
  path: string;
  /** A reason code of the route (`private_address`, `not_found`) or a readable English text. */
  message: string;
  /** For a value that failed its schema: what was wrong, for the client to say in the person's language. */
  issue?: ValidationIssue;
}

/** The part of a zod issue a form needs to explain it: its code and, for sizes, the limit. */
export interface ValidationIssue {
  code: string;
  /** For too_small / too_big: what was measured (string, number, array) and the limit. */
  origin?: string;
  minimum?: number;
  maximum?: number;
  /** For invalid_format: email, url, uuid, regex, ... */
  format?: string;
}

/** Zod issues (any version's shape) as field details: the path, the English message and the issue. */
export function fieldIssuesOf(issues: readonly { code: string; path: readonly PropertyKey[]; message: string; origin?: unknown; minimum?: unknown; maximum?: unknown; format?: unknown }[]): FieldIssue[] {
  return issues.map((i) => {
    const issue: ValidationIssue = { code: i.code };
    if (typeof i.origin === 'string') issue.origin = i.origin;
    if (typeof i.minimum === 'number' || typeof i.minimum === 'bigint') issue.minimum = Number(i.minimum);
    if (typeof i.maximum === 'number' || typeof i.maximum === 'bigint') issue.maximum = Number(i.maximum);
    if (typeof i.format === 'string') issue.format = i.format;
    return { path: i.path.map(String).join('.') || '(body)', message: i.message, issue };
  });
}
export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCodeValue, message: string, details?: FieldIssue[]): Failure =>
  details ? { ok: false, code, message, details } : { ok: false, code, message };
/**
 * The request does not fit the thing's current state (stopping a journey that is not live, refreshing
 * an audience being refreshed): the catalogue's generic code, answered as HTTP 409, never 500.
 */
export const conflict = (message: string): Failure => ({ ok: false, code: ErrorCode.GENERIC, message, httpStatus: 409 });
/** A service this one needs is not reachable, or a query ran out of time: try again (HTTP 503). */
export const unavailable = (message: string): Failure => ({ ok: false, code: ErrorCode.GENERIC, message, httpStatus: 503 });
