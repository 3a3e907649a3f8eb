/** CORS on the real server: a web app on another host (SPEC.md 7, `ws.` prefix) calls the API with its cookies. */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../testing/harness.ts';

let api: TestApi;
beforeAll(async () => { api = await startTestApi({ CORS_ORIGINS: 'https://console.example.org' }); });
afterAll(async () => { await api.stop(); });

/** node:http, because fetch may not set the Host header: the API is reached as ws.app.example.com. */
function request(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(`${api.url}/api${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: url.pathname, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The API behind a TLS-terminating proxy on loopback (trusted), as deployed. */
const tls = { 'x-forwarded-proto': 'https' };

describe('CORS for the web app on another host', () => {
  it('answers the preflight of the page host behind the ws. prefix, with credentials', async () => {
    const res = await request('OPTIONS', '/user/meta', {
      host: 'ws.app.example.com', origin: 'https://app.example.com', ...tls,
      'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type, x-csrf-token, x-api-version',
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toContain('PUT');
    expect(res.headers['access-control-allow-headers']).toContain('x-csrf-token');
    expect(res.headers['access-control-allow-headers']).toContain('x-api-version');
  });

  it('marks the actual answer readable by that origin (and only that one)', async () => {
    const res = await request('GET', '/auth/csrf', { host: 'ws.app.example.com', origin: 'https://app.example.com', ...tls });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers.vary).toMatch(/origin/i);
    const listed = await request('GET', '/auth/csrf', { host: 'api.example.org', origin: 'https://console.example.org' });
    expect(listed.headers['access-control-allow-origin']).toBe('https://console.example.org');
  });

  it('gives another origin no CORS headers and refuses its preflight with 10004', async () => {
    const res = await request('GET', '/auth/csrf', { host: 'ws.app.example.com', origin: 'https://evil.example.net' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request('OPTIONS', '/user/meta', { host: 'ws.app.example.com', origin: 'https://evil.example.net', 'access-control-request-method': 'GET' });
    expect(preflight.status).toBe(403);
    expect(JSON.parse(preflight.body)).toMatchObject({ status: 'KO', code: 10004 });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('never gives an http:// page the session of an API served over https', async () => {
    const res = await request('GET', '/auth/csrf', { host: 'ws.app.example.com', origin: 'http://app.example.com', ...tls });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request('OPTIONS', '/user/meta', { host: 'ws.app.example.com', origin: 'http://app.example.com', 'access-control-request-method': 'GET', ...tls });
    expect(preflight.status).toBe(403);
    // The same page over plain http, to an API itself on plain http (development): allowed.
    const plain = await request('GET', '/auth/csrf', { host: 'ws.app.example.com', origin: 'http://app.example.com' });
    expect(plain.headers['access-control-allow-origin']).toBe('http://app.example.com');
  });
});
