/**
 * Registers the routes of shared/endpoints.ts: authentication, permission (with the app's
 * disallowed list when the path names an app), request validation, then the handler.
 * A handler returns a Result; a failure becomes a KO answer with its catalogue code.
 */
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import {
  AUTH_COOKIES, ErrorCode, can, disallowedFor, endpoints, fail, subjectFor, type App, type Endpoint, type EndpointName,
  type Endpoints, type PermissionSubject, type QueryOf, type Result, type ResponseOf,
} from '@gd/shared';
import { verifyAccessTokenSync } from '../features/auth/accessToken.ts';
import { loadPrincipal } from '../features/accounts/principals.ts';
import { findApp } from '../features/apps/repository.ts';
import type { Deps, Principal } from './context.ts';
import { isSerialised, sendFailure, sendOk, sendSerialised, type Serialised } from './respond.ts';
import { isUuid, parseWith } from './validate.ts';

type BodyOf<N extends EndpointName> = Endpoints[N] extends { request: infer R extends z.ZodType } ? z.output<R> : undefined;

export interface HandlerCtx<N extends EndpointName> {
  body: BodyOf<N>;
  /** The query string parsed with the endpoint's `query` schema (undefined when it has none). */
  query: QueryOf<N>;
  params: Record<string, string>;
  /** Present for every endpoint whose auth is not 'public'. */
  principal: Principal;
  /** The signed-in session (refresh-token family) of the request's access token, when it names one. */
  sessionId: string | undefined;
  /** The principal's permissions here (in the app when the path has `:appId`), for item-level checks. */
  subject: PermissionSubject;
  /** When the path has `:appId`: the app, checked to belong to the principal's account. */
  app: Endpoints[N]['path'] extends `${string}:appId${string}` ? App : null;
  req: Request;
  res: Response;
}
/** A handler answers its response, or that response serialised once and kept (see `serialise`). */
type Answer<N extends EndpointName> = Result<ResponseOf<N> | Serialised<ResponseOf<N>>> | Promise<Result<ResponseOf<N> | Serialised<ResponseOf<N>>>>;
export type Handler<N extends EndpointName> = (ctx: HandlerCtx<N>) => Answer<N>;
export type PublicHandler<N extends EndpointName> = (ctx: Omit<HandlerCtx<N>, 'principal' | 'app' | 'subject' | 'sessionId'> & { principal: Principal | null }) => Answer<N>;

/** The signed-in principal and the session its access token belongs to. */
export interface SignedIn { principal: Principal; sessionId: string | undefined }

/** Resolve the signed-in principal from the access cookie, or the failure that explains why not. */
export async function authenticate(deps: Deps, req: Request): Promise<Result<SignedIn>> {
  const token = (req.cookies as Record<string, string | undefined>)[AUTH_COOKIES.access];
  if (!token) return fail(ErrorCode.ACCESS_TOKEN_MISSING, 'Sign in first: access token missing');
  const claims = verifyAccessTokenSync(deps.secret, token);
  if (!claims.ok) return claims;
  const principal = await loadPrincipal(deps.db, claims.value.userId);
  if (!principal || principal.user.account_id !== claims.value.accountId) return fail(ErrorCode.ACCESS_TOKEN_NOT_EXISTING, 'The user of this session no longer exists');
  if (!principal.user.active) return fail(ErrorCode.INVALID_USER, 'This user has been deactivated');
  // Signed out, signed out by a password change or reset, or a stolen refresh token was reused:
  // the client's refresh then fails too, and the person signs in again.
  const session = claims.value.sessionId;
  if (session !== undefined && principal.revokedSessions.includes(session)) return fail(ErrorCode.ACCESS_TOKEN_EXPIRED, 'This session has ended: sign in again');
  return { ok: true, value: { principal, sessionId: session } };
}

/** When the path names an app: that app, checked to belong to the principal's account. */
async function routeApp(deps: Deps, principal: Principal, params: Record<string, string>): Promise<Result<App | null>> {
  if (params.appId === undefined) return { ok: true, value: null };
  const app = isUuid(params.appId) ? await findApp(deps.db, principal.account.id, params.appId) : undefined;
  // Another account's app and a missing app answer alike, so ids of other accounts leak nothing.
  return app ? { ok: true, value: app } : fail(ErrorCode.NO_PERMISSION, 'No permission for this app');
}

const permissionsOf = (principal: Principal, app: App | null) => subjectFor(principal.user.id, disallowedFor(principal.user.grants, app?.restricted ?? []));

/**
 * The principal's permissions here, or the failure when the endpoint's permission is not among them.
 * An endpoint open to any session (auth 'session', like /user/meta) checks nothing: its subject is
 * built only if the handler reads it (null here).
 */
function authorize(name: EndpointName, principal: Principal, app: App | null): Result<PermissionSubject | null> {
  const { auth } = endpoints[name];
  if (auth === 'session' || auth === 'public' || auth === 'appKey') return { ok: true, value: null };
  const subject = permissionsOf(principal, app);
  return can(subject, auth) ? { ok: true, value: subject } : fail(ErrorCode.NO_PERMISSION, `No permission: ${JSON.stringify(auth)}`);
}

/**
 * What a handler gets (`HandlerCtx`). A class, so the lazy `subject` getter lives on the prototype:
 * an object literal with a getter cost ~0.5 µs per request to build.
 */
class Context {
  readonly body: unknown;
  readonly query: unknown;
  readonly params: Record<string, string>;
  readonly principal: Principal | null;
  readonly sessionId: string | undefined;
  readonly app: App | null;
  readonly req: Request;
  readonly res: Response;
  readonly #signedIn: Principal | null;
  #subject: PermissionSubject | null;
  constructor(body: unknown, query: unknown, params: Record<string, string>, principal: Principal | null, sessionId: string | undefined,
    signedIn: Principal | null, app: App | null, subject: PermissionSubject | null, req: Request, res: Response) {
    this.body = body;
    this.query = query;
    this.params = params;
    this.principal = principal;
    this.sessionId = sessionId;
    this.app = app;
    this.req = req;
    this.res = res;
    this.#signedIn = signedIn;
    this.#subject = subject;
  }

  /** The permissions here (in the app when the path names one); none on public routes. */
  get subject(): PermissionSubject {
    this.#subject ??= this.#signedIn ? permissionsOf(this.#signedIn, this.app) : subjectFor('', []);
    return this.#subject;
  }
}

function register<N extends EndpointName>(router: Router, deps: Deps, name: N, run: Handler<N>, publicRoute: boolean): void {
  const endpoint = endpoints[name];
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  router[method](endpoint.path, async (req: Request, res: Response) => {
    const params = req.params as Record<string, string>;
    let principal: Principal | null = null;
    let sessionId: string | undefined;
    const auth = await authenticate(deps, req);
    if (auth.ok) ({ principal, sessionId } = auth.value);
    else if (!publicRoute) return sendFailure(res, auth);
    let app: App | null = null;
    let subject: PermissionSubject | null = null;
    if (principal && !publicRoute) {
      // No await (no extra turn of the event loop) unless the path names an app.
      const found = params.appId === undefined ? null : await routeApp(deps, principal, params);
      if (found && !found.ok) return sendFailure(res, found);
      app = found?.value ?? null;
      const allowed = authorize(name, principal, app);
      if (!allowed.ok) return sendFailure(res, allowed);
      subject = allowed.value;
    }
    let body: unknown = undefined;
    if ('request' in endpoint && endpoint.request) {
      const parsed = parseWith(endpoint.request, req.body ?? {});
      if (!parsed.ok) return sendFailure(res, parsed);
      body = parsed.value;
    }
    let query: unknown = undefined;
    const querySchema = (endpoint as Endpoint).query;
    if (querySchema) {
      const parsed = parseWith(querySchema, req.query);
      if (!parsed.ok) return sendFailure(res, parsed);
      query = parsed.value;
    }
    const ctx = new Context(body, query, params, principal, sessionId, publicRoute ? null : principal, app, subject, req, res);
    const result = await run(ctx as unknown as HandlerCtx<N>);
    if (!result.ok) return sendFailure(res, result);
    if (isSerialised(result.value)) return sendSerialised(req, res, result.value);
    sendOk(res, result.value);
  });
}

export function route<N extends EndpointName>(router: Router, deps: Deps, name: N, handler: Handler<N>): void {
  if (endpoints[name].auth === 'public') throw new Error(`${name} is public: use publicRoute`);
  if (endpoints[name].auth === 'appKey') throw new Error(`${name} is authenticated by the app key: see features/ingest`);
  register(router, deps, name, handler, false);
}

export function publicRoute<N extends EndpointName>(router: Router, deps: Deps, name: N, handler: PublicHandler<N>): void {
  register(router, deps, name, handler as Handler<N>, true);
}

/** What a file route's handler gets: the checked app, principal and permissions, and the parsed query. */
export interface FileCtx<N extends EndpointName> {
  app: App;
  principal: Principal;
  subject: PermissionSubject;
  query: QueryOf<N>;
  params: Record<string, string>;
  req: Request;
  res: Response;
}

/**
 * A GET endpoint of the table under an app that answers a file (written or streamed by the
 * handler to `res`) rather than JSON, with the same checks as `route`: session, app of the
 * account, permission with the app's disallowed list, the query parsed with the endpoint's schema.
 * A failure, from the checks or returned by the handler before it wrote anything, answers KO JSON.
 */
export function fileRoute<N extends EndpointName>(router: Router, deps: Deps, name: N, handler: (ctx: FileCtx<N>) => Promise<Result<unknown> | undefined>): void {
  const endpoint = endpoints[name];
  if (endpoint.method !== 'GET' || !endpoint.path.includes(':appId')) throw new Error(`${name}: a file route is a GET under an app`);
  router.get(endpoint.path, async (req: Request, res: Response) => {
    const params = req.params as Record<string, string>;
    const signedIn = await authenticate(deps, req);
    if (!signedIn.ok) return sendFailure(res, signedIn);
    const { principal } = signedIn.value;
    const found = await routeApp(deps, principal, params);
    if (!found.ok) return sendFailure(res, found);
    const app = found.value;
    if (!app) return sendFailure(res, fail(ErrorCode.NO_PERMISSION, 'No permission for this app'));
    const allowed = authorize(name, principal, app);
    if (!allowed.ok) return sendFailure(res, allowed);
    let query: unknown = undefined;
    const querySchema = (endpoint as Endpoint).query;
    if (querySchema) {
      const parsed = parseWith(querySchema, req.query);
      if (!parsed.ok) return sendFailure(res, parsed);
      query = parsed.value;
    }
    const subject = allowed.value ?? permissionsOf(principal, app);
    const result = await handler({ app, principal, subject, query: query as QueryOf<N>, params, req, res });
    if (result && !result.ok) sendFailure(res, result);
  });
}

/** Permission check for a principal outside any app (account screens). */
export function accountSubject(principal: Principal) {
  return subjectFor(principal.user.id, disallowedFor(principal.user.grants));
}
