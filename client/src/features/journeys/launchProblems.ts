/**
 * The problems a refused launch returns (KO 10001, details `{ path: 'steps.<id>.<field…>' | 'journey',
 * message: <violation code> }`) as violations the problems panel can show. Pure.
 */
import type { FieldIssue } from '@gd/shared/errors';
import { JourneyViolationCode, type JourneyViolation } from '@gd/shared/journey/validate';

export function launchViolations(details: readonly FieldIssue[], stepIds: readonly string[]): JourneyViolation[] {
  // Step ids may contain dots: match the longest known id after `steps.`.
  const ids = [...stepIds].sort((a, b) => b.length - a.length);
  return details.flatMap((d): JourneyViolation[] => {
    const code = JourneyViolationCode.safeParse(d.message);
    if (!code.success) return [];
    let stepId: string | null = null;
    let rest = '';
    if (d.path.startsWith('steps.')) {
      const tail = d.path.slice('steps.'.length);
      stepId = ids.find((id) => tail === id || tail.startsWith(`${id}.`)) ?? tail.split('.')[0] ?? null;
      rest = tail.slice((stepId ?? '').length + 1);
    } else if (d.path.startsWith('journey.')) {
      rest = d.path.slice('journey.'.length);
    }
    const path = rest === '' ? [] : rest.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    return [{ stepId, path, code: code.data }];
  });
}
