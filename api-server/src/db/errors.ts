/** Recognising Postgres errors that are expected outcomes (a unique name taken, a bad reference). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23503';
}
/** The statement was cancelled: its statement_timeout passed (or it was cancelled on purpose). */
export function isQueryCanceled(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '57014';
}
