/** The product's JSON API from a test's request context (cookies of its browser context), with the CSRF token it asks for; the answer must be OK. */
import { expect, type APIRequestContext } from '@playwright/test';

export async function call(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrfToken }, ...(data === undefined ? {} : { data }) });
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

/** A minimal RFC 4180 reader (an exported CSV as rows of cells). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  return rows;
}
