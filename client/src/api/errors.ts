/** Typed failure of an API call: the KO answer's code, message and field details, or `network`. */
import type { FieldIssue } from '@gd/shared/errors';

export type ApiErrorCode = number | 'network';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly details: readonly FieldIssue[];

  constructor(code: ApiErrorCode, message: string, details: readonly FieldIssue[] = []) {
    super(message);
    this.code = code;
    this.details = details;
  }

  /** Field messages by path (`email`, `plan`, ...), for forms. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const d of this.details) if (d.path && !(d.path in out)) out[d.path] = d.message;
    return out;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
export const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';
