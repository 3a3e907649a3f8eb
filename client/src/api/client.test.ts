import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import { buildRequest, createApiClient, prepareBody, readAnswer, readCookie, shouldRefresh, type ApiClientDeps } from './client.ts';
import { ApiError } from './errors.ts';

const ctx = { baseUrl: '/api', language: 'es', apiVersion: 1, csrfToken: 'tok' } as const;
const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('request bodies and buildRequest', () => {
  it('builds a validated JSON POST with language, version, no-cache and CSRF headers', async () => {
    const body = await prepareBody('login', { email: '  Ana@Example.com ', password: 'x' });
    const { url, init } = buildRequest('login', undefined, body, ctx);
    expect(url).toBe('/api/auth/login');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(headersOf(init)).toMatchObject({
      'Accept-Language': 'es', 'X-Api-Version': 'V10', 'Cache-Control': 'no-cache', 'x-csrf-token': 'tok', 'Content-Type': 'application/json',
    });
    expect(JSON.parse(init.body as string)).toEqual({ email: 'ana@example.com', password: 'x' });
  });

  it('sends V20 for API version 2 and no CSRF header or body on GET', async () => {
    const body = await prepareBody('meta', undefined);
    expect(body).toBeUndefined();
    const { url, init } = buildRequest('meta', undefined, body, { ...ctx, apiVersion: 2 });
    expect(url).toBe('/api/user/meta');
    expect(headersOf(init)['X-Api-Version']).toBe('V20');
    expect(headersOf(init)['x-csrf-token']).toBeUndefined();
    expect(headersOf(init)['Content-Type']).toBeUndefined();
    expect(init.body).toBeUndefined();
  });

  it('fills path parameters and writes range queries with key[]=value', () => {
    const { url } = buildRequest('listTestDevices', { params: { appId: 'a b' }, query: { startDay: '2025-01-01', os: ['iOS', 'Android'], __internal: 'x' } }, undefined, ctx);
    expect(url).toBe('/api/apps/a%20b/test-devices?startDay=2025-01-01&os[]=iOS&os[]=Android');
  });

  it('addresses feature endpoints from the route table', () => {
    const { url, init } = buildRequest('deleteTag', { params: { appId: 'app1', tagId: 't1' } }, '{}', ctx);
    expect(url).toBe('/api/apps/app1/tags/t1');
    expect(init.method).toBe('DELETE');
    expect(headersOf(init)['x-csrf-token']).toBe('tok');
  });

  it('throws a missing path parameter before sending', () => {
    expect(() => buildRequest('deleteApp', {}, '{}', ctx)).toThrow(/appId/);
  });

  it('validates the body with the endpoint schema and reports field details (10001)', async () => {
    const error = await prepareBody('login', { email: 'not-an-email', password: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.code).toBe(ErrorCode.MANDATORY);
    expect(Object.keys(e.fieldErrors()).sort()).toEqual(['email', 'password']);
  });

  it("validates a feature endpoint's body with its schema, loaded with the full table", async () => {
    const body = await prepareBody('createTag', { name: '  plan ', kind: 'user_tag', valueType: 'text', description: ' paying ' });
    expect(JSON.parse(body!)).toEqual({ name: 'plan', kind: 'user_tag', valueType: 'text', description: 'paying' });
    const error = await prepareBody('createTag', { name: 'no/slash', kind: 'user_tag', valueType: 'colour' as 'text' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(ErrorCode.MANDATORY);
    expect(Object.keys((error as ApiError).fieldErrors()).sort()).toEqual(['name', 'valueType']);
  });

  it('drops reserved-prefix fields from bodies', async () => {
    const body = { name: 'n', __draft: true } as unknown as { name: string };
    expect(JSON.parse((await prepareBody('updateProfile', body))!)).toEqual({ name: 'n' });
  });

  it('sends an empty JSON body on POST endpoints without a request schema', async () => {
    const body = await prepareBody('logout', undefined);
    expect(body).toBe('{}');
    expect(buildRequest('logout', undefined, body, ctx).init.body).toBe('{}');
    expect(await prepareBody('retryImportTask', undefined)).toBe('{}');
  });
});

describe('answers', () => {
  it('returns OK bodies and throws KO bodies as ApiError with details', () => {
    expect(readAnswer(200, { status: 'OK', x: 1 })).toEqual({ status: 'OK', x: 1 });
    try {
      readAnswer(400, { status: 'KO', code: 10016, message: 'exists', details: [{ path: 'email', message: 'Already registered' }] });
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).code).toBe(10016);
      expect((error as ApiError).fieldErrors()).toEqual({ email: 'Already registered' });
    }
    expect(() => readAnswer(502, undefined)).toThrow(/HTTP 502/);
  });

  it('refreshes on an expired token, and on a missing token only with a session', () => {
    expect(shouldRefresh('meta', new ApiError(10014, ''), false)).toBe(true);
    expect(shouldRefresh('meta', new ApiError(10005, ''), true)).toBe(true);
    expect(shouldRefresh('meta', new ApiError(10005, ''), false)).toBe(false);
    expect(shouldRefresh('login', new ApiError(10014, ''), true)).toBe(false);
    expect(shouldRefresh('meta', new ApiError(10010, ''), true)).toBe(false);
  });

  it('reads cookies', () => {
    expect(readCookie('a=1; gd_csrf=abc.def%3D; b=2', 'gd_csrf')).toBe('abc.def=');
    expect(readCookie('a=1', 'gd_csrf')).toBeUndefined();
  });
});

type Handler = (path: string, init: RequestInit) => { status?: number; body: unknown };
function harness(handler: Handler, overrides: Partial<ApiClientDeps> = {}) {
  const calls: { path: string; init: RequestInit }[] = [];
  const fetch = vi.fn((url: string, init: RequestInit) => {
    const path = url.replace('/api', '');
    calls.push({ path, init });
    const { status = 200, body } = handler(path, init);
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  const onSessionExpired = vi.fn();
  const client = createApiClient({
    baseUrl: () => '/api', fetch, language: () => 'en', apiVersion: () => 2,
    csrfCookie: () => undefined, hasSession: () => true, onSessionExpired, ...overrides,
  });
  return { client, calls, onSessionExpired };
}
const ok = (extra: object = {}) => ({ body: { status: 'OK', ...extra } });
const ko = (code: number) => ({ status: 401, body: { status: 'KO', code, message: `code ${code}` } });

describe('createApiClient', () => {
  it('fetches a CSRF token first when the cookie is missing, then reuses it', async () => {
    const { client, calls } = harness((path) => (path === '/auth/csrf' ? ok({ csrfToken: 'T1' }) : ok({ user: {} })));
    await client.call('logout');
    await client.call('logout');
    expect(calls.map((c) => c.path)).toEqual(['/auth/csrf', '/auth/logout', '/auth/logout']);
    expect(headersOf(calls[1]!.init)['x-csrf-token']).toBe('T1');
  });

  it('uses the readable CSRF cookie when present', async () => {
    const { client, calls } = harness(() => ok(), { csrfCookie: () => 'COOKIE' });
    await client.call('logout');
    expect(calls.map((c) => c.path)).toEqual(['/auth/logout']);
    expect(headersOf(calls[0]!.init)['x-csrf-token']).toBe('COOKIE');
  });

  it('refetches the CSRF token once after a CSRF refusal', async () => {
    let tokens = 0;
    const { client, calls } = harness((path, init) => {
      if (path === '/auth/csrf') return ok({ csrfToken: `T${++tokens}` });
      return headersOf(init)['x-csrf-token'] === 'T2' ? ok() : ko(ErrorCode.CSRF_VERIFICATION_FAILURE);
    });
    await client.call('logout');
    expect(calls.map((c) => c.path)).toEqual(['/auth/csrf', '/auth/logout', '/auth/csrf', '/auth/logout']);
  });

  it('refreshes once for concurrent expired calls and retries them', async () => {
    let refreshed = false;
    const { client, calls } = harness((path) => {
      if (path === '/auth/csrf') return ok({ csrfToken: 'T' });
      if (path === '/auth/refresh') {
        refreshed = true;
        return ok();
      }
      return refreshed ? ok({ apps: [] }) : ko(ErrorCode.ACCESS_TOKEN_EXPIRED);
    });
    const [a, b] = await Promise.all([client.call('listApps'), client.call('listApps')]);
    expect(a).toMatchObject({ status: 'OK' });
    expect(b).toMatchObject({ status: 'OK' });
    expect(calls.filter((c) => c.path === '/auth/refresh')).toHaveLength(1);
    expect(calls.filter((c) => c.path === '/apps')).toHaveLength(4);
  });

  it('ends the session when the refresh is refused', async () => {
    const { client, onSessionExpired } = harness((path) => {
      if (path === '/auth/csrf') return ok({ csrfToken: 'T' });
      if (path === '/auth/refresh') return ko(ErrorCode.REFRESH_TOKEN_EXPIRED);
      return ko(ErrorCode.ACCESS_TOKEN_MISSING);
    });
    await expect(client.call('listApps')).rejects.toMatchObject({ code: ErrorCode.ACCESS_TOKEN_MISSING });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh a missing token without a session', async () => {
    const { client, calls, onSessionExpired } = harness(() => ko(ErrorCode.ACCESS_TOKEN_MISSING), { hasSession: () => false });
    await expect(client.call('listApps')).rejects.toMatchObject({ code: 10005 });
    expect(calls.map((c) => c.path)).toEqual(['/apps']);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('rejects an invalid body before any request, CSRF token included', async () => {
    const { client, calls } = harness(() => ok({ csrfToken: 'T' }));
    await expect(client.call('login', { body: { email: 'nobody', password: 'x' } })).rejects.toMatchObject({ code: ErrorCode.MANDATORY });
    expect(calls).toEqual([]);
  });

  it('validates a feature endpoint body with its lazily loaded schema: an invalid one throws 10001 without a request', async () => {
    const { client, calls } = harness((path) => (path === '/auth/csrf' ? ok({ csrfToken: 'T' }) : ok({ segment: {} })));
    const invalid = client.call('createSegment', { params: { appId: 'app1' }, body: { name: '   ' } });
    await expect(invalid).rejects.toBeInstanceOf(ApiError);
    await expect(invalid).rejects.toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'name' })] });
    expect(calls).toEqual([]);

    await client.call('createSegment', { params: { appId: 'app1' }, body: { name: '  Buyers ' } });
    expect(calls.map((c) => `${c.init.method} ${c.path}`)).toEqual(['GET /auth/csrf', 'POST /apps/app1/segments']);
    expect(JSON.parse(calls[1]!.init.body as string)).toEqual({ name: 'Buyers' });
  });

  it('turns a network failure into ApiError network', async () => {
    const client = createApiClient({
      baseUrl: () => '/api', fetch: () => Promise.reject(new TypeError('Failed to fetch')), language: () => 'en',
      apiVersion: () => 2, csrfCookie: () => 'c', hasSession: () => false, onSessionExpired: () => undefined,
    });
    await expect(client.call('listApps')).rejects.toMatchObject({ code: 'network' });
  });
});
