/**
 * The test device form's messages, pure so they are tested: the shared schema's checks said in the
 * person's language. The id's format per type is shared `deviceIdProblem` (its doc comment holds
 * the decisions: UUIDs in any case, OAID as UUID or 16-64 hex digits, the all-zero id refused).
 *
 * A refusal by the API maps onto the fields: 10001 on `deviceId` (a build whose rules differ from
 * the API's) gets the same translated text as the form's own check, and 30 (NAME_DUPLICATED, whose
 * catalogue text speaks of a name) says the device is already a test device of the app.
 */
import { DeviceIdType } from '@gd/shared/enums';
import { ErrorCode } from '@gd/shared/errors';
import { TestDeviceInput, deviceIdProblem, type DeviceIdProblem } from '@gd/shared/schemas/account';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

export interface DeviceFormValues { name: string; idType: string; deviceId: string }

const FIELDS = ['name', 'idType', 'deviceId'] as const;

/** The translated text of a device id that does not fit its type. */
export function deviceIdProblemMessage(idType: DeviceIdType, problem: DeviceIdProblem, t: TFunction): string {
  switch (problem) {
    case 'not_uuid':
      return t('validation.deviceIdUuid', { type: idType.toUpperCase() });
    case 'not_oaid':
      return t('validation.deviceIdOaid');
    case 'zero':
      return t('devices.zeroId', { type: idType.toUpperCase() });
    default: {
      const never: never = problem;
      return never;
    }
  }
}

/** The form's own check: the shared schema, with the id's format for the chosen type. */
export function validateDevice(values: DeviceFormValues, t: TFunction): Record<string, string> {
  const errors = schemaValidator(TestDeviceInput, t, { deviceId: 'validation.deviceId' })(values);
  // A typed id that does not fit says what its type looks like (more than the characters rule); an empty one gets the characters rule.
  const idType = DeviceIdType.safeParse(values.idType);
  const id = values.deviceId.trim();
  const problem = idType.success && id !== '' ? deviceIdProblem(idType.data, id) : null;
  if (idType.success && problem) errors.deviceId = deviceIdProblemMessage(idType.data, problem, t);
  return errors;
}

/** A refused save as field errors and a form error. */
export function deviceFailure(error: unknown, values: DeviceFormValues, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  const split = splitFailure(error, t, FIELDS);
  if (!(error instanceof ApiError) || !split.fieldErrors.deviceId) return split;
  if (error.code === ErrorCode.NAME_DUPLICATED) return { ...split, fieldErrors: { ...split.fieldErrors, deviceId: t('devices.taken') } };
  const own = validateDevice(values, t).deviceId;
  return own ? { ...split, fieldErrors: { ...split.fieldErrors, deviceId: own } } : split;
}
