/**
 * The text of a failure: for a dependency that is down (HTTP 503) that it is temporary; else the
 * catalogue's `errors.<code>` when it has one (localized), else the server's message.
 */
import { ErrorCode } from '@gd/shared/errors';
import { hasKey } from '../i18n/i18n.ts';
import type { TFunction, TKey } from '../i18n/keys.ts';
import { ApiError } from '../api/errors.ts';

export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.httpStatus === 503) return t('errors.unavailable');
    const key = `errors.${String(error.code)}`;
    if (hasKey(key)) return t(key as TKey);
    return error.message || t('errors.10000');
  }
  return t(`errors.${ErrorCode.GENERIC}` as TKey);
}
