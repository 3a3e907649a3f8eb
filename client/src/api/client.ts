/**
 * The one typed API client of the browser (CONVENTIONS.md 8). Screens never call `fetch`.
 *
 *   api.call('login', { body: { email, password } })
 *   api.call('updateApp', { params: { appId }, body })
 *
 * Requests and answers are typed by the endpoint table of `@gd/shared/endpoints`; at run time the
 * client addresses calls with the schema-free route table (`@gd/shared/endpointRoutes`) and takes
 * request schemas from `requestSchemas.ts`, so feature schemas stay out of the login page. The
 * body is validated with the endpoint's schema before anything is sent, CSRF token included (a
 * failure throws ApiError 10001 with field details, like the server would). KO answers throw
 * ApiError(code, message, details); a network failure throws ApiError('network').
 *
 * Session: cookies are httpOnly. On 10014 (access token expired), or 10005 while we believe we
 * have a session, the client calls POST /auth/refresh once (single flight, shared by every
 * concurrent call) and retries; when the refresh is refused the session is over
 * (`onSessionExpired`). CSRF: state-changing calls send the `gd_csrf` cookie in `x-csrf-token`;
 * without the cookie (or when the API sits on another host and the cookie is not readable) the
 * token comes from GET /auth/csrf.
 */
import { API_VERSION_HEADER, apiVersionHeaderValue, deriveApiBase, dropReserved, rangeQuery } from '@gd/shared/apiBase';
import { endpointRoutes, fillPath } from '@gd/shared/endpointRoutes';
import type { EndpointName, RequestOf, ResponseOf } from '@gd/shared/endpoints';
import { ErrorCode, fieldIssuesOf } from '@gd/shared/errors';
import type { Language } from '@gd/shared/language';
import { AUTH_COOKIES, CSRF_HEADER } from '@gd/shared/schemas/auth';
import { KoBody } from '@gd/shared/schemas/envelope';
import { ApiError } from './errors.ts';
import { requestSchemaOf, type RequestSchema } from './requestSchemas.ts';

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

type BodyPart<N extends EndpointName> = RequestOf<N> extends undefined ? { body?: undefined } : { body: RequestOf<N> };
export type CallInput<N extends EndpointName> = BodyPart<N> & {
  /** Values of the `:params` of the endpoint's path. */
  params?: Record<string, string>;
  /** Query string for GET calls (range queries: arrays as key[]=value). */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
};
type CallArgs<N extends EndpointName> = RequestOf<N> extends undefined ? [input?: CallInput<N>] : [input: CallInput<N>];

export interface RequestContext {
  baseUrl: string;
  language: Language;
  apiVersion: 1 | 2;
  csrfToken?: string | null;
}

/** Endpoints that are part of signing in or out: a 10005 from them never triggers a refresh. */
const AUTH_FLOW = new Set<EndpointName>(['csrf', 'register', 'login', 'logout', 'refresh', 'forgotPassword', 'resetPassword', 'autoLogin']);
const SESSION_OVER = new Set<number>([ErrorCode.REFRESH_TOKEN_INVALID, ErrorCode.REFRESH_TOKEN_EXPIRED, ErrorCode.ACCESS_TOKEN_MISSING]);
const CSRF_FAILURES = new Set<number>([ErrorCode.CSRF_COOKIE_FAILURE, ErrorCode.CSRF_BODY_FAILURE, ErrorCode.CSRF_VERIFICATION_FAILURE]);

export const needsCsrf = (name: EndpointName): boolean => endpointRoutes[name].method !== 'GET';

/** Zod issues of a request that fails its schema, as field details. */
function invalidRequest(issues: Parameters<typeof fieldIssuesOf>[0]): ApiError {
  const details = fieldIssuesOf(issues);
  return new ApiError(ErrorCode.MANDATORY, details[0]?.message ?? 'Invalid request', details);
}

/**
 * Pure: the JSON text a call sends. With a request schema, the body is validated (ApiError 10001
 * with field details) and the parsed value (trimmed, defaults applied) is sent without
 * reserved-prefix fields; without one, POST/PUT/DELETE send `{}` and GET sends nothing.
 */
export function encodeBody(name: EndpointName, schema: RequestSchema, body: unknown): string | undefined {
  if (schema) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error.issues);
    return JSON.stringify(dropReserved(parsed.data as Record<string, unknown>));
  }
  return endpointRoutes[name].method === 'GET' ? undefined : '{}';
}

/** The JSON text a call sends, validated with the endpoint's request schema (see `encodeBody`). */
export async function prepareBody<N extends EndpointName>(name: N, body: RequestOf<N> | undefined): Promise<string | undefined> {
  return encodeBody(name, await requestSchemaOf(name), body);
}

/** Pure: the URL and fetch options of a call whose body `encodeBody` prepared. */
export function buildRequest<N extends EndpointName>(name: N, input: CallInput<N> | undefined, body: string | undefined, ctx: RequestContext): { url: string; init: RequestInit } {
  const route = endpointRoutes[name];
  const path = fillPath(route.path, input?.params);
  const qs = input?.query ? rangeQuery(input.query) : '';
  const url = `${ctx.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': ctx.language,
    [API_VERSION_HEADER]: apiVersionHeaderValue(ctx.apiVersion),
    'Cache-Control': 'no-cache',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (needsCsrf(name) && ctx.csrfToken) headers[CSRF_HEADER] = ctx.csrfToken;
  const init: RequestInit = { method: route.method, headers, credentials: 'include', cache: 'no-store' };
  if (body !== undefined) init.body = body;
  if (input?.signal) init.signal = input.signal;
  return { url, init };
}

/** Pure: the outcome of an answer body. OK bodies are returned; anything else throws ApiError. */
export function readAnswer<T>(status: number, json: unknown): T {
  if (typeof json === 'object' && json !== null && (json as { status?: unknown }).status === 'OK') return json as T;
  const ko = KoBody.safeParse(json);
  if (ko.success) throw new ApiError(ko.data.code, ko.data.message, ko.data.details ?? [], status);
  throw new ApiError(ErrorCode.GENERIC, `Unexpected answer from the server (HTTP ${status})`);
}

/** Pure: should this failure be answered by refreshing the session and retrying? */
export function shouldRefresh(name: EndpointName, error: ApiError, hadSession: boolean): boolean {
  if (AUTH_FLOW.has(name)) return false;
  return error.code === ErrorCode.ACCESS_TOKEN_EXPIRED || (error.code === ErrorCode.ACCESS_TOKEN_MISSING && hadSession);
}

export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export interface ApiClientDeps {
  baseUrl: () => string;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  language: () => Language;
  apiVersion: () => 1 | 2;
  /** The `gd_csrf` cookie when the page can read it. */
  csrfCookie: () => string | undefined;
  /** True when the client believes it is signed in (a 10005 then means the access token lapsed). */
  hasSession: () => boolean;
  /** The refresh was refused: clear session state (the shell then sends the user to /login?next=). */
  onSessionExpired: () => void;
}

export interface ApiClient {
  call<N extends EndpointName>(name: N, ...args: CallArgs<N>): Promise<ResponseOf<N>>;
  /** Forget the remembered CSRF token (after logout). */
  reset(): void;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  let csrfMemo: string | null = null;
  let refreshing: Promise<boolean> | null = null;

  async function send<N extends EndpointName>(name: N, input: CallInput<N> | undefined, body: string | undefined, csrfToken: string | null): Promise<ResponseOf<N>> {
    const { url, init } = buildRequest(name, input, body, {
      baseUrl: deps.baseUrl(), language: deps.language(), apiVersion: deps.apiVersion(), csrfToken,
    });
    let res: Response;
    try {
      res = await deps.fetch(url, init);
    } catch (error) {
      if (input?.signal?.aborted) throw error;
      throw new ApiError('network', error instanceof Error ? error.message : 'Network failure');
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      json = undefined;
    }
    return readAnswer<ResponseOf<N>>(res.status, json);
  }

  async function csrfToken(force: boolean): Promise<string> {
    if (!force) {
      const cookie = deps.csrfCookie();
      if (cookie) return cookie;
      if (csrfMemo) return csrfMemo;
    }
    const answer = await send('csrf', undefined, undefined, null);
    csrfMemo = answer.csrfToken;
    return csrfMemo;
  }

  /** One call with its CSRF token; a CSRF refusal (stale or missing token) is retried once with a fresh token. */
  async function withCsrf<N extends EndpointName>(name: N, input: CallInput<N> | undefined, body: string | undefined): Promise<ResponseOf<N>> {
    if (!needsCsrf(name)) return send(name, input, body, null);
    try {
      return await send(name, input, body, await csrfToken(false));
    } catch (error) {
      if (!(error instanceof ApiError) || typeof error.code !== 'number' || !CSRF_FAILURES.has(error.code)) throw error;
      csrfMemo = null;
      return send(name, input, body, await csrfToken(true));
    }
  }

  function refreshOnce(): Promise<boolean> {
    refreshing ??= prepareBody('refresh', undefined)
      .then((body) => withCsrf('refresh', undefined, body))
      .then(() => true)
      .catch((error: unknown) => {
        if (error instanceof ApiError && typeof error.code === 'number' && SESSION_OVER.has(error.code)) return false;
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  async function call<N extends EndpointName>(name: N, ...args: CallArgs<N>): Promise<ResponseOf<N>> {
    const input = args[0];
    const body = await prepareBody(name, input?.body);
    try {
      return await withCsrf(name, input, body);
    } catch (error) {
      if (!(error instanceof ApiError) || !shouldRefresh(name, error, deps.hasSession())) throw error;
      if (await refreshOnce()) return withCsrf(name, input, body);
      deps.onSessionExpired();
      throw error;
    }
  }

  return {
    call,
    reset: () => {
      csrfMemo = null;
    },
  };
}

/** Hooks the browser client to the app's state (language, account, session); set once at start. */
export interface ApiRuntime {
  language: () => Language;
  apiVersion: () => 1 | 2;
  hasSession: () => boolean;
  onSessionExpired: () => void;
}
const runtime: ApiRuntime = {
  language: () => 'en',
  apiVersion: () => 2,
  hasSession: () => false,
  onSessionExpired: () => undefined,
};
export function configureApi(next: Partial<ApiRuntime>): void {
  Object.assign(runtime, next);
}

let baseUrl: string | undefined;
/** The API base URL; throws ConfigurationError when it cannot be derived (checked at start). */
export function apiBaseUrl(): string {
  baseUrl ??= deriveApiBase(window.location, import.meta.env.VITE_API_BASE);
  return baseUrl;
}

/** The browser's API client. */
export const api: ApiClient = createApiClient({
  baseUrl: apiBaseUrl,
  fetch: (url, init) => window.fetch(url, init),
  language: () => runtime.language(),
  apiVersion: () => runtime.apiVersion(),
  csrfCookie: () => readCookie(document.cookie, AUTH_COOKIES.csrf),
  hasSession: () => runtime.hasSession(),
  onSessionExpired: () => runtime.onSessionExpired(),
});
