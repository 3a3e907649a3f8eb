/** Request validation with the shared schemas: a failure lists every field problem (code 10001). */
import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { ErrorCode, fail, fieldIssuesOf, ok, unstorableTextAt, type FieldIssue, type Result } from '@gd/shared';
import { sendKo } from './respond.ts';

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return fieldIssuesOf(error.issues);
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Result<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const details = zodIssues(parsed.error);
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return fail(ErrorCode.MANDATORY, `Invalid request: ${summary}`, details);
}

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * Text Postgres cannot store (a NUL character, an unpaired surrogate) anywhere in the path, the
 * query string or (`part: 'body'`, after the JSON parser) the body, keys included, is refused at
 * the boundary with 10001 and the place it was found, before any route runs: deeper down it would
 * be a database error (HTTP 500). Ingestion refuses such events one by one instead (its own router).
 */
export function refuseUnstorableText(part: 'url' | 'body') {
  return (req: Request, res: Response, next: NextFunction): void => {
    let where: string | null = null;
    if (part === 'url') {
      let path: string;
      try {
        path = decodeURIComponent(req.path);
      } catch {
        return sendKo(res, ErrorCode.MANDATORY, 'Invalid request: the path is not valid percent-encoded UTF-8', [{ path: '(path)', message: 'Malformed' }]);
      }
      if (unstorableTextAt(path) !== null) where = '(path)';
      else {
        const inQuery = unstorableTextAt(req.query);
        if (inQuery !== null) where = `query.${inQuery}`;
      }
    } else {
      const inBody = unstorableTextAt(req.body);
      if (inBody !== null) where = inBody || '(body)';
    }
    if (where === null) return next();
    const message = 'contains a NUL character or an unpaired surrogate';
    sendKo(res, ErrorCode.MANDATORY, `Invalid request: ${where}: ${message}`, [{ path: where, message }]);
  };
}
