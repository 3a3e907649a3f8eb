/**
 * API base URL (SPEC.md section 7): derived from the page host with a `ws.` prefix, with an
 * optional override (used locally, where the API serves the app on the same origin).
 */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export function deriveApiBase(location: { protocol: string; host: string } | undefined, override?: string | null): string {
  if (override) return override.replace(/\/+$/, '');
  if (!location || !location.host) {
    throw new ConfigurationError('API base URL is missing: no page host to derive it from and no override set (VITE_API_BASE)');
  }
  const host = location.host.startsWith('ws.') ? location.host : `ws.${location.host}`;
  return `${location.protocol}//${host}`;
}

/**
 * Range query string: arrays as key[]=value, pairs joined with &. Fields with the reserved
 * prefix (`__`) are dropped, as they are from request bodies.
 */
export const RESERVED_PREFIX = '__';
export function rangeQuery(params: Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || key.startsWith(RESERVED_PREFIX)) continue;
    if (Array.isArray(value)) {
      for (const v of value) parts.push(`${encodeURIComponent(key)}[]=${encodeURIComponent(String(v))}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

export function dropReserved<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !k.startsWith(RESERVED_PREFIX))) as Partial<T>;
}

/** The API version header: `V20` for API version 2, `V10` for version 1. */
export const API_VERSION_HEADER = 'X-Api-Version';
export const apiVersionHeaderValue = (version: 1 | 2) => (version === 2 ? 'V20' : 'V10');
