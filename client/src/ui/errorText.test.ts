import { describe, expect, it } from 'vitest';
import type { TFunction } from '../i18n/keys.ts';
import { ApiError } from '../api/errors.ts';
import { readAnswer } from '../api/client.ts';
import { errorText } from './errorText.ts';

const t: TFunction = (key) => key;

describe('errorText', () => {
  it('says a 503 is temporary, whatever its code (a launch while the sync server is down)', () => {
    let thrown: unknown;
    try {
      readAnswer(503, { status: 'KO', code: 10000, message: 'The sync server is not reachable; try again' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).httpStatus).toBe(503);
    expect(errorText(t, thrown)).toBe('errors.unavailable');
  });

  it('falls back to the server message for an uncatalogued code, and to the generic text for anything else', () => {
    expect(errorText(t, new ApiError(99999, 'Server says why', [], 400))).toBe('Server says why');
    expect(errorText(t, new Error('boom'))).toBe('errors.10000');
  });
});
