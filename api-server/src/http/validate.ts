/** Request validation with the shared schemas: a failure lists every field problem (code 10001). */
import type { z } from 'zod';
import { ErrorCode, fail, ok, type FieldIssue, type Result } from '@gd/shared';

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Result<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const details = zodIssues(parsed.error);
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return fail(ErrorCode.MANDATORY, `Invalid request: ${summary}`, details);
}

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
