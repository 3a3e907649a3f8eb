/** Mapping results and failures to the `{status:"OK"|"KO"}` envelope. Only this file writes answers. */
import type { Response } from 'express';
import { ErrorCode, type ErrorCodeValue, type Failure, type FieldIssue } from '@gd/shared';

/** HTTP status for a catalogue code; the body's `code` is the contract, the status helps caches and tools. */
export function httpStatusFor(code: ErrorCodeValue): number {
  switch (code) {
    case ErrorCode.NOT_EXIST:
    case ErrorCode.SHORT_LINK_NOT_FOUND:
      return 404;
    case ErrorCode.NAME_DUPLICATED:
    case ErrorCode.TOKEN_DUPLICATED:
    case ErrorCode.EMAIL_EXISTS:
    case ErrorCode.EVENT_COLLISION:
      return 409;
    case ErrorCode.ACCESS_TOKEN_MISSING:
    case ErrorCode.ACCESS_TOKEN_INVALID:
    case ErrorCode.ACCESS_TOKEN_EXPIRED:
    case ErrorCode.ACCESS_TOKEN_NOT_EXISTING:
    case ErrorCode.REFRESH_TOKEN_INVALID:
    case ErrorCode.REFRESH_TOKEN_EXPIRED:
    case ErrorCode.INVALID_USER:
    case ErrorCode.API_KEY_MISSING:
    case ErrorCode.API_KEY_INVALID:
      return 401;
    case ErrorCode.NO_PERMISSION:
    case ErrorCode.CSRF_COOKIE_FAILURE:
    case ErrorCode.CSRF_BODY_FAILURE:
    case ErrorCode.CSRF_VERIFICATION_FAILURE:
    case ErrorCode.ACCESS_TOKEN_WITHOUT_PRIVILEGES:
      return 403;
    case ErrorCode.TOO_MANY_LOGIN_FAILURES:
      return 429;
    case ErrorCode.GENERIC:
    case ErrorCode.DATABASE_ERROR:
    case ErrorCode.STORAGE:
      return 500;
    default:
      return 400;
  }
}

export function sendOk(res: Response, body: object = {}, status = 200): void {
  res.status(status).json({ status: 'OK', ...body });
}

export function sendKo(res: Response, code: ErrorCodeValue, message: string, details?: FieldIssue[], status = httpStatusFor(code)): void {
  res.status(status).json(details ? { status: 'KO', code, message, details } : { status: 'KO', code, message });
}

export function sendFailure(res: Response, failure: Failure): void {
  sendKo(res, failure.code, failure.message, failure.details);
}

/** A failure thrown from middleware, caught by the error handler and sent as KO. */
export class HttpFailure extends Error {
  readonly code: ErrorCodeValue;
  readonly details: FieldIssue[] | undefined;
  readonly status: number | undefined;
  constructor(code: ErrorCodeValue, message: string, details?: FieldIssue[], status?: number) {
    super(message);
    this.code = code;
    this.details = details;
    this.status = status;
  }
}
