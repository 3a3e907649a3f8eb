/** The product's JSON API from a test's request context (cookies of its browser context), with the CSRF token it asks for; the answer must be OK. */
import { expect, type APIRequestContext } from '@playwright/test';
import { parseCsv as parseCsvWith } from '../../api-server/src/testing/csv.ts';

export async function call(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrfToken }, ...(data === undefined ? {} : { data }) });
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

/** An exported CSV as rows of cells, LF or CRLF row ends (the shared test reader). */
export const parseCsv = (text: string): string[][] => parseCsvWith(text, { anyLineEnd: true });
