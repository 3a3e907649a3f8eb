import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIES, ErrorCode, LOGIN_MAX_FAILURES } from '@gd/shared';
import { STRONG_PASSWORD, TestClient, registerAccount, startTestApi, uniqueEmail, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.stop(); });

describe('register', () => {
  it('creates an account whose owner is signed in as Client', async () => {
    const { client } = await registerAccount(api, 'knight');
    const meta = await client.ok<{ user: { roleName: string; userType: number }; account: { plan: string; apiVersion: number } }>('meta');
    expect(meta.user.roleName).toBe('Client');
    expect(meta.user.userType).toBe(1);
    expect(meta.account).toMatchObject({ plan: 'knight', apiVersion: 1 });
  });

  it('requires a plan (10023), a strong password and a free e-mail (10016)', async () => {
    const client = new TestClient(api.url);
    const email = uniqueEmail();
    const noPlan = await client.call('register', { name: 'A', email, password: STRONG_PASSWORD, accountName: 'X' });
    expect(noPlan.body).toMatchObject({ status: 'KO', code: ErrorCode.PLAN_MANDATORY });
    const weak = await client.call('register', { name: 'A', email, password: 'short', accountName: 'X', plan: 'growth' });
    expect(weak.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(JSON.stringify(weak.body.details)).toContain('password');
    await client.ok('register', { name: 'A', email, password: STRONG_PASSWORD, accountName: 'X', plan: 'growth' });
    const again = await new TestClient(api.url).call('register', { name: 'B', email: email.toUpperCase(), password: STRONG_PASSWORD, accountName: 'Y', plan: 'growth' });
    expect(again.body).toMatchObject({ status: 'KO', code: ErrorCode.EMAIL_EXISTS });
  });
});

describe('login and throttling', () => {
  it('signs in with the right password and refuses a wrong one with 10010', async () => {
    const { email } = await registerAccount(api);
    const client = new TestClient(api.url);
    expect((await client.call('login', { email, password: 'Wrong-pass-1!' })).body.code).toBe(ErrorCode.INVALID_USER);
    await client.ok('login', { email, password: STRONG_PASSWORD });
    await client.ok('meta');
  });

  it(`refuses with 10021 after ${LOGIN_MAX_FAILURES} failures, even with the right password`, async () => {
    const { email } = await registerAccount(api);
    const client = new TestClient(api.url);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect((await client.call('login', { email, password: `Wrong-pass-${i}!` })).body.code).toBe(ErrorCode.INVALID_USER);
    }
    const blocked = await client.call('login', { email, password: STRONG_PASSWORD });
    expect(blocked.body.code).toBe(ErrorCode.TOO_MANY_LOGIN_FAILURES);
    expect(blocked.httpStatus).toBe(429);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing call without cookie (10031), without header (10032) or with a mismatch (10033)', async () => {
    const { client } = await registerAccount(api);
    const body = JSON.stringify({ name: 'App', os: 'iOS' });
    const withoutCookie = new TestClient(api.url);
    withoutCookie.cookies = new Map(client.cookies);
    withoutCookie.cookies.delete(AUTH_COOKIES.csrf);
    expect((await withoutCookie.raw('POST', '/apps', { body, csrf: false })).body.code).toBe(ErrorCode.CSRF_COOKIE_FAILURE);
    expect((await client.raw('POST', '/apps', { body, csrf: false })).body.code).toBe(ErrorCode.CSRF_BODY_FAILURE);
    expect((await client.raw('POST', '/apps', { body, headers: { 'x-csrf-token': 'forged.token' } })).body.code).toBe(ErrorCode.CSRF_VERIFICATION_FAILURE);
    // A self-made cookie and header pair that match each other but are not signed by the server.
    client.cookies.set(AUTH_COOKIES.csrf, 'abc.def');
    expect((await client.raw('POST', '/apps', { body, headers: { 'x-csrf-token': 'abc.def' } })).body.code).toBe(ErrorCode.CSRF_VERIFICATION_FAILURE);
    const apps = await client.ok<{ apps: unknown[] }>('listApps');
    expect(apps.apps).toHaveLength(0);
  });
});

describe('sessions', () => {
  it('rotates the refresh token and refuses a reused one (10029), revoking its family', async () => {
    const { client } = await registerAccount(api);
    const first = client.cookies.get(AUTH_COOKIES.refresh)!;
    await client.ok('refresh');
    const second = client.cookies.get(AUTH_COOKIES.refresh)!;
    expect(second).not.toBe(first);

    const thief = new TestClient(api.url);
    thief.cookies.set(AUTH_COOKIES.refresh, first);
    const reused = await thief.call('refresh');
    expect(reused.body).toMatchObject({ status: 'KO', code: ErrorCode.REFRESH_TOKEN_INVALID });
    expect(thief.cookies.has(AUTH_COOKIES.access)).toBe(false);
    await client.ok('refresh');
  });

  it('answers 10005 without a session, 10006 for a forged access token, 10014 for an expired one', async () => {
    const anonymous = new TestClient(api.url);
    expect((await anonymous.call('meta')).body.code).toBe(ErrorCode.ACCESS_TOKEN_MISSING);
    anonymous.cookies.set(AUTH_COOKIES.access, 'eyJhbGciOiJIUzI1NiJ9.e30.forged');
    expect((await anonymous.call('meta')).body.code).toBe(ErrorCode.ACCESS_TOKEN_INVALID);
    const { signAccessToken } = await import('./accessToken.ts');
    const { userId, accountId } = await registerAccount(api);
    anonymous.cookies.set(AUTH_COOKIES.access, await signAccessToken(api.deps.secret, { userId, accountId }, -10));
    expect((await anonymous.call('meta')).body.code).toBe(ErrorCode.ACCESS_TOKEN_EXPIRED);
  });

  it('logout revokes the refresh token and clears the cookies', async () => {
    const { client } = await registerAccount(api);
    const refresh = client.cookies.get(AUTH_COOKIES.refresh)!;
    await client.ok('logout');
    expect(client.cookies.has(AUTH_COOKIES.access)).toBe(false);
    const replay = new TestClient(api.url);
    replay.cookies.set(AUTH_COOKIES.refresh, refresh);
    expect((await replay.call('refresh')).body.code).toBe(ErrorCode.REFRESH_TOKEN_INVALID);
  });
});

describe('passwords', () => {
  it('changes the password only with the right current one (10045) and never to a recent one (10046)', async () => {
    const { client, email } = await registerAccount(api);
    const wrong = await client.call('changePassword', { currentPassword: 'Not-the-one-1!', newPassword: 'Another-Pass-43!' });
    expect(wrong.body.code).toBe(ErrorCode.CURRENT_PASSWORD_INVALID);
    const same = await client.call('changePassword', { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD });
    expect(same.body.code).toBe(ErrorCode.PASSWORD_USED_BEFORE);
    await client.ok('changePassword', { currentPassword: STRONG_PASSWORD, newPassword: 'Another-Pass-43!' });
    const back = await client.call('changePassword', { currentPassword: 'Another-Pass-43!', newPassword: STRONG_PASSWORD });
    expect(back.body.code).toBe(ErrorCode.PASSWORD_USED_BEFORE);
    await new TestClient(api.url).ok('login', { email, password: 'Another-Pass-43!' });
  });

  it('resets a forgotten password through the mailed link, once', async () => {
    const { email } = await registerAccount(api);
    const client = new TestClient(api.url);
    await client.ok('forgotPassword', { email });
    const unknown = await client.call('forgotPassword', { email: uniqueEmail('nobody') });
    expect(unknown.body.status).toBe('OK');
    const mail = await api.waitForMail(email, /forgot-password\?token=/);
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail.text)![1]!);
    expect((await client.call('resetPassword', { token, password: STRONG_PASSWORD })).body.code).toBe(ErrorCode.PASSWORD_USED_BEFORE);
    await client.ok('resetPassword', { token, password: 'Brand-New-Pass-7!' });
    expect((await client.call('resetPassword', { token, password: 'Other-New-Pass-8!' })).body.code).toBe(ErrorCode.FORGOT_PASSWORD_ERROR);
    await client.ok('login', { email, password: 'Brand-New-Pass-7!' });
  });

  it('an invited user signs in once through the auto-login link and sets a password', async () => {
    const { client } = await registerAccount(api);
    const { roles } = await client.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
    const analyst = roles.find((r) => r.builtIn === 'analyst')!;
    const email = uniqueEmail('invitee');
    await client.ok('addUser', { name: 'Invitee', email, roleId: analyst.id });
    const mail = await api.waitForMail(email, /auto-login\?token=/);
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail.text)![1]!);
    const invitee = new TestClient(api.url);
    const login = await invitee.ok<{ redirect: string; user: { passwordSet: boolean } }>('autoLogin', { token });
    expect(login).toMatchObject({ redirect: '/user/password', user: { passwordSet: false } });
    await invitee.ok('changePassword', { newPassword: 'Invitee-Pass-1!' });
    expect((await new TestClient(api.url).call('autoLogin', { token })).body.code).toBe(ErrorCode.TOKEN_NOT_EXIST);
    await new TestClient(api.url).ok('login', { email, password: 'Invitee-Pass-1!' });
  });
});

describe('error contract', () => {
  it('answers malformed JSON, wrong types and oversized bodies with a KO, never a 500', async () => {
    const { client } = await registerAccount(api);
    const malformed = await client.raw('POST', '/apps', { body: '{"name": ' });
    expect(malformed).toMatchObject({ httpStatus: 400, body: { status: 'KO', code: ErrorCode.MANDATORY, message: 'Malformed JSON body' } });
    const wrongTypes = await client.raw('POST', '/apps', { body: JSON.stringify({ name: 42, os: ['iOS'] }) });
    expect(wrongTypes.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect((wrongTypes.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual(['name', 'os']);
    const huge = await client.raw('POST', '/apps', { body: JSON.stringify({ name: 'x'.repeat(200_000), os: 'iOS' }) });
    expect(huge).toMatchObject({ httpStatus: 413, body: { status: 'KO', code: ErrorCode.GENERIC } });
    const missing = await client.raw('GET', '/no/such/route');
    expect(missing.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
  });
});
