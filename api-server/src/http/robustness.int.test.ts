/**
 * Bad input anywhere gets a clear KO with the catalogue's code, never a 500: a NUL character or an
 * unpaired surrogate in a path parameter, a query string or a body (values and keys) on every route
 * of the endpoint table; a request line over 16 KB; a state conflict (stopping a journey that was
 * never launched).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, NAME_MAX, endpoints, type EndpointName } from '@gd/shared';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../testing/harness.ts';

let api: TestApi;
let owner: TestClient;
let appId: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ client: owner } = await registerAccount(api));
  appId = (await createTestApp(owner)).id;
});
afterAll(async () => { await api.stop(); });

// Ingestion (app keys) refuses such text event by event: features/ingest tests it.
const routes = (Object.keys(endpoints) as EndpointName[]).filter((n) => endpoints[n].auth !== 'appKey');
const withParams = routes.filter((n) => endpoints[n].path.includes(':'));
const withBody = routes.filter((n) => endpoints[n].method !== 'GET' && endpoints[n].method !== 'DELETE');
/** Already percent-encoded: a NUL, and bytes that are no UTF-8 (what a lone surrogate becomes in a URL). */
const BAD_IN_URL = ['a%00b', 'half%20%ED%A0%BD', '%ED%B0%80'];

/** `name`'s path with parameter `only` set to `encoded` (already percent-encoded), the others valid. */
function pathOf(name: EndpointName, encoded: string, only?: string): string {
  return endpoints[name].path.replace(/:(\w+)/g, (_m, param: string) =>
    only === param ? encoded : param === 'appId' ? appId : '00000000-0000-4000-8000-000000000000');
}
const expectRefused = (answer: { httpStatus: number; body: { status: string; code?: number } }) => {
  expect(answer.httpStatus).toBe(400);
  expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
};

describe('text Postgres cannot store', () => {
  it.each(withParams)('%s: in each path parameter, 10001', async (name) => {
    for (const param of [...endpoints[name].path.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
      for (const bad of BAD_IN_URL) expectRefused(await owner.raw(endpoints[name].method, pathOf(name, bad, param), endpoints[name].method === 'GET' ? {} : { body: '{}' }));
    }
  });

  it.each(routes)('%s: in the query string, 10001', async (name) => {
    const init = endpoints[name].method === 'GET' ? {} : { body: '{}' };
    expectRefused(await owner.raw(endpoints[name].method, `${pathOf(name, 'x', '')}?q=a%00b`, init));
    expectRefused(await owner.raw(endpoints[name].method, `${pathOf(name, 'x', '')}?list[]=ok&list[]=a%00`, init));
    // Bytes that are no UTF-8 stay as they were written: never a 5xx (reads only: a write would act).
    if (endpoints[name].method === 'GET') expect((await owner.raw('GET', `${pathOf(name, 'x', '')}?q=%ED%A0%80`)).httpStatus).toBeLessThan(500);
  });

  it.each(withBody)('%s: in a body value, a nested value or a key, 10001 naming the place', async (name) => {
    const path = pathOf(name, 'x', '');
    for (const body of [{ name: 'a\u0000b' }, { source: { type: 'csv', csvContent: 'x\ud800' } }, { filters: [{ ['k\u0000']: 1 }] }]) {
      const answer = await owner.raw(endpoints[name].method, path, { body: JSON.stringify(body) });
      expectRefused(answer);
      expect(answer.body.message).toMatch(/NUL character or an unpaired surrogate/);
    }
  });

  it('lets paired surrogates (emoji) through', async () => {
    const { app } = await owner.ok<{ app: { name: string } }>('createApp', { name: 'Shop 🛍️', os: 'iOS' });
    expect(app.name).toBe('Shop 🛍️');
  });
});

describe('requests Node refuses itself', () => {
  it('a request line over 16 KB answers the JSON error envelope (431)', async () => {
    const url = new URL(`${api.url}/api/user/meta?q=${'x'.repeat(20_000)}`);
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      http.get(url, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => { body += c.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      }).on('error', reject);
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect((await owner.call('meta')).httpStatus).toBe(200); // and the server goes on
  });
});

describe('state conflicts', () => {
  it('stopping a journey that was never launched is a 409 KO, not a 500', async () => {
    const { journey } = await owner.ok<{ journey: { id: string } }>('createJourney', { name: 'Draft' }, { appId });
    const answer = await owner.call('stopJourney', {}, { appId, journeyId: journey.id });
    expect(answer.httpStatus).toBe(409);
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.GENERIC, message: 'Only a live journey can be stopped' });
  });
});

describe('schema failures say what was wrong, for forms to translate', () => {
  it('a name too long: 10001 with the field, the zod issue code and the limit', async () => {
    const answer = await owner.call('createJourney', { name: 'x'.repeat(NAME_MAX + 1) }, { appId });
    expect(answer.httpStatus).toBe(400);
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'name', issue: { code: 'too_big', origin: 'string', maximum: NAME_MAX } }] });
  });
});
