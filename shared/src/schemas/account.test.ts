import { describe, expect, it } from 'vitest';
import { TestDeviceInput, canonicalDeviceId, deviceIdProblem, deviceIdProblemText } from './account.ts';

describe('test device ids', () => {
  const device = (idType: string, deviceId: string) => TestDeviceInput.safeParse({ name: 'Phone', idType, deviceId });
  it('takes each id type in its own format', () => {
    expect(device('idfa', '6D92078A-8246-4BA4-AE5B-76104861E7DC').success).toBe(true);
    expect(device('idfv', '6d92078a-8246-4ba4-ae5b-76104861e7dc').success).toBe(true);
    expect(device('gaid', '38400000-8cf0-11bd-b23e-10b96e40000d').success).toBe(true);
    expect(device('oaid', '0123456789abcdef0123456789abcdef').success).toBe(true);
    expect(device('oaid', '1a2b3c4d-0000-4bcd-8ef0-123456789abc').success).toBe(true);
    expect(device('auto', 'sdk-install-1234').success).toBe(true);
  });
  it('refuses an id that is not of its type, saying what the type looks like', () => {
    for (const [type, id] of [['idfa', 'not-an-idfa'], ['idfv', '6D92078A82464BA4AE5B76104861E7DC'], ['gaid', 'abcd-0001'], ['oaid', 'xyz-123']] as const) {
      const parsed = device(type, id);
      expect(parsed.success, `${type} ${id}`).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: ['deviceId'] });
    }
    expect(deviceIdProblem('idfa', 'not-an-idfa')).toBe('not_uuid');
    expect(deviceIdProblem('oaid', 'xyz-123')).toBe('not_oaid');
    expect(deviceIdProblemText('idfa', 'not_uuid')).toMatch(/IDFA is a UUID/);
    expect(device('idfa', 'not-an-idfa').error?.issues[0]?.message).toMatch(/IDFA is a UUID/);
    expect(deviceIdProblem('auto', 'anything-goes')).toBeNull();
  });
  it('refuses the all-zero id a phone limiting ad tracking sends, which names no device', () => {
    for (const type of ['idfa', 'idfv', 'gaid', 'oaid'] as const) {
      expect(deviceIdProblem(type, '00000000-0000-0000-0000-000000000000'), type).toBe('zero');
      const issue = device(type, '00000000-0000-0000-0000-000000000000').error?.issues[0];
      expect(issue?.path).toEqual(['deviceId']);
      expect(issue?.message).toMatch(/only zeros.*limits ad tracking/);
    }
    expect(deviceIdProblem('oaid', '0000000000000000')).toBe('zero');
    expect(deviceIdProblem('auto', '0000-0000')).toBeNull();
  });
  it('keeps an id in the case its platform reports it: iOS upper case, Android lower case', () => {
    expect(device('idfa', '6d92078a-8246-4ba4-ae5b-76104861e7dc').data?.deviceId).toBe('6D92078A-8246-4BA4-AE5B-76104861E7DC');
    expect(device('idfv', ' 6d92078a-8246-4ba4-ae5b-76104861e7dc ').data?.deviceId).toBe('6D92078A-8246-4BA4-AE5B-76104861E7DC');
    expect(device('gaid', '38400000-8CF0-11BD-B23E-10B96E40000D').data?.deviceId).toBe('38400000-8cf0-11bd-b23e-10b96e40000d');
    expect(canonicalDeviceId('oaid', 'ABCDEF0123456789')).toBe('abcdef0123456789');
    expect(device('auto', 'SDK-Install-1').data?.deviceId).toBe('SDK-Install-1');
  });
});
