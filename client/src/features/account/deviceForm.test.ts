import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { TFunction } from '../../i18n/keys.ts';
import { ApiError } from '../../api/errors.ts';
import { deviceFailure, validateDevice } from './deviceForm.ts';

const t: TFunction = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);
const values = (idType: string, deviceId: string) => ({ name: 'Phone', idType, deviceId });

describe('the test device form', () => {
  it("says what the chosen type's id looks like, in the person's language", () => {
    expect(validateDevice(values('idfa', 'not-an-idfa'), t)).toEqual({ deviceId: 'validation.deviceIdUuid:{"type":"IDFA"}' });
    expect(validateDevice(values('gaid', 'has spaces in it'), t)).toEqual({ deviceId: 'validation.deviceIdUuid:{"type":"GAID"}' });
    expect(validateDevice(values('oaid', 'xyz-123'), t)).toEqual({ deviceId: 'validation.deviceIdOaid' });
    expect(validateDevice(values('auto', 'a b'), t)).toEqual({ deviceId: 'validation.deviceId' });
    expect(validateDevice(values('idfa', ''), t)).toEqual({ deviceId: 'validation.deviceId' });
    expect(validateDevice(values('idfa', '6d92078a-8246-4ba4-ae5b-76104861e7dc'), t)).toEqual({});
  });

  it('refuses the all-zero advertising id, saying why', () => {
    expect(validateDevice(values('idfa', '00000000-0000-0000-0000-000000000000'), t)).toEqual({ deviceId: 'devices.zeroId:{"type":"IDFA"}' });
  });

  it("shows the API's refusals on the id field in the person's language", () => {
    const duplicate = new ApiError(ErrorCode.NAME_DUPLICATED, 'That device is already a test device of this app', [{ path: 'deviceId', message: 'Already added' }]);
    expect(deviceFailure(duplicate, values('idfa', '6D92078A-8246-4BA4-AE5B-76104861E7DC'), t)).toEqual({ fieldErrors: { deviceId: 'devices.taken' }, formError: null });
    const refused = new ApiError(ErrorCode.MANDATORY, 'An IDFA is a UUID', [{ path: 'deviceId', message: 'An IDFA is a UUID' }]);
    expect(deviceFailure(refused, values('idfa', 'not-an-idfa'), t).fieldErrors).toEqual({ deviceId: 'validation.deviceIdUuid:{"type":"IDFA"}' });
    const network = new ApiError('network', 'offline');
    expect(deviceFailure(network, values('idfa', 'x'), t)).toEqual({ fieldErrors: {}, formError: network });
  });
});
