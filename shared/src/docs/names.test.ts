import { describe, expect, it } from 'vitest';
import { docName, parseDocName } from './names.ts';

const acc = '11111111-1111-4111-8111-111111111111';
const app = '22222222-2222-4222-8222-222222222222';
const id = '3a3b3c3d-3333-4333-8333-33333333abcd';

describe('document names', () => {
  it('format and parse back for every kind', () => {
    for (const kind of ['journey', 'segment', 'message'] as const) {
      const name = docName(acc, app, kind, id);
      expect(name).toBe(`${acc}/${app}/${kind}/${id}`);
      expect(parseDocName(name)).toEqual({ accountId: acc, appId: app, kind, id });
    }
  });

  it('reject other kinds, other shapes and non-canonical ids', () => {
    for (const bad of [
      `${acc}/${app}/rule/${id}`,
      `${acc}/${app}/journey`,
      `${acc}/${app}/journey/${id}/x`,
      `${acc}/${app}/journey/${id.toUpperCase()}`,
      `x/${app}/journey/${id}`,
      `journey:${id}`,
      '',
    ]) {
      expect(parseDocName(bad)).toBeNull();
    }
    expect(() => docName(acc, app, 'journey', '../x')).toThrow();
  });
});
