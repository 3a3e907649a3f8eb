import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, parseOrigins } from './cors.ts';

describe('CORS origins for the web app', () => {
  const none = new Set<string>();

  it('allows the page host that the ws. prefix turns into the API host', () => {
    expect(isAllowedOrigin('https://app.example.com', 'ws.app.example.com', none)).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', 'ws.localhost:5173', none, 'http')).toBe(true);
    expect(isAllowedOrigin('https://APP.example.com', 'WS.app.example.com', none)).toBe(true);
  });

  it('refuses other hosts, other ports, look-alikes and non-web schemes', () => {
    expect(isAllowedOrigin('https://evil.example.com', 'ws.app.example.com', none)).toBe(false);
    expect(isAllowedOrigin('https://app.example.com:8443', 'ws.app.example.com', none)).toBe(false);
    expect(isAllowedOrigin('https://ws.app.example.com', 'ws.app.example.com', none)).toBe(false);
    expect(isAllowedOrigin('https://example.com', 'ws.app.example.com', none)).toBe(false);
    expect(isAllowedOrigin('null', 'ws.app.example.com', none)).toBe(false);
    expect(isAllowedOrigin('file:///etc/passwd', 'ws.app.example.com', none)).toBe(false);
  });

  it('never lets an http:// page use the session of an API served over https (scheme must match)', () => {
    expect(isAllowedOrigin('http://app.example.com', 'ws.app.example.com', none, 'https')).toBe(false);
    expect(isAllowedOrigin('https://app.example.com', 'ws.app.example.com', none, 'https')).toBe(true);
    expect(isAllowedOrigin('http://app.example.com', 'ws.app.example.com', none, 'http')).toBe(true);
    // An explicitly listed origin is the operator's choice.
    expect(isAllowedOrigin('http://localhost:5173', 'api.example.com', parseOrigins('http://localhost:5173'), 'https')).toBe(true);
    expect(isAllowedOrigin('https://app.example.com', undefined, none)).toBe(false);
  });

  it('allows the origins listed in CORS_ORIGINS, normalised', () => {
    const listed = parseOrigins(' https://console.example.org/ , http://localhost:5173 ,');
    expect([...listed]).toEqual(['https://console.example.org', 'http://localhost:5173']);
    expect(isAllowedOrigin('https://console.example.org', 'api.example.org', listed)).toBe(true);
    expect(isAllowedOrigin('https://console.example.org:444', 'api.example.org', listed)).toBe(false);
  });

  it('refuses a CORS_ORIGINS entry that is not a URL', () => {
    expect(() => parseOrigins('console.example.org')).toThrow();
  });
});
