/** Mapping results and failures to the `{status:"OK"|"KO"}` envelope. Only this file writes answers. */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
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

const SERIALISED = Symbol('serialised answer');

/**
 * An OK answer serialised once (the whole `{status:"OK", ...}` envelope, as `sendOk` writes it) with
 * its entity tag, for an answer a handler keeps and sends again (GET /user/meta). `T` is the
 * endpoint's response type, so a handler can only return a serialisation of its own answer.
 */
export interface Serialised<T> {
  readonly [SERIALISED]: true;
  readonly body: Buffer;
  /** Weak tag from the bytes, in Express's format: `W/"<length hex>-<sha1 base64, 27 chars>"`. */
  readonly etag: string;
  /** Never set: carries `T`. */
  readonly type?: T;
}

export function serialise<T extends object>(value: T): Serialised<T> {
  const body = Buffer.from(JSON.stringify({ status: 'OK', ...value }), 'utf8');
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return { [SERIALISED]: true, body, etag: `W/"${body.length.toString(16)}-${hash}"` };
}

export function isSerialised<T>(value: T | Serialised<T>): value is Serialised<T> {
  return typeof value === 'object' && value !== null && SERIALISED in value;
}

/** Sends a serialised answer as is; 304 without a body when the request's If-None-Match names it. */
export function sendSerialised(req: Request, res: Response, answer: Serialised<unknown>): void {
  res.setHeader('ETag', answer.etag);
  if (noneMatchNames(req.headers['if-none-match'], answer.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', answer.body.length);
  res.end(answer.body);
}

/** If-None-Match (RFC 9110 13.1.2, weak comparison): `*` or a list of tags, one of them ours. */
function noneMatchNames(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

export function sendKo(res: Response, code: ErrorCodeValue, message: string, details?: FieldIssue[], status = httpStatusFor(code)): void {
  res.status(status).json(details ? { status: 'KO', code, message, details } : { status: 'KO', code, message });
}

export function sendFailure(res: Response, failure: Failure): void {
  sendKo(res, failure.code, failure.message, failure.details, failure.httpStatus);
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
