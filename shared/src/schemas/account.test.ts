import { describe, expect, it } from 'vitest';
import { TestDeviceInput, deviceIdProblem } from './account.ts';

describe('test device ids', () => {
  const device = (idType: string, deviceId: string) => TestDeviceInput.safeParse({ name: 'Phone', idType, deviceId });
  it('takes each id type in its own format', () => {
    expect(device('idfa', '6D92078A-8246-4BA4-AE5B-76104861E7DC').success).toBe(true);
    expect(device('idfv', '6d92078a-8246-4ba4-ae5b-76104861e7dc').success).toBe(true);
    expect(device('gaid', '38400000-8cf0-11bd-b23e-10b96e40000d').success).toBe(true);
    expect(device('oaid', '0123456789abcdef0123456789abcdef').success).toBe(true);
    expect(device('auto', 'sdk-install-1234').success).toBe(true);
  });
  it('refuses an id that is not of its type, saying what the type looks like', () => {
    for (const [type, id] of [['idfa', 'not-an-idfa'], ['idfv', '6D92078A82464BA4AE5B76104861E7DC'], ['gaid', 'abcd-0001'], ['oaid', 'xyz-123']] as const) {
      const parsed = device(type, id);
      expect(parsed.success, `${type} ${id}`).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: ['deviceId'] });
    }
    expect(deviceIdProblem('idfa', 'not-an-idfa')).toMatch(/IDFA is a UUID/);
    expect(deviceIdProblem('auto', 'anything-goes')).toBeNull();
  });
});
