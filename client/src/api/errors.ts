/** Typed failure of an API call: the KO answer's code, message and field details, or `network`. */
import type { FieldIssue } from '@gd/shared/errors';

export type ApiErrorCode = number | 'network';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly details: readonly FieldIssue[];
  /** The HTTP status of the answer (503: a service the action needs is down, retryable). */
  readonly httpStatus: number | undefined;

  constructor(code: ApiErrorCode, message: string, details: readonly FieldIssue[] = [], httpStatus?: number) {
    super(message);
    this.code = code;
    this.details = details;
    this.httpStatus = httpStatus;
  }

  /** Field messages by path (`email`, `plan`, ...), for forms. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const d of this.details) if (d.path && !(d.path in out)) out[d.path] = d.message;
    return out;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
/** The server could not be reached at all (offline, DNS, refused): kept copies stand in. */
export const isNetworkError = (error: unknown): boolean => error instanceof ApiError && error.code === 'network';
export const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';
