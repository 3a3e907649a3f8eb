/**
 * Sessions end when they are ended, not up to 15 minutes later: an access token stops working at
 * once after logout, after a password change (the other sessions; the changing one stays), after a
 * password reset (all), and after a stolen refresh token was reused. Reset links die once one is
 * used. Mailed links never follow a forged Host header. Role ids of another account answer like
 * unused ones.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIES, CSRF_HEADER, ErrorCode } from '@gd/shared';
import { STRONG_PASSWORD, TestClient, registerAccount, startTestApi, uniqueEmail, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let hosted: TestApi;

beforeAll(async () => {
  [api, hosted] = await Promise.all([
    startTestApi(),
    startTestApi({ PUBLIC_URL: 'https://app.example.com', PUBLIC_HOSTS: 'eu.example.com' }),
  ]);
});
afterAll(async () => {
  await Promise.all([api?.stop(), hosted?.stop()]);
});

/** A second browser holding the same cookies (a copied access token still in its lifetime). */
const copyOf = (client: TestClient) => Object.assign(new TestClient(client.base), { cookies: new Map(client.cookies) });
const signIn = async (email: string, password = STRONG_PASSWORD) => {
  const client = new TestClient(api.url);
  await client.ok('login', { email, password });
  return client;
};
const meta = async (client: TestClient) => (await client.call('meta')).body;

describe('ending sessions', () => {
  it('logout: the access token stops working at once', async () => {
    const { client } = await registerAccount(api);
    const stolen = copyOf(client);
    expect((await meta(stolen)).status).toBe('OK');
    await client.ok('logout');
    expect(await meta(stolen)).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_EXPIRED });
  });

  it('a password change signs out the other sessions, and keeps this one', async () => {
    const { client, email } = await registerAccount(api);
    const laptop = await signIn(email);
    await client.ok('changePassword', { currentPassword: STRONG_PASSWORD, newPassword: 'Changed-Pass-51!' });
    expect((await meta(client)).status).toBe('OK');
    expect(await meta(laptop)).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_EXPIRED });
    expect((await laptop.call('refresh')).body.code).toBe(ErrorCode.REFRESH_TOKEN_INVALID);
    expect((await client.call('refresh')).body.status).toBe('OK');
  });

  it('a password reset signs out every session, and a used reset link voids the older ones', async () => {
    const { client, email } = await registerAccount(api);
    const anon = new TestClient(api.url);
    const linkToken = async () => {
      await anon.ok('forgotPassword', { email });
      // Each call answers the next reset mail: the first link, then the second.
      return decodeURIComponent(/token=([^\s]+)/.exec((await api.waitForMail(email, /forgot-password\?token=/)).text)![1]!);
    };
    const older = await linkToken();
    const newer = await linkToken();
    await anon.ok('resetPassword', { token: newer, password: 'Reset-Pass-61!' });
    expect(await meta(client)).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_EXPIRED });
    expect((await anon.call('resetPassword', { token: older, password: 'Reset-Pass-62!' })).body.code).toBe(ErrorCode.FORGOT_PASSWORD_ERROR);
    await signIn(email, 'Reset-Pass-61!');
  });

  it('a refresh token reused after the grace period revokes the family: the holder signs in again', async () => {
    const { client } = await registerAccount(api);
    const thief = copyOf(client);
    await client.ok('refresh'); // the legitimate holder rotates; the thief holds the used token
    await api.db.query(`UPDATE refresh_tokens SET used_at = now() - interval '1 minute' WHERE used_at IS NOT NULL AND revoked_at IS NULL
      AND family_id IN (SELECT family_id FROM refresh_tokens WHERE token_hash = sha256($1::bytea))`, [Buffer.from(thief.cookies.get(AUTH_COOKIES.refresh)!)]);
    expect((await thief.call('refresh')).body.code).toBe(ErrorCode.REFRESH_TOKEN_INVALID);
    expect(await meta(client)).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_EXPIRED });
    expect((await client.call('refresh')).body.code).toBe(ErrorCode.REFRESH_TOKEN_INVALID);
  });
});

/** POST with a forged Host header (fetch cannot set one). */
async function postWithHost(base: string, path: string, host: string, body: unknown): Promise<number> {
  const client = new TestClient(base);
  await client.raw('GET', '/auth/csrf');
  const csrf = client.cookies.get(AUTH_COOKIES.csrf)!;
  const url = new URL(`${base}/api${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json', cookie: `${AUTH_COOKIES.csrf}=${csrf}`, [CSRF_HEADER]: csrf },
    }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('mailed links', () => {
  it('never point at a forged Host: without PUBLIC_URL they use the address the API listens on', async () => {
    const { email } = await registerAccount(api);
    expect(await postWithHost(api.url, '/auth/forgot-password', 'attacker.example', { email })).toBe(200);
    const mail = await api.waitForMail(email, /forgot-password\?token=/);
    expect(mail.text).not.toContain('attacker.example');
    expect(mail.text).toContain(`${api.url}/`);
  });

  it('with PUBLIC_URL: that address, or a listed host of the deployment, never another', async () => {
    const { email } = await registerAccount(hosted);
    await postWithHost(hosted.url, '/auth/forgot-password', 'attacker.example', { email });
    expect((await hosted.waitForMail(email, /forgot-password\?token=/)).text).toContain('https://app.example.com/');
    await postWithHost(hosted.url, '/auth/forgot-password', 'eu.example.com', { email });
    const eu = await hosted.waitForMail(email, /forgot-password\?token=/);
    expect(eu.text).toContain('https://eu.example.com/');
    expect(eu.text).not.toContain('attacker.example');
  });

  it('invitations too', async () => {
    const { client } = await registerAccount(hosted);
    const { roles } = await client.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
    const email = uniqueEmail('invitee');
    await client.ok('addUser', { name: 'Invitee', email, roleId: roles.find((r) => r.builtIn === 'analyst')!.id });
    expect((await hosted.waitForMail(email, /auto-login\?token=/)).text).toContain('https://app.example.com/');
  });
});

describe('role ids of another account', () => {
  it('answer exactly like unused ids', async () => {
    const [{ client: victim }, { client: intruder }] = await Promise.all([registerAccount(api), registerAccount(api)]);
    const role = { name: 'Victim role', userType: 5, grants: ['ui:tags.view'] };
    const victimRoleId = randomUUID();
    await victim.ok('putRole', role, { roleId: victimRoleId });
    const strip = (a: { httpStatus: number; body: Record<string, unknown> }) => ({ httpStatus: a.httpStatus, status: a.body.status, code: a.body.code, message: a.body.message });

    const deleteForeign = await intruder.call('deleteRole', undefined, { roleId: victimRoleId });
    const deleteUnused = await intruder.call('deleteRole', undefined, { roleId: randomUUID() });
    expect(strip(deleteForeign)).toEqual(strip(deleteUnused));

    const putForeign = await intruder.call('putRole', { ...role, name: 'Probe A' }, { roleId: victimRoleId });
    const unused = randomUUID();
    const putUnused = await intruder.call('putRole', { ...role, name: 'Probe B' }, { roleId: unused });
    expect(putForeign.httpStatus).toBe(putUnused.httpStatus);
    expect(putForeign.body).toMatchObject({ status: 'OK', role: { id: victimRoleId, name: 'Probe A' } });
    expect(putUnused.body).toMatchObject({ status: 'OK', role: { id: unused, name: 'Probe B' } });
    // The victim's role is untouched, and each account lists only its own.
    const { roles } = await victim.ok<{ roles: { id: string; name: string }[] }>('listRoles');
    expect(roles.find((r) => r.id === victimRoleId)?.name).toBe('Victim role');
    const email = uniqueEmail('probe');
    const invite = await intruder.call('addUser', { name: 'Probe', email, roleId: victimRoleId });
    expect(invite.body.status).toBe('OK'); // its own role of that id
  });
});
