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
import { verifyAccessToken } from '../features/auth/accessToken.ts';
import { findPrincipal } from '../features/accounts/repository.ts';
import { findApp } from '../features/apps/repository.ts';
import type { Deps, Principal } from './context.ts';
import { sendFailure, sendOk } from './respond.ts';
import { isUuid, parseWith } from './validate.ts';

type BodyOf<N extends EndpointName> = Endpoints[N] extends { request: infer R extends z.ZodType } ? z.output<R> : undefined;

export interface HandlerCtx<N extends EndpointName> {
  body: BodyOf<N>;
  /** The query string parsed with the endpoint's `query` schema (undefined when it has none). */
  query: QueryOf<N>;
  params: Record<string, string>;
  /** Present for every endpoint whose auth is not 'public'. */
  principal: Principal;
  /** The principal's permissions here (in the app when the path has `:appId`), for item-level checks. */
  subject: PermissionSubject;
  /** When the path has `:appId`: the app, checked to belong to the principal's account. */
  app: Endpoints[N]['path'] extends `${string}:appId${string}` ? App : null;
  req: Request;
  res: Response;
}
type Answer<N extends EndpointName> = Result<ResponseOf<N>> | Promise<Result<ResponseOf<N>>>;
export type Handler<N extends EndpointName> = (ctx: HandlerCtx<N>) => Answer<N>;
export type PublicHandler<N extends EndpointName> = (ctx: Omit<HandlerCtx<N>, 'principal' | 'app' | 'subject'> & { principal: Principal | null }) => Answer<N>;

/** Resolve the signed-in principal from the access cookie, or the failure that explains why not. */
export async function authenticate(deps: Deps, req: Request): Promise<Result<Principal>> {
  const token = (req.cookies as Record<string, string | undefined>)[AUTH_COOKIES.access];
  if (!token) return fail(ErrorCode.ACCESS_TOKEN_MISSING, 'Sign in first: access token missing');
  const claims = await verifyAccessToken(deps.secret, token);
  if (!claims.ok) return claims;
  const principal = await findPrincipal(deps.db, claims.value.userId);
  if (!principal || principal.user.account_id !== claims.value.accountId) return fail(ErrorCode.ACCESS_TOKEN_NOT_EXISTING, 'The user of this session no longer exists');
  if (!principal.user.active) return fail(ErrorCode.INVALID_USER, 'This user has been deactivated');
  return { ok: true, value: principal };
}

async function authorize(deps: Deps, name: EndpointName, principal: Principal, params: Record<string, string>): Promise<Result<{ app: App | null; subject: PermissionSubject }>> {
  const { auth } = endpoints[name];
  let app: App | null = null;
  if (params.appId !== undefined) {
    app = isUuid(params.appId) ? ((await findApp(deps.db, principal.account.id, params.appId)) ?? null) : null;
    // Another account's app and a missing app answer alike, so ids of other accounts leak nothing.
    if (!app) return fail(ErrorCode.NO_PERMISSION, 'No permission for this app');
  }
  const subject = subjectFor(principal.user.id, disallowedFor(principal.user.grants, app?.restricted ?? []));
  if (auth !== 'session' && auth !== 'public' && auth !== 'appKey' && !can(subject, auth)) return fail(ErrorCode.NO_PERMISSION, `No permission: ${JSON.stringify(auth)}`);
  return { ok: true, value: { app, subject } };
}

function register<N extends EndpointName>(router: Router, deps: Deps, name: N, run: Handler<N>, publicRoute: boolean): void {
  const endpoint = endpoints[name];
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  router[method](endpoint.path, async (req: Request, res: Response) => {
    const params = req.params as Record<string, string>;
    let principal: Principal | null = null;
    if (!publicRoute) {
      const auth = await authenticate(deps, req);
      if (!auth.ok) return sendFailure(res, auth);
      principal = auth.value;
    } else {
      const auth = await authenticate(deps, req);
      principal = auth.ok ? auth.value : null;
    }
    let app: App | null = null;
    let subject: PermissionSubject = subjectFor('', []);
    if (principal && !publicRoute) {
      const allowed = await authorize(deps, name, principal, params);
      if (!allowed.ok) return sendFailure(res, allowed);
      ({ app, subject } = allowed.value);
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
    const result = await run({ body: body as BodyOf<N>, query: query as QueryOf<N>, params, principal: principal as Principal, app: app as HandlerCtx<N>['app'], subject, req, res });
    if (!result.ok) return sendFailure(res, result);
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

/** Permission check for a principal outside any app (account screens). */
export function accountSubject(principal: Principal) {
  return subjectFor(principal.user.id, disallowedFor(principal.user.grants));
}
