/**
 * The condition of an audience entry or a split path: the segment editor's own condition row
 * (filter kind, then the field picked from the app's attributes, events, tags and audiences, then
 * only the operators that field allows, then its value), one component for both editors. In the
 * inspector's narrow column every field takes the full width, one under the other. The journey's
 * problem for the condition shows under it.
 */
import { Input, Stack, Text } from '@mantine/core';
import type { Segment, SegmentCondition } from '@gd/shared/segment/model';
import { ConditionRow } from '../../../entities/segment/ConditionRow.tsx';
import { useSegmentOptions } from '../../../entities/segment/useSegmentOptions.ts';
import { useInspectorReadOnly } from './context.ts';
import { firstCondition } from './segmentCondition.ts';

interface Props {
  label: string;
  segment: Segment | null;
  error?: string;
  /** A change of the first condition (the caller applies it to the latest segment). */
  onChange: (patch: Partial<SegmentCondition>) => void;
}

export function ConditionEditor({ label, segment, error, onChange }: Props) {
  const options = useSegmentOptions();
  const readOnly = useInspectorReadOnly();
  const c = firstCondition(segment);
  return (
    <Stack gap={6} className="gd-narrow-condition" data-testid="journey-condition">
      <Input.Label labelElement="div">{label}</Input.Label>
      <ConditionRow nodeKey="journey-condition" index={1} c={c} problems={[]} readOnly={readOnly} options={options} peers={[]} onChange={onChange} />
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
