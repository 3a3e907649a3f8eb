/**
 * How an import fails, named as in SPEC.md section 8. An `ImportFailure` carries the name the task
 * records, whether another try may pass (`recoverable`: network trouble, a 5xx answer) and, for
 * CsvSyntaxError, the line of the file.
 *
 * - CopyImportFileError: the file could not be read from its source (refused address, 404, login
 *   refused, an SFTP server presenting another host key than the pinned one, connection failures
 *   once the tries are spent).
 * - CsvSyntaxError: the file is not valid CSV (RFC 4180); nothing is stored.
 * - SaveDataError: the database refused the members (nothing is stored).
 * - NoRecoverableTaskError: the task cannot run at all (its credentials no longer decrypt, or its
 *   worker died on every try).
 * - RecoverableTaskError: recorded while a failed try waits for the next one.
 * - AudienceNotExist / AudienceNotValid: the target audience was deleted or is inactive, or the
 *   segment of a segment import does not evaluate.
 * - NotifyJourneysError: the members were stored but the live journeys starting from the audience
 *   could not be told (run.ts notifyJourneys); recorded on the finished task, which stays ready.
 */
import type { ImportErrorKind } from '@gd/shared';
import { NetError } from '../../net/index.ts';

export class ImportFailure extends Error {
  readonly kind: ImportErrorKind;
  readonly recoverable: boolean;
  readonly line: number | null;
  constructor(kind: ImportErrorKind, message: string, opts: { recoverable?: boolean; line?: number | null; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = kind;
    this.kind = kind;
    this.recoverable = opts.recoverable ?? false;
    this.line = opts.line ?? null;
  }
}

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** A failure while copying the file: recoverable when it looks like network trouble. */
export function copyFailure(error: unknown, what: string): ImportFailure {
  if (error instanceof ImportFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof NetError && error.reason === 'refused_address' ? `${error.message}; file addresses must be public`
    : error instanceof Error ? error.message : String(error);
  const transient = error instanceof NetError ? error.transient : typeof code === 'string' && TRANSIENT_CODES.has(code);
  return new ImportFailure('CopyImportFileError', `CopyImportFileError: ${what}: ${message}`, { recoverable: transient, cause: error });
}
